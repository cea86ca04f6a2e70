import { badRequest, keyedError } from './http-error.ts';
import { MAX_LIMIT, type ListCondition, type ListQuery } from './record-store.ts';
import type { ResourceDefinition } from './resource-registry.ts';

const LIST_KEYS = new Set(['offset', 'limit', 'search', 'order_by', 'order_by_dir', 'opname', 'ids']);
/** Ids one `ids=` list may name: a page of the largest size. */
export const MAX_IDS = MAX_LIMIT;
const RANGE_KEYS = new Set(['from_date', 'to_date']);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `from_date` and `to_date` (YYYY-MM-DD, both days included) on the date-time field whose `x-filter.kind`
 * is `date-range`: whole days, the end not before the start.
 */
function dateRange(resource: ResourceDefinition, query: Record<string, unknown>): ListQuery['range'] {
  const from = single(query.from_date) || undefined;
  const to = single(query.to_date) || undefined;
  if (!from && !to) return undefined;
  const field = [...resource.fieldsBySource.values()].find((candidate) => candidate.filter?.kind === 'date-range');
  if (!field) throw keyedError(400, 'gateway.unknown_filter', { filter: 'from_date' });
  for (const [name, value] of [
    ['from_date', from],
    ['to_date', to],
  ] as const) {
    if (value !== undefined && (!ISO_DAY.test(value) || Number.isNaN(Date.parse(value)))) {
      throw keyedError(400, 'gateway.date_expected', { field: name });
    }
  }
  if (from && to && to < from) throw badRequest('validation.date_range');
  return {
    field: field.source,
    from: from ? new Date(`${from}T00:00:00.000Z`).toISOString() : undefined,
    before: to ? new Date(Date.parse(`${to}T00:00:00.000Z`) + 24 * 60 * 60 * 1000).toISOString() : undefined,
  };
}

export function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw keyedError(400, 'gateway.repeated_parameter');
  return String(value);
}

export function nonNegativeInt(value: string | undefined, name: string, fallback: number) {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw keyedError(400, 'gateway.whole_number_expected', { field: name });
  return Number(value);
}

/** Turns a query-string value into the JSON value stored for that schema field. */
function typedValue(type: string | undefined, raw: string, field: string): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw keyedError(400, 'gateway.number_expected', { field });
      return n;
    }
    case 'boolean':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw keyedError(400, 'gateway.boolean_expected', { field });
    default:
      return raw;
  }
}

/**
 * `ids=1,2,3`: the records with these ids, each at most once, in one request (the references of a
 * list's page). Each id is typed as the resource's id field; the list's tenancy scope and other
 * filters still apply, so an id the caller may not see is simply not among the rows.
 */
function idList(resource: ResourceDefinition, query: Record<string, unknown>): ListCondition | undefined {
  const raw = single(query.ids);
  if (raw === undefined) return undefined;
  const parts = [...new Set(raw.split(',').map((part) => part.trim()))].filter((part) => part !== '');
  if (!parts.length) throw keyedError(400, 'gateway.ids_empty');
  if (parts.length > MAX_IDS) throw keyedError(400, 'gateway.ids_too_many', { max: MAX_IDS });
  const idType = resource.fieldsBySource.get(resource.id)?.type;
  const ids = parts.map((part) => {
    const value = typedValue(idType, part, 'ids');
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw keyedError(400, 'gateway.ids_whole_numbers');
    return String(value);
  });
  return { field: resource.id, op: 'in', value: ids };
}

/** The `<field>_prefix` parameter of a field whose `x-filter.prefix` lets it be found by its first characters. */
const PREFIX_SUFFIX = '_prefix';

/**
 * `<field>_prefix=ABC1`: the rows whose field starts with the text, in any case, once it has the
 * `x-filter.prefix` characters the field asks for (fewer would match too much to be of use).
 */
function prefixCondition(resource: ResourceDefinition, key: string, value: unknown): ListCondition | undefined {
  if (!key.endsWith(PREFIX_SUFFIX)) return undefined;
  const field = resource.fieldsBySource.get(key.slice(0, -PREFIX_SUFFIX.length));
  const min = field?.filter?.prefix;
  if (!field || min === undefined) return undefined;
  const text = (single(value) ?? '').trim();
  if (text === '') return undefined;
  if (text.length < min) {
    throw keyedError(400, 'validation.prefix_min', { min });
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    throw keyedError(400, 'validation.max_length', { max: field.maxLength });
  }
  return { field: field.source, op: 'prefix', value: text };
}

export function parseListQuery(resource: ResourceDefinition, query: Record<string, unknown>): ListQuery {
  const limit = nonNegativeInt(single(query.limit), 'limit', resource.pageSize);
  if (limit < 1 || limit > MAX_LIMIT) throw keyedError(400, 'gateway.limit_range', { max: MAX_LIMIT });
  const dir = single(query.order_by_dir)?.toUpperCase();
  if (dir !== undefined && dir !== 'ASC' && dir !== 'DESC') throw keyedError(400, 'gateway.order_direction');
  const filters: Record<string, unknown> = {};
  const queryFilters: Record<string, unknown> = {};
  const conditions: ListCondition[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (LIST_KEYS.has(key) || RANGE_KEYS.has(key)) continue;
    const prefix = key.endsWith(PREFIX_SUFFIX) ? prefixCondition(resource, key, value) : undefined;
    if (prefix) {
      conditions.push(prefix);
      continue;
    }
    if (
      key.endsWith(PREFIX_SUFFIX) &&
      resource.fieldsBySource.get(key.slice(0, -PREFIX_SUFFIX.length))?.filter?.prefix
    ) {
      continue;
    }
    const queryOnly = resource.queryFilters.find((candidate) => candidate.source === key);
    if (queryOnly) {
      const raw = single(value) ?? '';
      if (raw !== '') queryFilters[key] = typedValue(queryOnly.type, raw, key);
      continue;
    }
    const field = resource.fieldsBySource.get(key);
    if (!field) throw keyedError(400, 'gateway.unknown_filter', { filter: key });
    const raw = single(value) ?? '';
    if (raw === '') continue;
    if (field.maxLength !== undefined && raw.length > field.maxLength) {
      throw badRequest('gateway.max_length', { name: key, max: field.maxLength });
    }
    // An array field is filtered by one of its items (a service point's carriers_access by a carrier).
    filters[key] = typedValue(field.type === 'array' ? field.itemType : field.type, raw, key);
  }
  const search = single(query.search)?.trim();
  const ids = idList(resource, query);
  if (ids) conditions.push(ids);
  return {
    offset: nonNegativeInt(single(query.offset), 'offset', 0),
    limit,
    search: search ? search.slice(0, 200) : undefined,
    orderBy: single(query.order_by) || undefined,
    orderDir: dir as ListQuery['orderDir'],
    filters,
    ...(Object.keys(queryFilters).length && { queryFilters }),
    range: dateRange(resource, query),
    ...(conditions.length && { conditions }),
  };
}
