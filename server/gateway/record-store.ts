import { createHash } from 'node:crypto';
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

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Field names are checked against the schema before they reach SQL; values always go as parameters. */
function fieldExpr(resource: ResourceDefinition, field: string) {
  if (!FIELD_NAME.test(field) || !resource.schema.properties?.[field]) {
    throw badRequest(`Unknown field: ${field}`);
  }
  return `doc->'${field}'`;
}

/** Each sort index serves one direction: see `ensureSortIndexes`. */
const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;

/**
 * The fields that get sort indexes: the default sort, the id (read by id is a filter on it), the
 * representation and the search fields: what people sort a long list by. Arrays and objects are
 * left out: the table does not sort by them. Other fields still sort, by reading every row.
 */
export function sortIndexedFields(resource: ResourceDefinition): string[] {
  const representation = (resource.schema['x-resource'] as { representation?: unknown } | undefined)?.representation;
  const candidates = [resource.sort.field, resource.id, representation, ...resource.search];
  return [...new Set(candidates)].filter((field): field is string => {
    if (typeof field !== 'string' || !FIELD_NAME.test(field)) return false;
    const property = resource.schema.properties?.[field];
    return property !== undefined && property.type !== 'array' && property.type !== 'object';
  });
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

/** Names stay under PostgreSQL's 63 characters; the prefix finds a resource's own indexes. */
function sortIndexPrefix(resource: ResourceDefinition) {
  return `records_sort_${shortHash(resource.endpoint)}_`;
}

function sortIndexName(resource: ResourceDefinition, field: string, dir: (typeof SORT_DIRECTIONS)[number]) {
  return `${sortIndexPrefix(resource)}${shortHash(field)}_${dir.toLowerCase()}`;
}

const sqlText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One partial index per resource, field and direction, matching the list's ORDER BY exactly
 * (`doc->'f' DIR NULLS LAST, key DIR`): ASC and DESC NULLS LAST are not mirror images, so one index
 * scanned backwards cannot serve both. Partial, so that each index holds only its resource's rows.
 * Indexes of fields the schema no longer names are dropped.
 */
export async function ensureSortIndexes(db: Db, resource: ResourceDefinition): Promise<string[]> {
  const wanted = new Map<string, string>();
  for (const field of sortIndexedFields(resource)) {
    for (const dir of SORT_DIRECTIONS) {
      wanted.set(
        sortIndexName(resource, field, dir),
        `((doc->'${field}') ${dir} NULLS LAST, key ${dir}) WHERE resource = ${sqlText(resource.endpoint)}`,
      );
    }
  }
  const existing = await db.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'records' AND starts_with(indexname, $1)`,
    [sortIndexPrefix(resource)],
  );
  const present = new Set(existing.rows.map((row) => row.name));
  const created: string[] = [];
  for (const [name, definition] of wanted) {
    if (present.has(name)) continue;
    try {
      await db.query(`CREATE INDEX IF NOT EXISTS ${name} ON records ${definition}`);
    } catch (error) {
      // Two gateways starting on one server race to create the same index; the loser may go on.
      const exists = await db.query('SELECT 1 FROM pg_indexes WHERE indexname = $1', [name]);
      if (!exists.rows.length) throw error;
    }
    created.push(name);
  }
  for (const name of present) if (!wanted.has(name)) await db.query(`DROP INDEX IF EXISTS ${name}`);
  return created;
}

interface ListState {
  sortIndexes: Map<string, Promise<void>>;
  /** Rows in `records` when this process last ran ANALYZE; undefined: not yet. */
  analyzedRows?: number;
  checkedAt: number;
}

const listStates = new WeakMap<Db, ListState>();
const STATISTICS_CHECK_MS = 10_000;
/** Rows an ordered try for a page may read (see `orderedTryBudget`): some 20 ms in PGlite. */
const MAX_ORDERED_TRY = 20_000;
/** Delta rows of `record_counts` a reader folds into one. */
const FOLD_COUNT_PARTS = 100;

function listState(db: Db): ListState {
  let state = listStates.get(db);
  if (!state) {
    state = { sortIndexes: new Map(), checkedAt: 0 };
    listStates.set(db, state);
  }
  return state;
}

/** Once per database and resource, shared by concurrent first requests; retried after a failure. */
function sortIndexesOnce(db: Db, state: ListState, resource: ResourceDefinition) {
  let ready = state.sortIndexes.get(resource.endpoint);
  if (!ready) {
    ready = ensureSortIndexes(db, resource).then(
      (created) => {
        // New indexes need statistics of their expressions before the planner can judge them.
        if (created.length) state.analyzedRows = undefined;
      },
      (error: unknown) => {
        state.sortIndexes.delete(resource.endpoint);
        throw error;
      },
    );
    state.sortIndexes.set(resource.endpoint, ready);
  }
  return ready;
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
  /** All conditions, `resource = $1` first. */
  where: string;
  /** The conditions after `resource = $1`, or undefined when there are none. */
  narrowing?: string;
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

function listSql(resource: ResourceDefinition, query: ListQuery): ListSql {
  const params: unknown[] = [resource.endpoint];
  const narrowing: string[] = [];
  if (query.scope) {
    params.push(query.scope.value);
    narrowing.push(`${fieldExpr(resource, query.scope.field).replace('->', '->>')} = $${params.length}`);
  }
  if (query.search) {
    params.push(`%${escapeLike(query.search.toLowerCase())}%`);
    narrowing.push(`search LIKE $${params.length}`);
  }
  for (const [field, value] of Object.entries(query.filters)) {
    params.push(JSON.stringify(value));
    narrowing.push(`${fieldExpr(resource, field)} = $${params.length}::jsonb`);
  }
  const sortValue = fieldExpr(resource, query.orderBy ?? resource.sort.field);
  const dir = query.orderDir ?? resource.sort.order;
  params.push(query.limit, query.offset);
  return {
    where: ['resource = $1', ...narrowing].join(' AND '),
    narrowing: narrowing.length ? narrowing.join(' AND ') : undefined,
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

type Page = { doc: Doc; version: number }[];

/** The planner's guess of the matching rows: costs a plan, not a scan. */
async function estimatedMatches(db: Db, sql: ListSql): Promise<number> {
  const explained = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM records WHERE ${sql.where}`,
    sql.params.slice(0, -2),
  );
  const raw = explained.rows[0]['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return plan[0].Plan['Plan Rows'];
}

async function countMatches(db: Db, sql: ListSql): Promise<number> {
  const counted = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE ${sql.where}`,
    sql.params.slice(0, -2),
  );
  return Number(counted.rows[0].n);
}

/** The page in sort order, through the sort index; the planner skips rows that do not match. */
async function orderedPage(db: Db, sql: ListSql): Promise<Page> {
  const page = await db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM records WHERE ${sql.where}
     ORDER BY ${sql.orderBy(sql.sortValue, 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    sql.params,
  );
  return page.rows;
}

/**
 * A page of the whole resource nearer its end than its start, read backwards: an offset costs a
 * step through the index for every row it skips, so the last page is as cheap as the first. The
 * sort index of the other direction, scanned backwards, gives this order.
 */
async function pageFromEnd(db: Db, sql: ListSql, query: ListQuery, rows: number): Promise<Page> {
  const limit = Math.min(query.limit, rows - query.offset);
  const offset = Math.max(0, rows - query.offset - query.limit);
  const page = await db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM records WHERE ${sql.where}
     ORDER BY ${sql.reverseOrderBy(sql.sortValue, 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    [...sql.params.slice(0, -2), limit, offset],
  );
  return page.rows.reverse();
}

/**
 * The page among the first `budget` rows of the resource in sort order, or undefined unless a
 * whole page of matches is among them. Cheap when the matches are spread through the sort order;
 * bounded when they are bunched up late in it (a city sorted by city, a chain's name sorted by
 * name), which an unbounded scan would read the whole resource to find.
 */
async function pageWithinBudget(db: Db, sql: ListSql, budget: number, limit: number): Promise<Page | undefined> {
  const page = await db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM (
       SELECT doc, version, key, search FROM records WHERE resource = $1
       ORDER BY ${sql.orderBy(sql.sortValue, 'key')} LIMIT ${budget}
     ) AS records
     WHERE ${sql.narrowing}
     ORDER BY ${sql.orderBy(sql.sortValue, 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    sql.params,
  );
  return page.rows.length === limit ? page.rows : undefined;
}

/**
 * Reads every match once (through the trigram index for a search), keeping only its key and sort
 * value, counts and sorts them, and fetches the page's documents by key: the cost follows the
 * number of matches, wherever they sit in the sort order. Carrying whole documents through the
 * sort would copy each one; the fence (MATERIALIZED) keeps the planner from turning it back into
 * a scan in sort order.
 */
async function sortedMatches(db: Db, sql: ListSql): Promise<{ page: Page; total: number }> {
  const result = await db.query<{ total: string; doc: Doc | null; version: number | null }>(
    `WITH matched AS MATERIALIZED (
       SELECT key, ${sql.sortValue} AS sort_value FROM records WHERE ${sql.where}
     ), total AS (
       SELECT count(*) AS n FROM matched
     ), page AS (
       SELECT key, sort_value FROM matched
       WHERE ${sql.offset} < (SELECT n FROM total)
       ORDER BY ${sql.orderBy('sort_value', 'key')} LIMIT ${sql.limit} OFFSET ${sql.offset}
     )
     SELECT total.n AS total, records.doc, records.version FROM total
     LEFT JOIN (page JOIN records ON records.resource = $1 AND records.key = page.key) ON true
     ORDER BY ${sql.orderBy('page.sort_value', 'page.key')}`,
    sql.params,
  );
  return {
    page: result.rows.filter((row) => row.doc !== null) as Page,
    total: Number(result.rows[0].total),
  };
}

/**
 * Rows the ordered try may read: twice what it needs when matches are spread evenly. A try that
 * fails costs its reads on top of sorting the matches, so it is made only when small next to
 * that: fewer rows than the matches expected, and few in absolute terms.
 */
function orderedTryBudget(query: ListQuery, rows: number, matches: number): number | undefined {
  const budget = (2 * (query.offset + query.limit) * rows) / Math.max(matches, 1) + 200;
  return budget <= Math.min(matches, MAX_ORDERED_TRY) ? Math.ceil(budget) : undefined;
}

/**
 * One page of the matches, and their exact total. When most rows match, the sort index finds the
 * page quickly; otherwise a bounded try in sort order, then sorting the matches.
 */
async function narrowedPage(db: Db, sql: ListSql, query: ListQuery, rows: number) {
  const estimate = await estimatedMatches(db, sql);
  if (2 * estimate > rows) {
    const total = await countMatches(db, sql);
    return { page: query.offset < total ? await orderedPage(db, sql) : [], total };
  }
  const budget = orderedTryBudget(query, rows, estimate);
  const tried = budget === undefined ? undefined : await pageWithinBudget(db, sql, budget, query.limit);
  if (tried) return { page: tried, total: await countMatches(db, sql) };
  return sortedMatches(db, sql);
}

/**
 * One page and the exact total, in one read-only snapshot (so `db` is the database, not a
 * transaction). count(*) OVER () would sort every match to return 15, so the total comes from the
 * count deltas (whole resource) or a count of the matches, and a page past the end is not read.
 */
export async function listRecords(
  db: Db,
  resource: ResourceDefinition,
  query: ListQuery,
): Promise<{ data: Doc[]; total: number }> {
  const state = listState(db);
  await sortIndexesOnce(db, state, resource);
  await keepStatisticsFresh(db, state);
  const sql = listSql(resource, query);

  const { page, total, parts } = await db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows, parts } = await resourceRows(tx, resource.endpoint);
    if (sql.narrowing) return { ...(await narrowedPage(tx, sql, query, rows)), parts };
    if (query.offset >= rows) return { page: [], total: rows, parts };
    const nearerEnd = rows - query.offset - query.limit < query.offset;
    return { page: await (nearerEnd ? pageFromEnd(tx, sql, query, rows) : orderedPage(tx, sql)), total: rows, parts };
  });
  if (parts > FOLD_COUNT_PARTS) await foldCounts(db, resource.endpoint);
  return { data: page.map((row) => ({ ...row.doc, version: row.version })), total };
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
