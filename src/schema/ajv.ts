import Ajv2020 from 'ajv/dist/2020';
import type { KeywordDefinition, SchemaObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { defaultDescriptionKeyword } from './validators/default-description.ts';
import { sharedFormats, standardFormats } from './validators/formats.ts';
import type { RefResolver } from './validators/normalise-input.ts';
import { phoneCountryKeyword } from './validators/phone.ts';

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
      properties: { name: { type: 'string' }, endpoint: { type: 'string' }, id: { type: 'string' } },
    },
  },
  {
    keyword: 'x-column',
    metaSchema: { type: 'object', properties: { type: { enum: columnTypes } } },
  },
  { keyword: 'x-filter', metaSchema: { type: 'object' } },
  { keyword: 'x-input', metaSchema: { type: 'object', properties: { kind: { type: 'string' } } } },
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
  { keyword: 'x-history' },
  { keyword: 'x-representation' },
  { keyword: 'x-rules' },
];

/**
 * The one ajv configuration shared by the browser forms and the gateway. `verbose` keeps each
 * error's schema, which tells a password confirmation (`const` with `$data`) from a terms box.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    $data: true,
    useDefaults: false,
    coerceTypes: false,
    verbose: true,
  });
  addFormats(ajv, [...standardFormats]);
  for (const [name, format] of Object.entries(sharedFormats)) ajv.addFormat(name, format);
  ajv.addVocabulary(hintVocabulary);
  ajv.addKeyword(phoneCountryKeyword);
  ajv.addKeyword(defaultDescriptionKeyword);
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
