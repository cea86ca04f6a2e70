import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createRefResolver,
  declaresResource,
  resourceModel,
  type FieldModel,
  type FieldType,
  type ResourceModel,
  type Schema,
} from '../../src/schema/resource-model.ts';
import type { Doc } from './record-store.ts';

/** A resource the gateway serves, as the schema reader models it. */
export interface ResourceDefinition extends ResourceModel {
  fieldsBySource: ReadonlyMap<string, FieldModel>;
}

export type JsonSchema = Schema;

export const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

export function loadSchemas(dir = schemasDir): JsonSchema[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as JsonSchema);
}

/** The resources the gateway serves, by endpoint: every schema that declares `x-resource`. */
export function loadResources(schemas = loadSchemas()): Map<string, ResourceDefinition> {
  const resolveRef = createRefResolver(new Map(schemas.map((schema) => [String(schema.$id), schema])));
  const byEndpoint = new Map<string, ResourceDefinition>();
  for (const schema of schemas) {
    if (!declaresResource(schema)) continue;
    const model = resourceModel(schema, resolveRef);
    byEndpoint.set(model.endpoint, {
      ...model,
      fieldsBySource: new Map(model.fields.map((field) => [field.source, field])),
    });
  }
  return byEndpoint;
}

/** The JSON type of a top-level property, its `$ref` followed. */
export function propertyType(resource: ResourceDefinition, field: string): FieldType | undefined {
  return resource.fieldsBySource.get(field)?.type;
}

const CONTROL_FIELDS = ['version', 'opname', 'id'];

/** Drops what a client may not set: control fields and the schema's readOnly properties. */
export function writableFields(resource: ResourceDefinition, doc: Doc): Doc {
  const clean = { ...doc };
  for (const field of CONTROL_FIELDS) delete clean[field];
  for (const field of resource.fields) {
    if (field.readOnly) delete clean[field.source];
  }
  return clean;
}

/** Whether a request body asks to change anything: a writable field besides the record's id. */
export function asksForChange(resource: ResourceDefinition, input: Doc): boolean {
  return Object.keys(writableFields(resource, input)).some((field) => field !== resource.id);
}

/**
 * A new record with the schema's `default` for every top-level property it leaves out, so that a
 * record created by API or import is as complete as one made in the form (a switch is off, not empty).
 */
export function withDefaults<T extends Record<string, unknown>>(resource: ResourceDefinition, doc: T): T {
  const filled: Record<string, unknown> = { ...doc };
  for (const field of resource.fields) {
    if (filled[field.source] === undefined && field.defaultValue !== undefined && !field.readOnly) {
      filled[field.source] = structuredClone(field.defaultValue);
    }
  }
  return filled as T;
}
