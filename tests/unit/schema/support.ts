import type { SchemaObject } from 'ajv';
import common from '../../../schemas/common.schema.json';
import { createSchemaRegistry } from '../../../src/schema/ajv.ts';
import type { SchemaRegistry } from '../../../src/schema/ajv.ts';
import { validateRecord } from '../../../src/schema/validate.ts';
import type { ValidateOptions } from '../../../src/schema/validate.ts';

const registries = new WeakMap<SchemaObject, SchemaRegistry>();

/** A registry holding common.schema.json and one inline test schema with `$id: "test"` (kept per schema object). */
export function registryWith(schema: SchemaObject): SchemaRegistry {
  let registry = registries.get(schema);
  if (!registry) {
    registry = createSchemaRegistry([common, { $id: 'test', type: 'object', ...schema }]);
    registries.set(schema, registry);
  }
  return registry;
}

/** Validates `data` against a one-off schema and returns the per-field errors. */
export function errorsOf(schema: SchemaObject, data: unknown, options?: ValidateOptions) {
  return validateRecord(registryWith(schema), 'test', data, options).errors;
}

/** The errors of a record whose only property `value` has the given schema. */
export function valueErrors(valueSchema: SchemaObject, value: unknown) {
  return errorsOf({ properties: { value: valueSchema } }, { value });
}
