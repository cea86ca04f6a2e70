import type { SchemaObject, ValidateFunction } from 'ajv';
import type { SchemaRegistry } from './ajv.ts';

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

  return {
    schema,
    validator(schemaId) {
      schema(schemaId);
      const validate = Object.hasOwn(validators, schemaId) ? validators[schemaId] : undefined;
      if (!validate) throw new Error(`No generated validator for schema "${schemaId}": run npm run gen`);
      return validate;
    },
    resolveRef(ref, baseId) {
      const hash = ref.indexOf('#');
      const targetId = hash === -1 ? ref : ref.slice(0, hash) || baseId;
      const root = byId.get(targetId);
      const target = root && followPointer(root, hash === -1 ? '' : ref.slice(hash + 1));
      return target && { schema: target, baseId: targetId };
    },
  };
}

/** A JSON pointer such as `/$defs/countryCode`, URI-encoded as a fragment may be. */
function followPointer(root: SchemaObject, pointer: string): SchemaObject | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let node: unknown = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? (node as SchemaObject) : undefined;
}
