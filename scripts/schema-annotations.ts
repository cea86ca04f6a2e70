import type { Plugin } from 'vite';

/** Keys of a schema that only document it: the browser's engine never reads them. */
const ANNOTATIONS = new Set(['description', '$comment', 'examples']);
/** Keys whose value maps names to schemas: a property may well be called `description`. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A schema without its documentation (`description`, `$comment`, `examples`), at any depth. */
export function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (!node || typeof node !== 'object') return node;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) && (typeof value === 'string' || Array.isArray(value))) continue;
    kept[key] =
      SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withoutAnnotations(schema)]))
        : withoutAnnotations(value);
  }
  return kept;
}

/**
 * The app's build reads schemas/*.schema.json without their documentation: every screen's schemas
 * load with the admin (src/schema/ui/registry.ts), and the texts written for the people who read
 * the schemas are about a tenth of them. The gateway and the generated validators read the files
 * as they are.
 */
export function schemaAnnotations(): Plugin {
  return {
    name: 'schema-annotations',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]schemas[\\/][^\\/]+\.schema\.json$/.test(id.split('?')[0])) return undefined;
      return { code: JSON.stringify(withoutAnnotations(JSON.parse(code))), map: null };
    },
  };
}
