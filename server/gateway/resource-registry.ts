import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ResourceDefinition {
  /** react-admin resource name, e.g. service-points. */
  name: string;
  /** Path under webtool/, e.g. service_points. */
  endpoint: string;
  /** Field holding the record id. */
  id: string;
  search: string[];
  sort: { field: string; order: 'ASC' | 'DESC' };
  pageSize: number;
  schema: JsonSchema;
}

export interface JsonSchema {
  $id?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
  'x-resource'?: Omit<ResourceDefinition, 'schema' | 'search' | 'sort' | 'pageSize'> &
    Partial<Pick<ResourceDefinition, 'search' | 'sort' | 'pageSize'>>;
  [keyword: string]: unknown;
}

export const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

export function loadSchemas(dir = schemasDir): JsonSchema[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as JsonSchema);
}

/** The resources the gateway serves: every schema that declares `x-resource`. */
export function loadResources(schemas = loadSchemas()): Map<string, ResourceDefinition> {
  const byEndpoint = new Map<string, ResourceDefinition>();
  for (const schema of schemas) {
    const meta = schema['x-resource'];
    if (!meta) continue;
    byEndpoint.set(meta.endpoint, {
      name: meta.name,
      endpoint: meta.endpoint,
      id: meta.id,
      search: meta.search ?? [],
      sort: meta.sort ?? { field: meta.id, order: 'ASC' },
      pageSize: meta.pageSize ?? 20,
      schema,
    });
  }
  return byEndpoint;
}

/** The JSON type of a top-level property, following a `common#/$defs/x` reference once. */
export function propertyType(resource: ResourceDefinition, field: string, common?: JsonSchema): string | undefined {
  let property = resource.schema.properties?.[field];
  if (property?.$ref && common) {
    const defName = property.$ref.split('/').pop() ?? '';
    property = (common.$defs as Record<string, JsonSchema> | undefined)?.[defName] ?? property;
  }
  const type = property?.type;
  return Array.isArray(type) ? type.find((t) => t !== 'null') : type;
}

/**
 * A new record with the schema's `default` for every top-level property it leaves out, so that a
 * record created by API or import is as complete as one made in the form (a switch is off, not empty).
 */
export function withDefaults<T extends Record<string, unknown>>(resource: ResourceDefinition, doc: T): T {
  const filled: Record<string, unknown> = { ...doc };
  for (const [field, property] of Object.entries(resource.schema.properties ?? {})) {
    if (filled[field] === undefined && property.default !== undefined && property.readOnly !== true) {
      filled[field] = structuredClone(property.default);
    }
  }
  return filled as T;
}
