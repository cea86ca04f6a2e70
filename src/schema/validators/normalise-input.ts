import type { SchemaObject } from 'ajv';
import { resolveNode, type RefResolver } from '../resource-model.ts';

/**
 * Clears empty input before validation: whitespace-only strings are removed (so `required` reports
 * them), and so is `null` wherever the schema does not allow it, because react-admin turns an
 * emptied input into null. Strings are never trimmed: what is kept is what the user typed.
 */
export function normaliseInput(data: unknown, schema: SchemaObject | undefined, resolveRef?: RefResolver): unknown {
  return normalise(data, schema, schema?.$id ?? '', resolveRef);
}

function normalise(data: unknown, schema: unknown, baseId: string, resolveRef: RefResolver | undefined): unknown {
  const node = resolveRef ? resolveNode(schema, baseId, resolveRef) : asNode(schema, baseId);
  if (typeof data === 'string') return data.trim() === '' ? undefined : data;
  if (data === null) return allowsNull(node?.schema) ? null : undefined;
  if (Array.isArray(data)) {
    return data
      .map((item) => normalise(item, node?.schema.items, node?.baseId ?? baseId, resolveRef))
      .filter((item) => item !== undefined);
  }
  if (isPlainObject(data)) {
    const properties = node?.schema.properties as Record<string, unknown> | undefined;
    const entries = Object.entries(data).map(([key, value]) => [
      key,
      normalise(value, properties?.[key], node?.baseId ?? baseId, resolveRef),
    ]);
    return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
  }
  return data;
}

function allowsNull(schema: SchemaObject | undefined): boolean {
  const type: unknown = schema?.type;
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  // File and Date values (image and date inputs) are objects too, but are kept whole.
  return Object.prototype.toString.call(value) === '[object Object]';
}

function asNode(schema: unknown, baseId: string) {
  return isPlainObject(schema) ? { schema, baseId } : undefined;
}
