import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, SchemaObject } from 'ajv';
import fc from 'fast-check';
import { expect } from 'vitest';
import readme from '../../../schemas/README.md?raw';
import type { SchemaRegistry } from '../../../src/schema/ajv.ts';
import { validateRecord } from '../../../src/schema/validate.ts';

/**
 * What the standalone validator tests share (standalone.test.ts, standalone-registries.test.ts): the project's
 * schemas, and samples that break every rule a schema states, built from the schema itself.
 */

export const root = path.resolve(import.meta.dirname, '../../..');
export const projectSchemas = Object.values(
  import.meta.glob<SchemaObject>('../../../schemas/*.schema.json', { eager: true, import: 'default' }),
);
export const projectIds = projectSchemas.map((schema) => String(schema.$id)).sort();

export function readmeExample(): SchemaObject {
  const block = /```json\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error('schemas/README.md has no json example');
  return JSON.parse(block[1]);
}

const temporaryDirs: string[] = [];

/** A folder under .tmp for a test's files, removed by `removeTemporaryDirs` (each file's `afterAll`). */
export function temporaryDir(): string {
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(root, '.tmp/standalone-'));
  temporaryDirs.push(dir);
  return dir;
}

export function removeTemporaryDirs() {
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A valid and an invalid example of every format the registry knows. */
export const formatSamples: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
  phone: { valid: ['+45 20 12 34 56', '20123456'], invalid: ['12', '2012 3456'] },
  email: { valid: ['ops@example.com'], invalid: ['ops@'] },
  'email-list': { valid: ['a@example.com, b@example.dk'], invalid: ['a@example.com; b@example.dk'] },
  'complex-password': { valid: ['Secr3t!pass'], invalid: ['password'] },
  'positive-integer': { valid: [5], invalid: [0] },
  'number-with-zero': { valid: [0], invalid: [-1] },
  numeric: { valid: ['007'], invalid: ['7a'] },
  time: { valid: ['10:30', '23:59:59'], invalid: ['24:00'] },
  'date-dmy': { valid: ['29-02-2024'], invalid: ['29-02-2023'] },
  'scout-value': { valid: ['42'], invalid: ['scout'] },
  'no-period-start': { valid: ['Ok'], invalid: ['.hidden'] },
  'no-special-characters': { valid: ['Ref 42'], invalid: ['Ref#42'] },
  'organization-number': { valid: ['DK-123 45'], invalid: ['Org!'] },
  'alphanumeric-hyphen': { valid: ['AB-12'], invalid: ['-AB', 'A--B'] },
  alphanumeric: { valid: ['HO2001'], invalid: ['HO 2001', 'HO-2001'] },
  'order-quantity': { valid: [5000], invalid: [5001] },
  'name-3': { valid: ['Ana'], invalid: ['a b'] },
  'name-characters': { valid: ['Nordic Parcel Århus'], invalid: [' Lead', 'semi;colon'] },
  'no-whitespace': { valid: ['abc'], invalid: ['a b'] },
  'https-url': {
    valid: ['https://example.com/hook', `https://example.com/${'a'.repeat(600)}`],
    invalid: ['http://x.dk'],
  },
  date: { valid: ['2024-02-29'], invalid: ['2023-02-29'] },
  'date-time': { valid: ['2024-02-29T10:00:00Z'], invalid: ['2024-02-29 10:00'] },
  uri: { valid: ['https://example.com/a?b=c'], invalid: ['not a uri'] },
  uuid: { valid: ['123e4567-e89b-12d3-a456-426614174000'], invalid: ['123e4567'] },
};

/** Values of every shape, near the limits the schemas use; each property is tried with all of them. */
const genericValues: unknown[] = [
  ...Object.values(formatSamples).flatMap(({ valid, invalid }) => [...valid, ...invalid]),
  ...['DK', '+45', 'XX', '', '   ', 'a', 'ab', 'abc', 'Netto', '1234', '123456789', '#1a2B3c', '#12345'],
  ...[21, 71, 101, 256, 501].map((length) => 'x'.repeat(length)),
  ...[-200, -91, -1, 0, 0.05, 0.1, 1, 1.5, 3, 4, 7, 8, 9, 10, 20, 20.5, 24, 25, 30, 31, 120, 121, 1e6],
  // Years (a licence period: 2015 to 2100).
  ...[2014, 2026, 2101],
  true,
  false,
  null,
  ...[[], [1], [1, 2], [1, 1], [1.5], ['a'], ['a', 'a']],
  ...[{}, { name: 'Vesterbrogade 1' }, { name: 'Vesterbrogade 1', address_id: 4 }, { address_id: 'x' }],
  [{ text: 'Pakker', language_code: 'da', country: 'DK' }],
  [{ text: 'Parcels', language_code: 'en', country: 'DK' }],
  [{ text: 'x'.repeat(501), language_code: 'da', country: 'DK' }, { language_code: 'da' }],
];

function resolved(registry: SchemaRegistry, schemaId: string, schema: SchemaObject): SchemaObject {
  return typeof schema.$ref === 'string' ? (registry.resolveRef(schema.$ref, schemaId)?.schema ?? schema) : schema;
}

/** What validateRecord clears before validating, so not a value of a valid record. */
function isEmpty(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** Where a value sits in a record under test: how to build that record, and the value's field path. */
interface Place {
  registry: SchemaRegistry;
  schemaId: string;
  record: (value: unknown) => unknown;
  path: string;
}

const inside = (place: Place, key: string | number, record: (value: unknown) => unknown): Place => ({
  ...place,
  record,
  path: place.path ? `${place.path}.${key}` : String(key),
});

/** The value passes where it sits: the record has no error on its field or below. */
function accepts(place: Place, value: unknown): boolean {
  const { errors } = validateRecord(place.registry, place.schemaId, place.record(value));
  return !Object.keys(errors).some((field) => field === place.path || field.startsWith(`${place.path}.`));
}

/** Objects and arrays built from the first candidate each property (or the item) accepts. */
function exampleOf(place: Place, schema: SchemaObject, depth: number): unknown {
  if (schema.properties) {
    const example: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties as Record<string, SchemaObject>)) {
      const here = inside(place, name, (value) => place.record({ ...example, [name]: value }));
      const accepted = candidatesFor(here, property, depth + 1).find(
        (value) => !isEmpty(value) && accepts(here, value),
      );
      if (accepted !== undefined) example[name] = accepted;
    }
    return example;
  }
  if (schema.items && typeof schema.items === 'object') {
    const here = inside(place, 0, (value) => place.record([value]));
    const item = candidatesFor(here, schema.items, depth + 1).find((value) => !isEmpty(value) && accepts(here, value));
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

/**
 * What to try for a value: the schema's own choices and strings matching its pattern, an example
 * built from its properties or items, values of every shape, and (for objects and arrays) the
 * example with one property left out or one property or item replaced by each of its candidates.
 */
function candidatesFor(place: Place, node: SchemaObject, depth = 0): unknown[] {
  const schema = resolved(place.registry, place.schemaId, node);
  const choices = [...(schema.enum ?? []), ...('const' in schema ? [schema.const] : [])];
  const matching =
    typeof schema.pattern === 'string'
      ? fc.sample(fc.stringMatching(new RegExp(schema.pattern, 'u'), { size: 'xsmall' }), { seed: 1, numRuns: 10 })
      : [];
  if (depth > 5) return [...choices, ...matching, ...genericValues];
  const example = exampleOf(place, schema, depth);
  const variants: unknown[] = [];
  if (schema.properties && example) {
    for (const [name, property] of Object.entries(schema.properties as Record<string, SchemaObject>)) {
      const { [name]: _left, ...without } = example as Record<string, unknown>;
      const here = inside(place, name, (value) => place.record({ ...without, [name]: value }));
      variants.push(
        without,
        ...candidatesFor(here, property, depth + 1).map((value) => ({ ...without, [name]: value })),
      );
    }
  }
  if (schema.items && typeof schema.items === 'object') {
    const here = inside(place, 0, (value) => place.record([value]));
    const items = candidatesFor(here, schema.items, depth + 1);
    variants.push(...items.map((item) => [item]), items.slice(0, 2), [items[0], items[0]]);
    // One item too many, each item different (so that only maxItems is broken).
    const itemSchema = resolved(place.registry, place.schemaId, schema.items as SchemaObject);
    if (typeof schema.maxItems === 'number' && itemSchema.type === 'integer') {
      const first = typeof itemSchema.minimum === 'number' ? itemSchema.minimum : 0;
      variants.push(Array.from({ length: schema.maxItems + 1 }, (_, index) => first + index));
    }
  }
  return [...(example === undefined ? [] : [example]), ...choices, ...matching, ...variants, ...genericValues];
}

/**
 * A valid record built from the first candidate each property accepts, then that record with each
 * property left out or replaced by each of its candidates, then some values that are not records.
 */
export function samplesFor(registry: SchemaRegistry, schemaId: string) {
  const root: Place = { registry, schemaId, record: (value) => value, path: '' };
  const schema = registry.schema(schemaId);
  const valid = (exampleOf(root, schema, 0) ?? {}) as Record<string, unknown>;
  const candidates = Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>).map(
    ([name, property]) => {
      const { [name]: _left, ...without } = valid;
      return [
        name,
        candidatesFor(
          inside(root, name, (value) => ({ ...without, [name]: value })),
          property,
        ),
      ] as const;
    },
  );
  const all: unknown[] = [valid, null, 'record', 42, [valid]];
  for (const [name, values] of candidates) {
    const { [name]: _left, ...without } = valid;
    all.push(without, ...values.map((value) => ({ ...valid, [name]: value })));
  }
  return { valid, all, candidates };
}

/** Which rules a schema states: `minLength`, `format:https-url`, … (nested subschemas included). */
export function statedRules(
  node: unknown,
  registry: SchemaRegistry,
  schemaId: string,
  rules = new Set<string>(),
): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => statedRules(item, registry, schemaId, rules));
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return rules;
  const schema = resolved(registry, schemaId, node as SchemaObject);
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'format') rules.add(`format:${value}`);
    else if (keyword === 'required' && Array.isArray(value) && value.length) rules.add(keyword);
    else if (checkedKeywords.includes(keyword)) rules.add(keyword);
    if (['properties', 'items', 'allOf', 'anyOf', 'oneOf', 'dependentSchemas'].includes(keyword)) {
      const children = keyword === 'properties' || keyword === 'dependentSchemas' ? Object.values(value) : value;
      statedRules(children, registry, schemaId, rules);
    }
  }
  return rules;
}

const checkedKeywords = [
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'pattern',
  'dependentRequired',
  'x-phone-country',
  'x-default-description',
];

const ruleOf = (error: ErrorObject) => (error.keyword === 'format' ? `format:${error.params.format}` : error.keyword);

/**
 * Validates every sample with both registries, through `validateRecord` (full and PATCH) and as
 * raw ajv errors, and returns the rules the samples broke.
 */
export function expectSameResults(
  runtime: SchemaRegistry,
  standalone: SchemaRegistry,
  schemaId: string,
  samples: unknown[],
) {
  const broken = new Set<string>();
  for (const sample of samples) {
    for (const partial of [false, true]) {
      const expected = validateRecord(runtime, schemaId, sample, { partial });
      const expectedErrors = runtime.validator(schemaId).errors;
      const actual = validateRecord(standalone, schemaId, sample, { partial });
      expect(actual, JSON.stringify(sample)).toEqual(expected);
      expect(standalone.validator(schemaId).errors, JSON.stringify(sample)).toEqual(expectedErrors);
      for (const error of expectedErrors ?? []) broken.add(ruleOf(error));
    }
  }
  return broken;
}
