import Ajv2020 from 'ajv/dist/2020';
import type { CodeKeywordDefinition, KeywordCxt, KeywordDefinition, SchemaObject, ValidateFunction } from 'ajv';
import { _, getProperty, Name } from 'ajv/dist/compile/codegen';
import type { RefResolver } from './validators/normalise-input.ts';
import * as sharedValidators from './validators/standalone-runtime.ts';

export const columnTypes = [
  'text',
  'text_with_badge',
  'expandable',
  'link',
  'linkonly',
  'array_with_badges',
  'select',
  'select2',
  'switch',
  'images',
] as const;

/**
 * UI and gateway hints (schemas/README.md). They do not validate data; the few meta-schemas below
 * only catch typos in the hints whose shape the spec fixes.
 */
const hintVocabulary: KeywordDefinition[] = [
  {
    keyword: 'x-resource',
    metaSchema: {
      type: 'object',
      required: ['name', 'endpoint'],
      properties: {
        name: { type: 'string' },
        endpoint: { type: 'string' },
        id: { type: 'string' },
        actions: {
          type: 'object',
          propertyNames: { enum: ['create', 'edit', 'delete', 'import'] },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              levels: { type: 'array', items: { enum: ['basic', 'advance', 'scout'] }, minItems: 1 },
              partnerTypes: { oneOf: [{ const: 'All' }, { type: 'array', items: { type: 'string' } }] },
            },
          },
        },
      },
    },
  },
  {
    keyword: 'x-column',
    metaSchema: { type: 'object', properties: { type: { enum: columnTypes } } },
  },
  { keyword: 'x-filter', metaSchema: { type: 'object' } },
  {
    keyword: 'x-input',
    metaSchema: {
      type: 'object',
      properties: { kind: { type: 'string' }, callerPartner: { enum: ['type', 'id'] } },
    },
  },
  {
    keyword: 'x-lookup',
    metaSchema: {
      type: 'object',
      oneOf: [
        { properties: { source: { type: 'string' } }, required: ['source'] },
        { properties: { resource: { type: 'string' } }, required: ['resource'] },
      ],
    },
  },
  { keyword: 'x-choices', metaSchema: { type: 'string' } },
  { keyword: 'x-tab' },
  { keyword: 'x-tenancy' },
  { keyword: 'x-label', metaSchema: { type: 'string' } },
  { keyword: 'x-localised-by', metaSchema: { type: 'string' } },
  { keyword: 'x-history' },
  { keyword: 'x-representation' },
  { keyword: 'x-rules' },
  {
    keyword: 'x-import',
    metaSchema: {
      type: 'object',
      properties: { unique: { type: 'boolean' }, uniqueWith: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
];

/** Badge colours: each pairs a background and a text colour that pass WCAG AA (src/schema/ui/status-badge.tsx). */
export const badgeColors = ['default', 'info', 'success', 'warning', 'error'] as const;

const whoMaySee = {
  levels: { type: 'array', items: { enum: ['basic', 'advance', 'scout'] }, minItems: 1 },
  partnerTypes: { oneOf: [{ const: 'All' }, { type: 'array', items: { type: 'string' } }] },
};

/**
 * Extension points (schemas/README.md, "Extension points"): nested child records, record actions
 * and status badges. Kept apart from the hints above so that each block can change on its own.
 */
const extensionVocabulary: KeywordDefinition[] = [
  {
    keyword: 'x-children',
    metaSchema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['schema', 'tab', 'foreignKey'],
        additionalProperties: false,
        properties: {
          schema: { type: 'string' },
          tab: { type: 'string' },
          foreignKey: { type: 'string' },
          columns: { type: 'array', items: { type: 'string' }, minItems: 1 },
        },
      },
    },
  },
  {
    keyword: 'x-record-actions',
    metaSchema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'method', 'label'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: '^[a-z_]+$' },
          label: { type: 'string' },
          done: { type: 'string' },
          method: { enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
          opname: { type: 'string' },
          send: { type: 'array', items: { type: 'string' }, minItems: 1 },
          body: { type: 'object' },
          when: { type: 'object' },
          confirm: { type: 'string' },
          ...whoMaySee,
        },
      },
    },
  },
  {
    keyword: 'x-badge',
    metaSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        colors: { type: 'object', additionalProperties: { enum: badgeColors } },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            required: ['when', 'label', 'color'],
            additionalProperties: false,
            properties: { when: { type: 'object' }, label: { type: 'string' }, color: { enum: badgeColors } },
          },
        },
      },
    },
  },
];

/** The name under which standalone code imports src/schema/validators/standalone-runtime.ts. */
export const standaloneRuntimeName = 'sharedValidators';
const standaloneRuntime = new Name(standaloneRuntimeName);

type RuleName = 'phoneCountryMessage' | 'defaultDescriptionMessage' | 'countWithinMessage';

/**
 * A keyword whose rule is a function of standalone-runtime.ts, called with the value, the keyword's
 * schema and the object holding the value, that returns the error's message key or undefined.
 * Compiled code holds the function itself; standalone code cannot serialise it, so it imports it
 * by name. The message key reaches the error mapper in `params.message`.
 */
function ruleKeyword(rule: RuleName, definition: Omit<CodeKeywordDefinition, 'code' | 'error'>): CodeKeywordDefinition {
  return {
    ...definition,
    error: {
      message: ({ params }) => _`${params.message}`,
      params: ({ params }) => _`{message: ${params.message}}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode, it } = cxt;
      const check = gen.scopeValue('func', {
        ref: sharedValidators[rule],
        code: _`${standaloneRuntime}${getProperty(rule)}`,
      });
      const message = gen.const('message', _`${check}(${data}, ${schemaCode}, ${it.parentData})`);
      cxt.setParams({ message });
      cxt.fail(_`${message} !== undefined`);
    },
  };
}

const ruleKeywords: CodeKeywordDefinition[] = [
  /** `"x-count-within": "<sibling field>"` on an array: at most as many items as the sibling's number. */
  ruleKeyword('countWithinMessage', { keyword: 'x-count-within', type: 'array', schemaType: 'string' }),
  /** `"x-phone-country": "<sibling field>"` on a string: the sibling holds the country. */
  ruleKeyword('phoneCountryMessage', { keyword: 'x-phone-country', type: 'string', schemaType: 'string' }),
  /** `"x-default-description": { "language": "da", "country": "DK" }` on an array of translations. */
  ruleKeyword('defaultDescriptionMessage', {
    keyword: 'x-default-description',
    type: 'array',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: { language: { type: 'string' }, country: { type: 'string' } },
      required: ['language', 'country'],
      additionalProperties: false,
    },
  }),
];

export interface AjvOptions {
  /**
   * Keep each validator's source for ajv's `standaloneCode` (scripts/gen-types.ts): an ES module
   * that takes formats and keyword functions from standalone-runtime.ts, imported as
   * `sharedValidators`, instead of from closures.
   */
  standalone?: boolean;
}

/**
 * The one ajv configuration shared by the browser forms and the gateway. `verbose` keeps each
 * error's schema, which tells a password confirmation (`const` with `$data`) from a terms box.
 */
export function createAjv({ standalone = false }: AjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    $data: true,
    useDefaults: false,
    coerceTypes: false,
    verbose: true,
    formats: sharedValidators.formats,
    ...(standalone && {
      code: { source: true, esm: true, lines: true, formats: _`${standaloneRuntime}.formats` },
    }),
  });
  ajv.addVocabulary(hintVocabulary);
  ajv.addVocabulary(extensionVocabulary);
  for (const keyword of ruleKeywords) ajv.addKeyword(keyword);
  return ajv;
}

export interface SchemaRegistry {
  /** The schema as written, for the engines that read its hints. */
  schema(schemaId: string): SchemaObject;
  /** Compiled on first use, then the same function for every later call. */
  validator(schemaId: string): ValidateFunction;
  resolveRef: RefResolver;
}

/**
 * Takes the parsed contents of schemas/*.schema.json (common included): the browser loads them
 * with `import.meta.glob`, the gateway from disk, so this module stays free of both.
 */
export function createSchemaRegistry(schemas: object[]): SchemaRegistry {
  const ajv = createAjv();
  const byId = new Map<string, SchemaObject>();
  for (const schema of schemas as SchemaObject[]) {
    if (typeof schema.$id !== 'string') throw new Error(`Schema "${schema.title}" has no $id`);
    byId.set(schema.$id, schema);
  }
  // All schemas are added before any is compiled, so that cross-file $refs resolve in any order.
  ajv.addSchema([...byId.values()]);

  const schema = (schemaId: string) => {
    const found = byId.get(schemaId);
    if (!found) throw new Error(`Unknown schema "${schemaId}"`);
    return found;
  };

  return {
    schema,
    validator(schemaId) {
      // ajv compiles a registered schema the first time it is asked for and keeps the function.
      schema(schemaId);
      return ajv.getSchema(schemaId) as ValidateFunction;
    },
    resolveRef(ref, baseId) {
      const target = ajv.getSchema(ref.startsWith('#') ? `${baseId}${ref}` : ref);
      return target && { schema: target.schema as SchemaObject, baseId: target.schemaEnv.baseId };
    },
  };
}
