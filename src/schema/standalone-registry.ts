import type { SchemaObject, ValidateFunction } from 'ajv';
import type { SchemaRegistry } from './ajv.ts';
import { createRefResolver, modelCache } from './resource-model.ts';

/**
 * The registry of the browser: the same interface as `createSchemaRegistry`, but over validators
 * generated at build time (src/types/generated/validators.ts), because the gateway's
 * Content-Security-Policy forbids the `new Function` that ajv compiles with. No ajv here.
 */
export function createStandaloneRegistry(
  schemas: object[],
  validators: Record<string, ValidateFunction>,
): SchemaRegistry {
  const byId = new Map<string, SchemaObject>();
  for (const schema of schemas as SchemaObject[]) {
    if (typeof schema.$id !== 'string') throw new Error(`Schema "${schema.title}" has no $id`);
    byId.set(schema.$id, schema);
  }

  const schema = (schemaId: string) => {
    const found = byId.get(schemaId);
    if (!found) throw new Error(`Unknown schema "${schemaId}"`);
    return found;
  };

  const resolveRef = createRefResolver(byId);
  return {
    schema,
    validator(schemaId) {
      schema(schemaId);
      const validate = Object.hasOwn(validators, schemaId) ? validators[schemaId] : undefined;
      if (!validate) throw new Error(`No generated validator for schema "${schemaId}": run npm run gen`);
      return validate;
    },
    resolveRef,
    model: modelCache(schema, resolveRef),
  };
}
