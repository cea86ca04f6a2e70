import type { CountBasis, KeptCounts } from './kept-counts.ts';
import type { Db } from '../db/adapter.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { badRequest } from './http-error.ts';

export type Doc = Record<string, unknown>;

export interface ListQuery {
  offset: number;
  limit: number;
  search?: string;
  orderBy?: string;
  orderDir?: 'ASC' | 'DESC';
  /** Equality filters on top-level document fields, already typed. */
  filters: Record<string, unknown>;
  /** Tenancy: only records whose `field` holds the caller's partner. */
  scope?: { field: string; value: string };
  /** A date-time field from `from` (included) to `before` (excluded), ISO strings. */
  range?: { field: string; from?: string; before?: string };
  /** `x-resource.queryFilters` given, already typed; the resource's rules turn them into `conditions`. */
  queryFilters?: Record<string, unknown>;
  /** Comparisons of top-level text or number fields (a date range), from the resource's rules. */
  conditions?: ListCondition[];
}

/**
 * One comparison a list keeps rows by: `field` compared as text (ISO dates order as text) or, with
 * `numeric`, as a number; `in` holds the field among `value`'s items.
 */
export interface ListCondition {
  field: string;
  op: '>=' | '<=' | '<' | '>' | 'in' | 'prefix';
  value: string | number | (string | number)[];
  numeric?: boolean;
}

function conditionSql(resource: ResourceDefinition, condition: ListCondition, params: unknown[]): string {
  const text = fieldExpr(resource, condition.field).replace('->', '->>');
  const expr = condition.numeric ? `(${text})::numeric` : text;
  if (condition.op === 'prefix') {
    // Any case, through the field's lower-case pattern index (migration 026).
    params.push(`${escapeLike(String(condition.value).toLowerCase())}%`);
    return `lower(${text}) LIKE $${params.length}`;
  }
  if (condition.op === 'in') {
    const values = (Array.isArray(condition.value) ? condition.value : [condition.value]).map(String);
    params.push(values);
    // A record's key is its id as text: the id list (`ids=`) reads its rows through the key's index.
    const byKey = condition.field === resource.id ? `key = ANY($${params.length}::text[]) AND ` : '';
    return `${byKey}${text} = ANY($${params.length}::text[])`;
  }
  params.push(condition.value);
  return `${expr} ${condition.op} $${params.length}${condition.numeric ? '::numeric' : '::text'}`;
}

export const MAX_LIMIT = 1000;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Lower-cased text the free search matches against. */
export function searchText(resource: Pick<ResourceDefinition, 'search'>, doc: Doc): string {
  return resource.search
    .map((field) => doc[field])
    .filter((value) => value !== undefined && value !== null && value !== '')
    .join(' ')
    .toLowerCase();
}

/**
 * The resources whose search texts have trigram indexes of their own, in `record_search_texts` (migration 054),
 * written only when a text changes: a save that leaves it as it was writes no index entry (issue 32).
 */
export const SEARCH_TEXT_RESOURCES: ReadonlySet<string> = new Set([
  'service_points',
  'service_points/hardware_units',
  'service_points/pinpad',
]);

/**
 * `records.search LIKE pattern` (`pattern` a parameter or literal of the statement), over `records`: for the
 * resources of `SEARCH_TEXT_RESOURCES` through their own trigram index, the keys whose text matches. The resource
 * is `$1` (a list) or a literal (search.ts); a custom plan sees its value and so the partial index.
 */
export function searchCondition(resource: Pick<ResourceDefinition, 'endpoint'>, pattern: string, resourceSql = '$1') {
  if (!SEARCH_TEXT_RESOURCES.has(resource.endpoint)) return `search LIKE ${pattern}`;
  return `records.key IN (SELECT t.key FROM record_search_texts t WHERE t.resource = ${resourceSql} AND t.search LIKE ${pattern})`;
}

/** A LIKE pattern's text matched as typed: `\\`, `%` and `_` escaped. */
export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Field names are checked against the schema before they reach SQL; values always go as parameters. */
function fieldExpr(resource: ResourceDefinition, field: string) {
  if (!FIELD_NAME.test(field) || !resource.fieldsBySource.has(field)) {
    throw badRequest('gateway.unknown_field', { field });
  }
  return `doc->'${field}'`;
}

/** One sort field of `record_sort_fields`: a field's value, or (migration 049) a sink-last pair. */
export interface SortKeyField {
  field: string;
  /** A pair's value field, its records that sink and its direction (`x-resource.sort.last`). */
  source?: string;
  sinkField?: string;
  sinkValues?: unknown[];
  sinkDesc?: boolean;
}

/**
 * The name of the default order's sort key in one direction, when the schema sinks records last:
 * it says what the key holds, so that a schema changing its `sort.last` gets new keys.
 */
function sinkKeyName(resource: ResourceDefinition, dir: 'ASC' | 'DESC'): string | undefined {
  const last = resource.sort.last;
  if (!last) return undefined;
  return `${resource.sort.field}:last(${last.field} in ${JSON.stringify(last.values)}):${dir.toLowerCase()}`;
}

/**
 * The fields with sort keys (migration 007): the default sort, the id (read by id is a filter on
 * it), the representation and the search fields: what people sort a long list by. Arrays and
 * objects are left out: the table does not sort by them. Other fields still sort, by reading every
 * matching row. A default order that sinks records last (`x-resource.sort.last`) has a key of its
 * own per direction (migration 049), [rank, value], as the list orders it.
 */
export function sortKeyDefinitions(resource: ResourceDefinition): SortKeyField[] {
  const candidates = [resource.sort.field, resource.id, resource.representation, ...resource.search];
  const plain = [...new Set(candidates)].filter((field) => {
    if (!FIELD_NAME.test(field)) return false;
    const type = resource.fieldsBySource.get(field)?.type;
    return type !== undefined && type !== 'array' && type !== 'object';
  });
  const last = resource.sort.last;
  if (!last || !plain.includes(resource.sort.field) || !FIELD_NAME.test(last.field)) {
    return plain.map((field) => ({ field }));
  }
  const pairs = (['ASC', 'DESC'] as const).map((dir) => ({
    field: sinkKeyName(resource, dir)!,
    source: resource.sort.field,
    sinkField: last.field,
    sinkValues: last.values,
    sinkDesc: dir === 'DESC',
  }));
  return [...plain.map((field) => ({ field })), ...pairs];
}

/** The names of `sortKeyDefinitions`. */
export function sortKeyFields(resource: ResourceDefinition): string[] {
  return sortKeyDefinitions(resource).map((definition) => definition.field);
}

/**
 * One filter's condition, its value pushed onto `params`: an array field holds the value (a service
 * point's carriers), an `x-filter.ignoreCase` text equals it in any case (a city), any other field
 * equals it exactly (ids, enums, booleans).
 */
function filterSql(resource: ResourceDefinition, field: string, value: unknown, params: unknown[]): string {
  const expr = fieldExpr(resource, field);
  const property = resource.fieldsBySource.get(field);
  if (property?.type === 'array') {
    params.push(JSON.stringify([value]));
    return `${expr} @> $${params.length}::jsonb`;
  }
  if (property?.filter?.ignoreCase) {
    params.push(String(value).toLowerCase());
    return `lower(${expr.replace('->', '->>')}) = $${params.length}`;
  }
  params.push(JSON.stringify(value));
  const equal = `${expr} = $${params.length}::jsonb`;
  // A record is read by its id as a list filtered on it: the key is that id as text, and its index
  // finds the row where the document's own value would be looked for in every row of the resource.
  if (field === resource.id && (typeof value === 'string' || typeof value === 'number')) {
    params.push(String(value));
    return `key = $${params.length} AND ${equal}`;
  }
  return equal;
}

/** Tenancy as SQL (`scopeFor`'s field holding the caller's partner), its value pushed onto `params`. */
export function scopeSql(resource: ResourceDefinition, scope: { field: string; value: string }, params: unknown[]) {
  params.push(scope.value);
  return `${fieldExpr(resource, scope.field).replace('->', '->>')} = $${params.length}`;
}

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Keeps `record_sort_fields` (migration 007) in step with `sortKeyFields`: a field added gets the
 * keys of every record of the resource, a field dropped loses its keys. Writes wait meanwhile
 * (SHARE lock), so that no record is written between the copy and the trigger's first sight of the
 * field. Returns the fields added.
 */
export async function ensureSortKeys(db: Db, resource: ResourceDefinition): Promise<string[]> {
  const definitions = sortKeyDefinitions(resource);
  const wanted = definitions.map((definition) => definition.field);
  const presentFields = async (tx: Db) => {
    const present = await tx.query<{ field: string }>('SELECT field FROM record_sort_fields WHERE resource = $1', [
      resource.endpoint,
    ]);
    return new Set(present.rows.map((row) => row.field));
  };
  const differs = (present: Set<string>) =>
    present.size !== wanted.length || wanted.some((field) => !present.has(field));
  if (!differs(await presentFields(db))) return [];
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE records IN SHARE MODE');
    const present = await presentFields(tx);
    const added = wanted.filter((field) => !present.has(field));
    const dropped = [...present].filter((field) => !wanted.includes(field));
    const params = (fields: string[]) => [resource.endpoint, fields];
    if (dropped.length) {
      await tx.query('DELETE FROM record_sort_fields WHERE resource = $1 AND field = ANY($2::text[])', params(dropped));
      await tx.query('DELETE FROM record_sort_keys WHERE resource = $1 AND field = ANY($2::text[])', params(dropped));
    }
    if (added.length) {
      const rows = definitions
        .filter((definition) => added.includes(definition.field))
        .map((definition) => ({
          field: definition.field,
          source: definition.source ?? null,
          sink_field: definition.sinkField ?? null,
          sink_values: definition.sinkValues ?? null,
          sink_desc: definition.sinkDesc ?? null,
        }));
      await tx.query(
        `INSERT INTO record_sort_fields (resource, field, source, sink_field, sink_values, sink_desc)
         SELECT $1, f.field, f.source, f.sink_field, f.sink_values, f.sink_desc
         FROM jsonb_to_recordset($2::jsonb) AS f(field text, source text, sink_field text, sink_values jsonb, sink_desc boolean)`,
        [resource.endpoint, JSON.stringify(rows)],
      );
      await tx.query(
        `INSERT INTO record_sort_keys (resource, field, key, value, search)
         SELECT r.resource, f.field, r.key, record_sort_key(r.doc, f), r.search
         FROM records r JOIN record_sort_fields f ON f.resource = r.resource AND f.field = ANY($2::text[])
         WHERE r.resource = $1`,
        params(added),
      );
    }
    return added;
  });
}

/**
 * What this process already did for lists. Kept per process on purpose: it only saves repeating
 * checks whose results are in the database (the sort keys, the statistics), so another gateway
 * process that has not done them yet does them once itself and answers the same.
 */
interface ListState {
  sortKeys: Map<string, Promise<void>>;
  /** Rows in `records` when this process last ran ANALYZE; undefined: not yet. */
  analyzedRows?: number;
  checkedAt: number;
}

const listStates = new WeakMap<Db, ListState>();
const STATISTICS_CHECK_MS = 10_000;
/** Rows an ordered try for a filtered page may read (see `orderedTryBudget`). */
const MAX_ORDERED_TRY = 20_000;
/** Delta rows of `record_counts` a reader folds into one. */
const FOLD_COUNT_PARTS = 100;

function listState(db: Db): ListState {
  let state = listStates.get(db);
  if (!state) {
    state = { sortKeys: new Map(), checkedAt: 0 };
    listStates.set(db, state);
  }
  return state;
}

/** Once per database and resource, shared by concurrent first requests; retried after a failure. */
function sortKeysOnce(db: Db, state: ListState, resource: ResourceDefinition) {
  let ready = state.sortKeys.get(resource.endpoint);
  if (!ready) {
    ready = ensureSortKeys(db, resource).then(
      (added) => {
        // New keys need a vacuum before their index-only scans skip reading the table.
        if (added.length) state.analyzedRows = undefined;
      },
      (error: unknown) => {
        state.sortKeys.delete(resource.endpoint);
        throw error;
      },
    );
    state.sortKeys.set(resource.endpoint, ready);
  }
  return ready;
}

/**
 * The sort keys of every resource and fresh statistics, before the first request (server/main.ts):
 * filling in the keys of a field new to the schemas holds writes back, better at start than on
 * someone's first list. Lists still check on their own, for resources defined later.
 */
export async function prepareLists(db: Db, resources: Iterable<ResourceDefinition>) {
  const state = listState(db);
  for (const resource of resources) await sortKeysOnce(db, state, resource);
  await keepStatisticsFresh(db, state);
}

/**
 * PGlite runs without autovacuum, and without statistics the planner guesses 500 rows per resource
 * and sorts 100,000 rows where an index scan reads 15. So the gateway runs ANALYZE itself: once per
 * process, and again when the row count moved by autovacuum's own threshold (50 rows + 10 %). On a
 * real server this mostly finds autovacuum's work done.
 */
async function keepStatisticsFresh(db: Db, state: ListState) {
  const now = Date.now();
  if (state.analyzedRows !== undefined && now - state.checkedAt < STATISTICS_CHECK_MS) return;
  state.checkedAt = now;
  const counted = await db.query<{ n: string }>('SELECT coalesce(sum(n), 0) AS n FROM record_counts');
  const rows = Number(counted.rows[0].n);
  const analyzed = state.analyzedRows;
  if (analyzed !== undefined && Math.abs(rows - analyzed) <= 50 + 0.1 * analyzed) return;
  await db.query('ANALYZE records');
  await db.query('ANALYZE record_search_texts');
  // An index-only scan still reads the table for pages the visibility map does not vouch for, and
  // only VACUUM sets it.
  await db.query('VACUUM (ANALYZE) record_sort_keys');
  state.analyzedRows = rows;
}

/** Rows of a resource, from its count deltas, and how many delta rows hold them. */
async function resourceRows(db: Db, endpoint: string): Promise<{ rows: number; parts: number }> {
  const counted = await db.query<{ n: string; parts: string }>(
    'SELECT coalesce(sum(n), 0) AS n, count(*) AS parts FROM record_counts WHERE resource = $1',
    [endpoint],
  );
  return { rows: Number(counted.rows[0].n), parts: Number(counted.rows[0].parts) };
}

/** Folds a resource's count deltas into one row; safe when two readers fold at once. */
async function foldCounts(db: Db, endpoint: string) {
  await db.query(
    `WITH folded AS (DELETE FROM record_counts WHERE resource = $1 RETURNING n)
     INSERT INTO record_counts (resource, n) SELECT $1, sum(n) FROM folded HAVING count(*) > 0`,
    [endpoint],
  );
}

interface ListSql {
  /** The sort field, as an SQL string literal (its name is checked against the schema). */
  fieldText: string;
  /** Whether `record_sort_keys` holds the sort field's values. */
  keyed: boolean;
  /** The search's LIKE parameter (`$2`), when the search is all that narrows the list. */
  searchOnly?: string;
  /** All conditions, `resource = $1` first. */
  where: string;
  /** The statement that counts the matches (its parameters `params` but the last two). */
  count: string;
  /** The conditions after `resource = $1`, or undefined when there are none. */
  narrowing?: string;
  /** A filter names the record's id: one record at most (a record page reads its record so). */
  pinned: boolean;
  params: unknown[];
  /** The sort field's expression over `doc`. */
  sortValue: string;
  /** The list's order over a sort value and a key: NULLS LAST both ways, the key breaking ties. */
  orderBy(value: string, key: string): string;
  /** The same order read from its end. */
  reverseOrderBy(value: string, key: string): string;
  limit: string;
  offset: string;
}

/**
 * `x-resource.sort.last`: in the list's default order field, either way, the records whose field holds
 * one of the values (terminated ones) come after the others. The rank, as a JSON boolean that sorts
 * before the value: false first when ascending, true first when descending. The values come from the
 * schema, checked by ajv.
 */
function sinksLast(resource: ResourceDefinition, field: string, dir: 'ASC' | 'DESC'): string | undefined {
  const last = resource.sort.last;
  if (!last || field !== resource.sort.field) return undefined;
  const values = last.values.map((value) => `${sqlText(JSON.stringify(value))}::jsonb`).join(', ');
  const sinks = `coalesce(${fieldExpr(resource, last.field)} IN (${values}), false)`;
  return `to_jsonb(${dir === 'ASC' ? sinks : `NOT ${sinks}`})`;
}

function listSql(resource: ResourceDefinition, query: ListQuery): ListSql {
  const params: unknown[] = [resource.endpoint];
  const narrowing: string[] = [];
  if (query.search) {
    params.push(`%${escapeLike(query.search.toLowerCase())}%`);
    narrowing.push(searchCondition(resource, `$${params.length}`));
  }
  if (query.scope) narrowing.push(scopeSql(resource, query.scope, params));
  for (const [field, value] of Object.entries(query.filters)) narrowing.push(filterSql(resource, field, value, params));
  for (const condition of query.conditions ?? []) narrowing.push(conditionSql(resource, condition, params));
  if (query.range) {
    const text = fieldExpr(resource, query.range.field).replace('->', '->>');
    if (query.range.from) narrowing.push(`${text} >= $${params.push(query.range.from)}`);
    if (query.range.before) narrowing.push(`${text} < $${params.push(query.range.before)}`);
  }
  const field = query.orderBy ?? resource.sort.field;
  const dir = query.orderDir ?? resource.sort.order;
  const sinking = sinksLast(resource, field, dir);
  const sortValue = sinking
    ? `jsonb_build_array(${sinking}, ${fieldExpr(resource, field)})`
    : fieldExpr(resource, field);
  params.push(query.limit, query.offset);
  // The default order that sinks records last has keys of its own, [rank, value], per direction.
  const keyField = sinking ? sinkKeyName(resource, dir)! : field;
  const searchOnly = query.search && narrowing.length === 1 ? '$2' : undefined;
  const where = ['resource = $1', ...narrowing].join(' AND ');
  return {
    count:
      searchOnly && SEARCH_TEXT_RESOURCES.has(resource.endpoint)
        ? // The search's own table alone: no record read, where the keys in it would each be looked up.
          'SELECT count(*) AS n FROM record_search_texts WHERE resource = $1 AND search LIKE $2'
        : `SELECT count(*) AS n FROM records WHERE ${where}`,
    fieldText: sqlText(keyField),
    keyed: sortKeyFields(resource).includes(keyField),
    searchOnly,
    where,
    narrowing: narrowing.length ? narrowing.join(' AND ') : undefined,
    pinned:
      Object.hasOwn(query.filters, resource.id) && ['string', 'number'].includes(typeof query.filters[resource.id]),
    params,
    sortValue,
    orderBy: (value, key) => `${value} ${dir} NULLS LAST, ${key} ${dir}`,
    reverseOrderBy: (value, key) => {
      const reverse = dir === 'ASC' ? 'DESC' : 'ASC';
      return `${value} ${reverse} NULLS FIRST, ${key} ${reverse}`;
    },
    limit: `$${params.length - 1}`,
    offset: `$${params.length}`,
  };
}

/** A page's rows: each document parsed, or as its JSON text with `QueryOptions.jsonAsText`. */
type Page = { doc: Doc | string; version: number }[];

async function countMatches(db: Db, sql: ListSql): Promise<number> {
  const counted = await db.query<{ n: string }>(sql.count, sql.params.slice(0, -2));
  return Number(counted.rows[0].n);
}

/** The key of the matches' count of `sql` among the kept counts. */
const matchCountKey = (sql: ListSql) => JSON.stringify([sql.where, sql.params.slice(0, -2)]);
/** The key of a resource's row count among the kept counts. */
const rowCountKey = (endpoint: string) => `rows\u0000${endpoint}`;

/** What a list's count reads (kept-counts.ts): the fields its conditions name, `@search` for a search. */
function countBasis(resource: ResourceDefinition, query: ListQuery): CountBasis {
  const fields = [
    ...(query.search ? ['@search'] : []),
    ...(query.scope ? [query.scope.field] : []),
    ...Object.keys(query.filters),
    ...(query.conditions ?? []).map((condition) => condition.field),
    ...(query.range ? [query.range.field] : []),
  ];
  return { resource: resource.endpoint, fields };
}

/** The matches' count as `counts` keeps it (kept-counts.ts), else counted and kept if nothing moved it since `mark`. */
async function keptMatchCount(
  db: Db,
  sql: ListSql,
  counts: KeptCounts | undefined,
  mark: number | undefined,
  basis: CountBasis,
) {
  if (!counts) return countMatches(db, sql);
  const key = matchCountKey(sql);
  const kept = counts.get(key);
  if (kept !== undefined) return kept;
  const counted = await countMatches(db, sql);
  counts.keep(key, counted, mark, basis);
  return counted;
}

/** The page as the database finds it: for a field without sort keys, by sorting every row. */
async function orderedPage(db: Db, sql: ListSql, jsonAsText: boolean): Promise<Page> {
  const page = await db.query<Page[number]>(
    `SELECT doc, version FROM records WHERE ${sql.where}
     ORDER BY ${sql.orderBy(sql.sortValue, 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    sql.params,
    { jsonAsText },
  );
  return page.rows;
}

/**
 * A page through the sort keys: the page's keys from an index-only scan in sort order (a search
 * filtered on the index's copy of the search text), then the page's own records. A page nearer the
 * end is read backwards from it, so that no page steps past more than half the list.
 * `total`: the rows of the list, all of the resource's or the search's matches.
 */
async function keyedPage(db: Db, sql: ListSql, query: ListQuery, total: number, jsonAsText: boolean): Promise<Page> {
  const fromEnd = total - query.offset - query.limit < query.offset;
  const order = fromEnd ? sql.reverseOrderBy : sql.orderBy;
  const search = sql.searchOnly === undefined ? '' : ` AND search LIKE ${sql.searchOnly}`;
  const params = [
    ...sql.params.slice(0, sql.searchOnly === undefined ? 1 : 2),
    fromEnd ? Math.min(query.limit, total - query.offset) : query.limit,
    fromEnd ? Math.max(0, total - query.offset - query.limit) : query.offset,
  ];
  const page = await db.query<Page[number]>(
    `SELECT records.doc, records.version FROM (
       SELECT key, value FROM record_sort_keys WHERE resource = $1 AND field = ${sql.fieldText}${search}
       ORDER BY ${order('value', 'key')} LIMIT $${params.length - 1} OFFSET $${params.length}
     ) AS page JOIN records ON records.resource = $1 AND records.key = page.key
     ORDER BY ${order('page.value', 'page.key')}`,
    params,
    // The sort keys' indexes and the primary key whatever the values (no partial index on either table): one
    // plan for all (a search of many matches comes this way, keysPayForSearch, a search of few does not).
    { prepared: true, genericPlan: true, jsonAsText },
  );
  return fromEnd ? page.rows.reverse() : page.rows;
}

/**
 * The page among the first `budget` rows of the resource in sort order, each read and tested
 * against the filters, or undefined unless all the page's `expected` rows are among them. Cheap
 * when the matches are spread through the sort order; bounded when they are bunched up late in it
 * (a city filter sorted by city), which an unbounded read would go through the whole resource to find.
 */
async function filteredPageWithin(
  db: Db,
  sql: ListSql,
  budget: number,
  expected: number,
  jsonAsText: boolean,
): Promise<Page | undefined> {
  const page = await db.query<Page[number]>(
    `SELECT records.doc, records.version FROM (
       SELECT key, value FROM record_sort_keys WHERE resource = $1 AND field = ${sql.fieldText}
       ORDER BY ${sql.orderBy('value', 'key')} LIMIT ${budget}
     ) AS keys JOIN records ON records.resource = $1 AND records.key = keys.key
     WHERE ${sql.narrowing}
     ORDER BY ${sql.orderBy('keys.value', 'keys.key')} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    sql.params,
    { jsonAsText },
  );
  return page.rows.length === expected ? page.rows : undefined;
}

/**
 * Reads every match once (through the trigram index for a search), keeping only its key and sort
 * value, sorts them, and fetches the page's documents by key: the cost follows the number of
 * matches, wherever they sit in the sort order. Carrying whole documents through the sort would
 * copy each one; the fence (MATERIALIZED) keeps the planner from turning it back into a scan in
 * sort order.
 */
async function sortedMatches(db: Db, sql: ListSql, jsonAsText: boolean): Promise<Page> {
  const result = await db.query<Page[number]>(
    `WITH matched AS MATERIALIZED (
       SELECT key, ${sql.sortValue} AS sort_value FROM records WHERE ${sql.where}
     ), page AS (
       SELECT key, sort_value FROM matched
       ORDER BY ${sql.orderBy('sort_value', 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}
     )
     SELECT records.doc, records.version FROM page JOIN records ON records.resource = $1 AND records.key = page.key
     ORDER BY ${sql.orderBy('page.sort_value', 'page.key')}`,
    sql.params,
    { jsonAsText },
  );
  return result.rows;
}

/**
 * An index-only step over a sort key costs about a 25th of reading a match from the table and
 * sorting it (PGlite, 100,000 service points: 100,000 steps with the search filter take some 21 ms,
 * reading and sorting 20,000 matches some 110 ms).
 */
const MATCH_COST_IN_KEY_STEPS = 25;

/** Rows stepped through in sort order to reach the page, when the matches are spread evenly. */
function stepsToPage(query: ListQuery, rows: number, matches: number, fromEnd = false): number {
  const position = fromEnd ? matches - query.offset : query.offset + query.limit;
  return (position * rows) / Math.max(matches, 1);
}

/**
 * Whether the sort keys find a search's page for less than sorting its matches costs. Read from
 * the nearer end, at worst (the matches bunched up at the far end) every key is stepped through.
 */
function keysPayForSearch(query: ListQuery, rows: number, matches: number): boolean {
  const fromEnd = matches - query.offset - query.limit < query.offset;
  const steps = Math.min(rows, stepsToPage(query, rows, matches, fromEnd));
  return steps <= MATCH_COST_IN_KEY_STEPS * matches;
}

/**
 * Rows an ordered try for a filtered page may read: twice what it needs when matches are spread
 * evenly. Each step reads a record, about what sorting a match costs, and a try that fails costs
 * its reads on top of sorting the matches; so it is made only when it reads fewer rows than there
 * are matches, and few in absolute terms.
 */
function orderedTryBudget(query: ListQuery, rows: number, matches: number): number | undefined {
  const budget = 2 * stepsToPage(query, rows, matches) + 200;
  return budget <= Math.min(matches, MAX_ORDERED_TRY) ? Math.ceil(budget) : undefined;
}

/**
 * One page and the exact total, in one read-only snapshot (so `db` is the database, not a
 * transaction). count(*) OVER () would sort every match to return 15, so the total comes from the
 * count deltas (whole resource) or a count of the matches, and a page past the end is not read.
 * Then the page (pageOf). `counts`: the resources' row counts and the lists' match counts the gateway
 * keeps while no change moves them (kept-counts.ts); with both of a list kept, the page is all it reads,
 * without a snapshot. Without `counts` every list counts.
 */
async function listPage(
  db: Db,
  resource: ResourceDefinition,
  query: ListQuery,
  counts: KeptCounts | undefined,
  jsonAsText: boolean,
): Promise<{ page: Page; total: number }> {
  const state = listState(db);
  await sortKeysOnce(db, state, resource);
  await keepStatisticsFresh(db, state);
  const sql = listSql(resource, query);
  if (sql.pinned) {
    // One record at most: the statement that reads it is the count, and one statement needs no snapshot.
    // Prepared: the primary key finds it whatever the values.
    const found = await db.query<Page[number]>(
      `SELECT doc, version FROM records WHERE ${sql.where}`,
      sql.params.slice(0, -2),
      { prepared: true, jsonAsText },
    );
    return { page: query.offset > 0 ? [] : found.rows.slice(0, query.limit), total: found.rows.length };
  }

  // Before the snapshot: a change heard after it ends the count kept from it.
  const mark = counts?.mark();
  const basis = countBasis(resource, query);
  const rowsKept = counts?.get(rowCountKey(resource.endpoint));
  const matchesKept = sql.narrowing ? counts?.get(matchCountKey(sql)) : rowsKept;
  if (rowsKept !== undefined && matchesKept !== undefined) {
    // Both counts kept: the page is one statement (two when a bounded try in order falls short), which needs no
    // snapshot of its own; the counts are what the database holds as far as the change feed has heard.
    return { page: await pageOf(db, sql, query, rowsKept, matchesKept, jsonAsText), total: matchesKept };
  }
  const { page, total, parts } = await db.transaction(
    async (tx) => {
      const { rows, parts } = await resourceRows(tx, resource.endpoint);
      counts?.keep(rowCountKey(resource.endpoint), rows, mark, { resource: resource.endpoint, fields: [] });
      const total = sql.narrowing ? await keptMatchCount(tx, sql, counts, mark, basis) : rows;
      return { page: await pageOf(tx, sql, query, rows, total, jsonAsText), total, parts };
    },
    { readOnlySnapshot: true },
  );
  if (parts > FOLD_COUNT_PARTS) await foldCounts(db, resource.endpoint);
  return { page, total };
}

export async function listRecords(
  db: Db,
  resource: ResourceDefinition,
  query: ListQuery,
  counts?: KeptCounts,
): Promise<{ data: Doc[]; total: number }> {
  const { page, total } = await listPage(db, resource, query, counts, false);
  return { data: page.map((row) => ({ ...parsedDoc(row.doc), version: row.version })), total };
}

/**
 * `listRecords` with each record as its JSON text, the database's own, which an answer passes on as it is
 * (`JsonText`): a list page read this way is never parsed, nor serialised again (issue 32). Each text parses
 * to what `listRecords` gives: the document and its `version`, which stands after the document's fields and
 * so wins over a field of that name as the spread does.
 */
export async function listRecordTexts(
  db: Db,
  resource: ResourceDefinition,
  query: ListQuery,
  counts?: KeptCounts,
): Promise<{ data: string[]; total: number }> {
  const { page, total } = await listPage(db, resource, query, counts, true);
  return { data: page.map((row) => withVersion(row.doc, row.version)), total };
}

/** A row's document parsed, whichever way it was read (a wrapper of the database may drop `jsonAsText`). */
const parsedDoc = (doc: Doc | string): Doc => (typeof doc === 'string' ? (JSON.parse(doc) as Doc) : doc);

/** A document's JSON text with `"version": <version>` as its last member. */
function withVersion(doc: Doc | string, version: number): string {
  const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
  const close = text.lastIndexOf('}');
  if (!text.startsWith('{') || close < 0) throw new Error('a record document is not a JSON object');
  const empty = /^\{\s*\}$/.test(text);
  return `${text.slice(0, close)}${empty ? '' : ', '}"version": ${Number(version)}}`;
}

/**
 * The page of a list of `total` matches among the resource's `rows`: through the sort keys for the whole
 * resource or a search of many matches; for a filter or a tenancy scope, a bounded try in sort order;
 * otherwise by sorting the matches. A page past the end is not read.
 */
async function pageOf(
  db: Db,
  sql: ListSql,
  query: ListQuery,
  rows: number,
  total: number,
  jsonAsText: boolean,
): Promise<Page> {
  if (query.offset >= total) return [];
  if (!sql.narrowing) {
    return sql.keyed ? keyedPage(db, sql, query, total, jsonAsText) : orderedPage(db, sql, jsonAsText);
  }
  if (sql.keyed && sql.searchOnly !== undefined && keysPayForSearch(query, rows, total)) {
    return keyedPage(db, sql, query, total, jsonAsText);
  }
  const budget = sql.keyed && !sql.searchOnly ? orderedTryBudget(query, rows, total) : undefined;
  const expected = Math.min(query.limit, total - query.offset);
  const tried = budget === undefined ? undefined : await filteredPageWithin(db, sql, budget, expected, jsonAsText);
  return tried ?? sortedMatches(db, sql, jsonAsText);
}

export interface NewRecord {
  key: string;
  doc: Doc;
  partnerType?: string | null;
  partnerId?: string | null;
}

/** Bulk insert used by the seed: one statement per chunk, documents passed as one JSON parameter. */
export async function insertRecords(
  db: Db,
  resource: Pick<ResourceDefinition, 'endpoint' | 'search'>,
  records: NewRecord[],
  chunk = 2000,
) {
  for (let i = 0; i < records.length; i += chunk) {
    const slice = records.slice(i, i + chunk).map((r) => ({
      key: r.key,
      doc: r.doc,
      partner_type: r.partnerType ?? null,
      partner_id: r.partnerId ?? null,
      search: searchText(resource, r.doc),
    }));
    await db.query(
      `INSERT INTO records (resource, key, partner_type, partner_id, doc, search)
       SELECT $1, r.key, r.partner_type, r.partner_id, r.doc, r.search
       FROM jsonb_to_recordset($2::jsonb) AS r(key text, partner_type text, partner_id text, doc jsonb, search text)`,
      [resource.endpoint, JSON.stringify(slice)],
    );
  }
  // New search entries wait in the trigram index's pending list, which every search reads in full
  // until something merges it; autovacuum would, but PGlite has none.
  await db.query("SELECT gin_clean_pending_list('records_search_trgm'::regclass)");
  listState(db).checkedAt = 0;
}

export async function countRecords(db: Db, resource: string) {
  const result = await db.query<{ n: string }>('SELECT count(*) AS n FROM records WHERE resource = $1', [resource]);
  return Number(result.rows[0].n);
}

/**
 * The conditions of a list query (search, filters, tenancy scope, conditions) as SQL over `records`, with
 * their parameters, `resource = $1` first: what the list counts, for a reader that wants every match at
 * once rather than a page (the service point map's `map_points`).
 */
export function listWhere(resource: ResourceDefinition, query: ListQuery): { where: string; params: unknown[] } {
  const sql = listSql(resource, query);
  // The last two parameters are the page's limit and offset, which the conditions do not use.
  return { where: sql.where, params: sql.params.slice(0, -2) };
}
