import Ajv2020 from 'ajv/dist/2020';
import type {
  CodeKeywordDefinition,
  ErrorObject,
  KeywordCxt,
  KeywordDefinition,
  SchemaObject,
  ValidateFunction,
} from 'ajv';
import { _, getProperty, Name } from 'ajv/dist/compile/codegen';
import { columnTypes, createRefResolver, modelCache, type RefResolver, type ResourceModel } from './resource-model.ts';
import * as sharedValidators from './validators/standalone-runtime.ts';
import { features } from './features.ts';
import { filterKinds, inputKinds, uploadKinds } from './kinds.ts';

const stringList = { type: 'array', items: { type: 'string' } };

/** A policy option of the resource's feature (spec 01 §6) and its value when no policy configures it. */
const featureOptionHint = {
  type: 'object',
  additionalProperties: false,
  required: ['option'],
  properties: { option: { type: 'string', minLength: 1 }, fallback: { type: 'boolean' } },
};

/**
 * The one shape of `when`, wherever a hint has one (`x-input`, `x-record-actions`, `x-read-only`,
 * `x-badge`): each named field holds one of the listed values, `{ "status": [2] }`.
 */
const recordCondition = {
  type: 'object',
  minProperties: 1,
  additionalProperties: {
    type: 'array',
    minItems: 1,
    items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
  },
};

/**
 * The shape of each hint (schemas/README.md). Hints do not validate data; their meta-schemas make a
 * misspelt key or a wrong value fail the schema's compilation, and so `npm run gen`, instead of
 * being silently ignored by the reader (src/schema/resource-model.ts).
 */
export const hintMetaSchemas: Record<string, SchemaObject> = {
  'x-resource': {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'endpoint', 'id'],
    properties: {
      name: { type: 'string', minLength: 1 },
      endpoint: { type: 'string', minLength: 1 },
      id: { type: 'string', minLength: 1 },
      /** The feature by its name in src/schema/features.ts: its ids are said there once. */
      feature: { enum: Object.keys(features) },
      partnerTypes: { oneOf: [{ const: 'All' }, stringList] },
      actions: {
        type: 'object',
        propertyNames: { enum: ['create', 'edit', 'delete', 'import'] },
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          properties: {
            levels: { type: 'array', items: { enum: ['basic', 'advance', 'scout'] }, minItems: 1 },
            partnerTypes: { oneOf: [{ const: 'All' }, stringList] },
          },
        },
      },
      pageSize: { type: 'integer', minimum: 1 },
      searchPageSize: { type: 'integer', minimum: 1 },
      /** The `webtool/lists?type=` lists that name this resource's records (their ids are its ids). */
      lookupLists: { ...stringList, minItems: 1 },
      sort: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'order'],
        properties: {
          field: { type: 'string' },
          order: { enum: ['ASC', 'DESC'] },
          last: {
            type: 'object',
            additionalProperties: false,
            required: ['field', 'values'],
            properties: {
              field: { type: 'string', minLength: 1 },
              values: {
                type: 'array',
                minItems: 1,
                items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
              },
            },
          },
        },
      },
      representation: { type: 'string' },
      search: stringList,
      tenancy: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
      bulkImport: {
        oneOf: [
          { type: 'boolean' },
          { type: 'object', additionalProperties: false, properties: { toggle: { type: 'string' } } },
        ],
      },
      tabs: stringList,
      deleteSends: { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } },
      scoutEndpoint: { type: 'string', minLength: 1 },
      bulkUpdate: {
        type: 'object',
        additionalProperties: false,
        required: ['opname', 'ids'],
        properties: { opname: { type: 'string', minLength: 1 }, ids: { type: 'string', minLength: 1 } },
      },
      scoutFields: { ...stringList, minItems: 1 },
      tabReads: { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } },
      partnerItems: {
        type: 'object',
        minProperties: 1,
        additionalProperties: {
          type: 'object',
          minProperties: 1,
          additionalProperties: { type: 'string', minLength: 1 },
        },
      },
      queryFilters: { ...stringList, minItems: 1 },
      defaultFilter: { type: 'object', minProperties: 1 },
    },
  },
  'x-column': {
    type: 'object',
    additionalProperties: false,
    properties: {
      type: { enum: columnTypes },
      hide: { type: 'boolean' },
      ignorexport: { type: 'boolean' },
      index: { type: 'integer' },
      cap: { type: 'integer', minimum: 1 },
      linked: { type: 'boolean' },
    },
  },
  'x-filter': {
    type: 'object',
    additionalProperties: false,
    properties: {
      // The list filters the engine draws (schema-inputs.tsx): a misspelt kind fails the schema load.
      kind: { enum: filterKinds },
      alwaysOn: { type: 'boolean' },
      ignoreCase: { type: 'boolean' },
      prefix: { type: 'integer', minimum: 1 },
    },
  },
  'x-input': {
    type: 'object',
    additionalProperties: false,
    properties: {
      kind: { enum: inputKinds },
      tab: { type: 'string' },
      multiline: { type: 'boolean' },
      step: { type: 'number', exclusiveMinimum: 0 },
      callerPartner: { enum: ['type', 'id'] },
      removeOpname: { type: 'string' },
      maxBytes: { type: 'integer', minimum: 1 },
      refusal: { type: 'string' },
      uppercaseOption: {
        type: 'object',
        additionalProperties: false,
        required: ['feature', 'option'],
        properties: { feature: { type: 'integer' }, option: { type: 'string' } },
      },
      option: featureOptionHint,
      requiredOption: featureOptionHint,
      setBy: { type: 'string', pattern: '^[a-z_]+$' },
      when: recordCondition,
      enabledBy: { type: 'string' },
      partnerTypes: { ...stringList, minItems: 1 },
      partnerRefusal: { type: 'string', pattern: '^catalogue\\.[a-z_]+$' },
    },
  },
  /** A `readOnly` field shown but never edited: where and how the record page shows it. */
  'x-display': {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      kind: { enum: inputKinds },
      tab: { type: 'string' },
      option: featureOptionHint,
      form: { const: false },
    },
  },
  'x-lookup': {
    type: 'object',
    additionalProperties: false,
    properties: {
      source: { type: 'string' },
      resource: { type: 'string' },
      value: { type: 'string' },
      label: { type: 'string' },
    },
    oneOf: [
      { properties: { source: true }, required: ['source'] },
      { properties: { resource: true }, required: ['resource'] },
    ],
  },
  'x-choices': { type: 'string' },
  /**
   * Names of the codes of an integer `enum`, in its order: `npm run gen` writes them as one named
   * constant (`const`) in src/types/generated/codes.ts, which the app and the gateway compare with.
   */
  'x-enum-names': {
    type: 'object',
    additionalProperties: false,
    required: ['const', 'names'],
    properties: {
      const: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' },
      names: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*$' },
      },
    },
  },
  'x-localised-by': { type: 'string' },
  'x-import': {
    type: 'object',
    additionalProperties: false,
    properties: { unique: { type: 'boolean' }, uniqueWith: stringList, maxLength: { type: 'integer', minimum: 1 } },
  },
  'x-label': { type: 'string' },
};

const hintVocabulary: KeywordDefinition[] = Object.entries(hintMetaSchemas).map(([keyword, metaSchema]) => ({
  keyword,
  metaSchema,
}));

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
          open: { type: 'boolean' },
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
          endpoint: { type: 'string', pattern: '^[a-z_]+(/[a-z_]+)*$' },
          send: { type: 'array', items: { type: 'string' }, minItems: 1 },
          body: { type: 'object' },
          when: recordCondition,
          confirm: { type: 'string' },
          destructive: { type: 'boolean' },
          form: { type: 'string' },
          option: featureOptionHint,
          ...whoMaySee,
        },
      },
    },
  },
  {
    keyword: 'x-read-only',
    metaSchema: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['when', 'reason'],
        additionalProperties: false,
        properties: { when: recordCondition, reason: { type: 'string' } },
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
            properties: { when: recordCondition, label: { type: 'string' }, color: { enum: badgeColors } },
          },
        },
        marks: {
          type: 'array',
          items: {
            type: 'object',
            required: ['when', 'label'],
            additionalProperties: false,
            properties: { when: recordCondition, label: { type: 'string' }, color: { enum: badgeColors } },
          },
        },
      },
    },
  },
];

/** The name under which standalone code imports src/schema/validators/standalone-runtime.ts. */
export const standaloneRuntimeName = 'sharedValidators';
const standaloneRuntime = new Name(standaloneRuntimeName);

type RuleName =
  'phoneCountryMessage' | 'defaultDescriptionMessage' | 'countWithinMessage' | 'timeAfterMessage' | 'notBeforeMessage';

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
  /** `"x-phone-country": "<sibling field>"` on a string: the sibling holds the country. */
  ruleKeyword('phoneCountryMessage', { keyword: 'x-phone-country', type: 'string', schemaType: 'string' }),
  /**
   * `"x-default-description": { "language": "da", "country": "DK" }` on an array of translations, or
   * `{ "countryField": "country", "languages": { "DK": "da" } }`: in the language of the record's country.
   */
  ruleKeyword('defaultDescriptionMessage', {
    keyword: 'x-default-description',
    type: 'array',
    schemaType: 'object',
    metaSchema: {
      oneOf: [
        {
          type: 'object',
          properties: { language: { type: 'string' }, country: { type: 'string' } },
          required: ['language', 'country'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            countryField: { type: 'string' },
            languages: { type: 'object', additionalProperties: { type: 'string' } },
          },
          required: ['countryField', 'languages'],
          additionalProperties: false,
        },
      ],
    },
  }),
  /** `"x-time-after": "<sibling field>"` on a time: later than the sibling's time (a day's closing time). */
  ruleKeyword('timeAfterMessage', { keyword: 'x-time-after', type: 'string', schemaType: 'string' }),
  /** `"x-not-before": "<sibling field>"` on a date or number: the end of a range not before its start. */
  ruleKeyword('notBeforeMessage', { keyword: 'x-not-before', type: ['string', 'number'], schemaType: 'string' }),
  /** `"x-count-within": "<sibling field>"` on an array: at most as many items as the sibling's number. */
  ruleKeyword('countWithinMessage', { keyword: 'x-count-within', type: 'array', schemaType: 'string' }),
];

/** Keywords whose value is a subschema, or a map or list of subschemas: where hints may sit. */
const SUBSCHEMA = new Set([
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const SUBSCHEMA_MAP = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);
const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function describeHintError(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return `unknown key "${String(error.params.additionalProperty)}"`;
  if (error.keyword === 'enum' && error.instancePath === '/kind')
    return `unknown kind ${JSON.stringify(error.data)} (the kinds are listed in src/schema/kinds.ts)`;
  if (error.keyword === 'enum') return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return error.message ?? error.keyword;
}

let hintValidators: Map<string, ValidateFunction> | undefined;

/**
 * Every `x-` keyword the schemas may use with its meta-schema, in the order schemas/README.md documents
 * them: the hints, the extension points, the validation keywords (tests/unit/schema/readme-vocabulary.test.ts).
 */
export function vocabulary(): [string, SchemaObject][] {
  return [
    ...Object.entries(hintMetaSchemas),
    ...extensionVocabulary.map((hint): [string, SchemaObject] => [
      String(hint.keyword),
      hint.metaSchema as SchemaObject,
    ]),
    ...ruleKeywords.map((rule): [string, SchemaObject] => [
      String(rule.keyword),
      (rule.metaSchema as SchemaObject | undefined) ?? { type: rule.schemaType },
    ]),
  ];
}

/** Each hint's meta-schema compiled on its own, to report every problem with its place. */
function compiledHintMetaSchemas(): Map<string, ValidateFunction> {
  if (hintValidators) return hintValidators;
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  hintValidators = new Map(vocabulary().map(([keyword, metaSchema]) => [keyword, ajv.compile(metaSchema)]));
  return hintValidators;
}

/**
 * Every misspelt or misshapen hint of one schema file, as `<file> <JSON pointer>: <problem>`, e.g.
 * `schemas/carrier.schema.json /properties/name/x-column: unknown key "tpye"`. `npm run gen` stops
 * on these before it writes anything, naming the place, which ajv's compile error does not.
 */
export function hintProblems(schema: unknown, file: string): string[] {
  const validators = compiledHintMetaSchemas();
  const problems: string[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    for (const problem of displayProblems(node as Record<string, unknown>))
      problems.push(`${file} ${pointer}: ${problem}`);
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key.startsWith('x-')) {
        const validate = validators.get(key);
        if (!validate) problems.push(`${file} ${at}: unknown hint "${key}"`);
        else if (!validate(value)) {
          for (const error of validate.errors ?? [])
            problems.push(`${file} ${at}${error.instancePath}: ${describeHintError(error)}`);
        }
      } else if (SUBSCHEMA.has(key)) visit(value, at);
      else if (SUBSCHEMA_MAP.has(key) && typeof value === 'object' && value !== null) {
        for (const [name, subschema] of Object.entries(value)) visit(subschema, `${at}/${name}`);
      } else if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) {
        value.forEach((subschema, index) => visit(subschema, `${at}/${index}`));
      }
    }
  };
  visit(schema, '');
  return problems;
}

/**
 * `x-input` is for a field the user changes, `x-display` for one shown but never edited (`readOnly`),
 * save an upload widget, which changes its `readOnly` field outside the save.
 */
function displayProblems(node: Record<string, unknown>): string[] {
  const input = node['x-input'] as { kind?: string } | undefined;
  const readOnly = node.readOnly === true;
  if (node['x-display'] !== undefined && input !== undefined) return ['both "x-input" and "x-display"'];
  if (node['x-display'] !== undefined && !readOnly)
    return ['"x-display" on a field that is not readOnly: use "x-input"'];
  if (readOnly && typeof input === 'object' && input !== null && !uploadKinds.includes(input.kind ?? ''))
    return ['"x-input" on a readOnly field, shown but never edited: use "x-display"'];
  return [];
}

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
  /** The schema's resource model (src/schema/resource-model.ts), built once. */
  model(schemaId: string): ResourceModel;
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

  const resolveRef = createRefResolver(byId);
  return {
    schema,
    validator(schemaId) {
      // ajv compiles a registered schema the first time it is asked for and keeps the function.
      schema(schemaId);
      return ajv.getSchema(schemaId) as ValidateFunction;
    },
    resolveRef,
    model: modelCache(schema, resolveRef),
  };
}
