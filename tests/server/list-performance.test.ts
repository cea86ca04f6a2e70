import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../server/db/adapter.ts';
import { openTestDb } from './support/test-db.ts';
import {
  ensureSortKeys,
  insertRecords,
  listRecords,
  prepareLists,
  SEARCH_TEXT_RESOURCES,
  sortKeyFields,
  type ListQuery,
} from '../../server/gateway/record-store.ts';
import { loadResources, loadSchemas, type ResourceDefinition } from '../../server/gateway/resource-registry.ts';
import { servicePoints } from '../../scripts/bench/service-points.ts';

// The sort keys' own order: the schema's `sort.last` (terminated last, tested in id-lists.test.ts) is
// left out, so that these tests keep reading the keyed ways to a page.
const servicePointsResource: ResourceDefinition = {
  ...loadResources().get('service_points')!,
  sort: { field: 'service_point_id', order: 'DESC' },
};
const ROWS = 1200;

/** Every statement the list code sends, to tell which way to the page it took. */
function recording(db: Db) {
  const statements: string[] = [];
  const wrap = (inner: Db): Db => ({
    query: (sql, params) => {
      statements.push(sql);
      return inner.query(sql, params);
    },
    transaction: (fn, options) => inner.transaction((tx) => fn(wrap(tx)), options),
    close: () => inner.close(),
  });
  return { db: wrap(db), statements };
}

/** The list query as it was before migration 004: one statement, count(*) OVER (), no strategy. */
async function reference(db: Db, resource: ResourceDefinition, query: ListQuery) {
  const params: unknown[] = [resource.endpoint];
  const where = ['resource = $1'];
  if (query.scope) {
    params.push(query.scope.value);
    where.push(`doc->>'${query.scope.field}' = $${params.length}`);
  }
  if (query.search) {
    params.push(`%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`search LIKE $${params.length}`);
  }
  for (const [field, value] of Object.entries(query.filters)) {
    params.push(JSON.stringify(value));
    where.push(`doc->'${field}' = $${params.length}::jsonb`);
  }
  const field = query.orderBy ?? resource.sort.field;
  const dir = query.orderDir ?? resource.sort.order;
  const whereSql = where.join(' AND ');
  const page = await db.query<{ doc: Record<string, unknown>; version: number }>(
    `SELECT doc, version FROM records WHERE ${whereSql}
     ORDER BY doc->'${field}' ${dir} NULLS LAST, key ${dir} LIMIT ${query.limit} OFFSET ${query.offset}`,
    params,
  );
  const counted = await db.query<{ n: string }>(`SELECT count(*) AS n FROM records WHERE ${whereSql}`, params);
  return { data: page.rows.map((row) => ({ ...row.doc, version: row.version })), total: Number(counted.rows[0].n) };
}

describe('list queries on a large resource', () => {
  let db: Db;

  beforeAll(async () => {
    db = await openTestDb();
    await migrate(db);
    const docs = servicePoints(ROWS).map((doc, index) => {
      // Missing and JSON-null sort values: SQL NULL sorts last both ways, JSON null is a value.
      if (index % 97 === 0) return { ...doc, city: undefined };
      if (index % 89 === 0) return { ...doc, city: null };
      return doc;
    });
    await insertRecords(
      db,
      servicePointsResource,
      docs.map((doc) => ({ key: String(doc.service_point_id), doc: JSON.parse(JSON.stringify(doc)) })),
      500,
    );
  });
  afterAll(() => db.close());

  const queries: [string, Partial<ListQuery>][] = [
    ['the whole resource, default order', {}],
    ['the whole resource by name, past the middle', { orderBy: 'name', orderDir: 'ASC', offset: 700 }],
    ['the whole resource by city, descending', { orderBy: 'city', orderDir: 'DESC', offset: 15 }],
    ['the last page, read from the end', { orderBy: 'city', orderDir: 'ASC', offset: 1190 }],
    ['a page near the end, read from the end', { orderBy: 'city', orderDir: 'DESC', offset: 1100 }],
    ['a page near the end by id', { offset: 1180, limit: 10 }],
    ['past the end', { offset: 5000 }],
    ['a rare search', { search: 'Oslo 1', orderBy: 'name', orderDir: 'DESC' }],
    ['a city, sorted by city', { search: 'oslo', orderBy: 'city', orderDir: 'ASC', offset: 15 }],
    ['an owner, sorted by name', { search: 'coop', orderBy: 'name', orderDir: 'DESC' }],
    ['an owner, sorted by name, page 3', { search: 'coop', orderBy: 'name', orderDir: 'DESC', offset: 30 }],
    ['an owner, sorted by city', { search: 'coop', orderBy: 'city', orderDir: 'ASC', offset: 45 }],
    ['a venue, sorted by id', { search: 'kiosk', orderBy: 'service_point_id', orderDir: 'ASC', offset: 15 }],
    ['the last page of a search', { search: 'kiosk', orderBy: 'name', orderDir: 'ASC', offset: 360 }],
    ['a search most rows match', { search: 'o', orderBy: 'city', orderDir: 'ASC', offset: 45 }],
    ['a search most rows match, past its end', { search: 'o', offset: 5000 }],
    ['a search nothing matches', { search: 'zzzz' }],
    ['a search with LIKE wildcards', { search: '5%_' }],
    ['an unindexed sort with a filter', { filters: { status: 7 }, orderBy: 'latitude', orderDir: 'DESC' }],
    ['read by id', { filters: { service_point_id: 101 }, limit: 1 }],
    ['a tenancy scope and a search', { scope: { field: 'location_owner_id', value: '2' }, search: 'kiosk' }],
    ['a search sorted by a number', { search: 'station', orderBy: 'max_hardware_units', orderDir: 'ASC' }],
    ['a search read from its end', { search: 'coop', orderBy: 'name', orderDir: 'ASC', offset: 200 }],
    ['a search near its end, descending', { search: 'oslo', orderBy: 'city', orderDir: 'DESC', offset: 40 }],
    [
      'a search with missing and null sort values, from its end',
      { search: 'o', orderBy: 'city', orderDir: 'DESC', offset: 900 },
    ],
    ['the last rows by city, descending (missing and null last)', { orderBy: 'city', orderDir: 'DESC', offset: 1185 }],
    ['a filter sorted by name', { filters: { status: 3 }, orderBy: 'name', orderDir: 'ASC', offset: 15 }],
    [
      'a tenancy scope sorted by city',
      { scope: { field: 'location_owner_id', value: '1' }, orderBy: 'city', orderDir: 'DESC', offset: 30 },
    ],
  ];

  it.each(queries)('answers %s exactly as the plain query does', async (_name, partial) => {
    const query: ListQuery = { offset: 0, limit: 15, filters: {}, ...partial };
    const expected = await reference(db, servicePointsResource, query);
    expect(await listRecords(db, servicePointsResource, query)).toEqual(expected);
  });

  it('reads a page of the whole resource and of a search from the sort keys index alone', async () => {
    await listRecords(db, servicePointsResource, { offset: 0, limit: 15, filters: {} });
    // Pages in the first half of their list (231 matches of "coop"), as the gateway asks for them: a
    // page past the end would rightly be sorted by PostgreSQL 15, the index reading every match anyway.
    for (const [dir, search, offset] of [
      ['DESC', '', 600],
      ['ASC', " AND search LIKE '%coop%'", 100],
    ]) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT key FROM record_sort_keys WHERE resource = $1 AND field = 'name'${search}
         ORDER BY value ${dir} NULLS LAST, key ${dir} LIMIT 15 OFFSET ${offset}`,
        ['service_points'],
      );
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index Only Scan using record_sort_keys_/);
      expect(text).not.toMatch(/Sort Key/);
    }
  });

  it('reads a record by its id through the primary key, not by looking at every row', async () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const watch = (inner: Db): Db => ({
      query: (sql, params) => {
        sent.push({ sql, params: params ?? [] });
        return inner.query(sql, params);
      },
      transaction: (fn, options) => inner.transaction((tx) => fn(watch(tx)), options),
      close: () => inner.close(),
    });
    const query: ListQuery = { offset: 0, limit: 15, filters: { service_point_id: 101 } };
    expect(await listRecords(watch(db), servicePointsResource, query)).toEqual(
      await reference(db, servicePointsResource, query),
    );
    const reads = sent.filter(({ sql }) => /^\s*(SELECT|WITH)\b/.test(sql) && /FROM records\b/.test(sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const { sql, params } of reads) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toContain('records_pkey');
      expect(text).not.toMatch(/Seq Scan on records/);
    }
  });

  it('answers a substring search through the service points’ own trigram index (migration 054)', async () => {
    const counts: { sql: string; params?: unknown[] }[] = [];
    const counting = (inner: Db): Db => ({
      ...inner,
      query: (sql, params, options) => {
        if (/^SELECT count\(\*\)/.test(sql)) counts.push({ sql, params });
        return inner.query(sql, params, options);
      },
      transaction: (fn, options) => inner.transaction((tx, opened) => fn(counting(tx), opened), options),
    });
    for (const query of [
      { search: 'Oslo 11' },
      { search: 'Oslo 11', filters: { status: 3 } },
      { search: 'Oslo 11', scope: { field: 'location_owner_id', value: '2' } },
    ]) {
      counts.length = 0;
      await listRecords(counting(db), servicePointsResource, { offset: 0, limit: 15, filters: {}, ...query });
      expect(counts).toHaveLength(1);
      // Whether the index answers the statement: at 1,200 rows reading them all costs the planner less.
      const plan = await db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${counts[0].sql}`, counts[0].params);
      });
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
        /Index Scan on record_search_texts_service_points/,
      );
    }
  });
});

describe('the default order that sinks records last (x-resource.sort.last)', () => {
  // The schema's own order: by name, terminated service points after the others, both ways.
  const resource = loadResources().get('service_points')!;
  let db: Db;
  const recorded = { statements: [] as string[], db: undefined as unknown as Db };

  /** The order written out as the list's ORDER BY, reading every row. */
  async function sortedByPair(query: ListQuery) {
    const dir = query.orderDir ?? 'ASC';
    const params: unknown[] = ['service_points'];
    let where = 'resource = $1';
    if (query.search) {
      params.push(`%${query.search}%`);
      where += ` AND search LIKE $2`;
    }
    const sinks = `coalesce(doc->'is_terminated' IN ('true'::jsonb), false)`;
    const pair = `jsonb_build_array(to_jsonb(${dir === 'ASC' ? sinks : `NOT ${sinks}`}), doc->'name')`;
    const page = await db.query<{ doc: Record<string, unknown>; version: number }>(
      `SELECT doc, version FROM records WHERE ${where}
       ORDER BY ${pair} ${dir} NULLS LAST, key ${dir} LIMIT ${query.limit} OFFSET ${query.offset}`,
      params,
    );
    return page.rows.map((row) => ({ ...row.doc, version: row.version }));
  }

  beforeAll(async () => {
    db = await openTestDb();
    await migrate(db);
    const docs = servicePoints(ROWS).map((doc, index): Record<string, unknown> => {
      const terminated = index % 7 === 0;
      if (index % 97 === 0) return { ...doc, name: undefined, is_terminated: terminated };
      if (index % 89 === 0) return { ...doc, name: null, is_terminated: terminated };
      return { ...doc, is_terminated: terminated };
    });
    await insertRecords(
      db,
      resource,
      docs.map((doc) => ({ key: String(doc.service_point_id), doc: JSON.parse(JSON.stringify(doc)) })),
      500,
    );
    const wrapped = recording(db);
    recorded.db = wrapped.db;
    recorded.statements = wrapped.statements;
  });
  afterAll(() => db.close());

  it.each([
    ['the first page', { orderDir: 'ASC' }],
    ['the first page, descending', { orderDir: 'DESC' }],
    ['where the active ones end', { orderDir: 'ASC', offset: 1020 }],
    ['past the middle, read from the end', { orderDir: 'DESC', offset: 800 }],
    ['the last page', { orderDir: 'ASC', offset: 1190 }],
    ['a search', { search: 'oslo', orderDir: 'ASC', offset: 15 }],
    ['a search, descending, near its end', { search: 'o', orderDir: 'DESC', offset: 900 }],
  ] as [string, Partial<ListQuery>][])(
    'reads %s from its own sort keys, as sorting every row does',
    async (_name, partial) => {
      const query: ListQuery = { offset: 0, limit: 15, filters: {}, orderBy: 'name', ...partial };
      recorded.statements.length = 0;
      const listed = await listRecords(recorded.db, resource, query);
      expect(listed.data).toEqual(await sortedByPair(query));
      expect(listed.data.length).toBeGreaterThan(0);
      expect(recorded.statements.some((sql) => sql.includes(') AS page JOIN'))).toBe(true);
    },
  );

  it('moves a record terminated since to the end, both ways', async () => {
    const first = (await listRecords(db, resource, { offset: 0, limit: 1, filters: {}, orderDir: 'ASC' })).data[0];
    expect(first.is_terminated).toBe(false);
    await db.query(
      `UPDATE records SET doc = doc || '{"is_terminated": true}' WHERE resource = 'service_points' AND key = $1`,
      [String(first.service_point_id)],
    );
    for (const orderDir of ['ASC', 'DESC'] as const) {
      const query: ListQuery = { offset: 0, limit: 15, filters: {}, orderDir };
      expect((await listRecords(db, resource, query)).data).toEqual(await sortedByPair(query));
    }
    const terminatedLast = await listRecords(db, resource, { offset: ROWS - 200, limit: 200, filters: {} });
    expect(terminatedLast.data.map((row) => row.service_point_id)).toContain(first.service_point_id);
  });
});

describe('the way to a page', () => {
  // 700 names starting with "a", 290 with "zzq", 10 with "zzy"; groups a, z and y alike. Matches of
  // "zzq" come last in ascending order, first in descending order. A database of its own: the
  // planner's guess of the matches, which picks the way for a filter, comes from statistics over
  // the whole table.
  const withGroup = loadSchemas().map((schema) =>
    schema.$id === servicePointsResource.schemaId
      ? { ...schema, properties: { ...(schema.properties as object), group: { type: 'string' } } }
      : schema,
  );
  const resource: ResourceDefinition = {
    ...loadResources(withGroup).get(servicePointsResource.endpoint)!,
    search: ['name', 'group'],
    sort: servicePointsResource.sort,
  };
  let db: Db;
  let wayTo: (partial: Partial<ListQuery>) => Promise<string>;

  beforeAll(async () => {
    db = await openTestDb();
    await migrate(db);
    const group = (n: number) => (n < 700 ? 'a' : n < 990 ? 'z' : 'y');
    await insertRecords(
      db,
      resource,
      Array.from({ length: 1000 }, (_, n) => ({
        key: String(n + 1),
        doc: {
          service_point_id: n + 1,
          name: `${group(n) === 'a' ? 'a' : `zz${group(n) === 'z' ? 'q' : 'y'}`}${n}`,
          group: group(n),
        },
      })),
    );
    const { db: recorded, statements } = recording(db);
    wayTo = async (partial) => {
      statements.length = 0;
      const query: ListQuery = { offset: 0, limit: 5, filters: {}, orderBy: 'name', ...partial };
      expect(await listRecords(recorded, resource, query)).toEqual(await reference(db, resource, query));
      const keys = statements.some((sql) => sql.includes(') AS page JOIN'));
      const tried = statements.some((sql) => sql.includes(') AS keys JOIN'));
      const sorted = statements.some((sql) => sql.includes('MATERIALIZED'));
      if (keys) return 'sort keys';
      if (tried) return sorted ? 'tried in order, then sorted' : 'in order, within budget';
      return sorted ? 'sorted' : 'in order';
    };
  });
  afterAll(() => db.close());

  it('pages the whole resource and a search through the sort keys, and sorts a search of few matches', async () => {
    expect(await wayTo({})).toBe('sort keys');
    expect(await wayTo({ orderDir: 'DESC', offset: 900 })).toBe('sort keys');
    expect(await wayTo({ search: 'a' })).toBe('sort keys');
    expect(await wayTo({ search: 'zzq', orderDir: 'ASC' })).toBe('sort keys');
    expect(await wayTo({ search: 'zzq', orderDir: 'DESC', offset: 280 })).toBe('sort keys');
    expect(await wayTo({ search: 'zzy', orderDir: 'ASC' })).toBe('sorted');
    // A field without sort keys: the matches sorted, or the whole resource as the database sorts it.
    expect(await wayTo({ search: 'zzq', orderBy: 'latitude' })).toBe('sorted');
    expect(await wayTo({ orderBy: 'latitude', offset: 20 })).toBe('in order');
  });

  it('finds a filtered page in sort order when matches are many or early, and sorts them when late or few', async () => {
    expect(await wayTo({ filters: { group: 'a' }, orderDir: 'ASC' })).toBe('in order, within budget');
    expect(await wayTo({ filters: { group: 'a' }, search: 'a', orderDir: 'ASC' })).toBe('in order, within budget');
    expect(await wayTo({ filters: { group: 'z' }, orderDir: 'DESC' })).toBe('in order, within budget');
    expect(await wayTo({ filters: { group: 'z' }, orderDir: 'ASC' })).toBe('tried in order, then sorted');
    expect(await wayTo({ filters: { group: 'y' }, orderDir: 'ASC' })).toBe('sorted');
  });
});

describe('sort keys', () => {
  it('cover the default sort, the id, the representation and the search fields, and follow the schema', async () => {
    expect(sortKeyFields(servicePointsResource).sort()).toEqual(
      ['city', 'name', 'service_point_id', 'sp_id', 'zip'].sort(),
    );
    const db = await openTestDb();
    await migrate(db);
    const docs = servicePoints(40);
    const keys = async () =>
      (
        await db.query<{ field: string; n: string }>(
          "SELECT field, count(*) AS n FROM record_sort_keys WHERE resource = 'service_points' GROUP BY field ORDER BY field",
        )
      ).rows.map((row) => `${row.field}:${row.n}`);
    await insertRecords(
      db,
      servicePointsResource,
      docs.slice(0, 30).map((doc) => ({ key: String(doc.service_point_id), doc })),
    );
    // Records written before the first list get their keys when the fields are added.
    expect(await ensureSortKeys(db, servicePointsResource)).toHaveLength(5);
    expect(await ensureSortKeys(db, servicePointsResource)).toEqual([]);
    expect(await keys()).toEqual(['city:30', 'name:30', 'service_point_id:30', 'sp_id:30', 'zip:30']);

    // Then the triggers keep them: inserts, updates, deletes.
    await insertRecords(
      db,
      servicePointsResource,
      docs.slice(30).map((doc) => ({ key: String(doc.service_point_id), doc })),
    );
    await db.query(
      `UPDATE records SET doc = doc || '{"city": "Zzyzx"}', search = 'zzyzx' WHERE resource = 'service_points' AND key = '3'`,
    );
    await db.query("DELETE FROM records WHERE resource = 'service_points' AND key IN ('1', '2')");
    expect(await keys()).toEqual(['city:38', 'name:38', 'service_point_id:38', 'sp_id:38', 'zip:38']);
    const city = await db.query<{ value: unknown; search: string }>(
      "SELECT value, search FROM record_sort_keys WHERE resource = 'service_points' AND key = '3' AND field = 'city'",
    );
    expect(city.rows).toEqual([{ value: 'Zzyzx', search: 'zzyzx' }]);

    // A field the schema no longer names loses its keys.
    expect(await ensureSortKeys(db, { ...servicePointsResource, search: ['name'] })).toEqual([]);
    expect(await keys()).toEqual(['name:38', 'service_point_id:38']);
    await db.query('TRUNCATE records');
    expect(await keys()).toEqual([]);
    await db.close();
  });

  it('are written on an update only where they move (migration 053)', async () => {
    const db = await openTestDb();
    await migrate(db);
    const docs = servicePoints(6);
    await insertRecords(
      db,
      servicePointsResource,
      docs.map((doc) => ({ key: String(doc.service_point_id), doc })),
    );
    await ensureSortKeys(db, servicePointsResource);
    /** Each key of the record with the transactions that last wrote and locked it. */
    const written = async (key: string) =>
      Object.fromEntries(
        (
          await db.query<{ field: string; at: string; value: unknown; search: string }>(
            `SELECT field, xmin::text || ':' || xmax::text AS at, value, search FROM record_sort_keys
             WHERE resource = 'service_points' AND key = $1 ORDER BY field`,
            [key],
          )
        ).rows.map((row) => [row.field, row]),
      );
    const save = (set: string, key = '5') =>
      db.query(`UPDATE records SET ${set} WHERE resource = 'service_points' AND key = '${key}'`);
    const movedBetween = (before: Record<string, { at: string }>, after: Record<string, { at: string }>) =>
      Object.keys(after).filter((field) => before[field]?.at !== after[field].at);

    const start = await written('5');
    expect(Object.keys(start)).toEqual(['city', 'name', 'service_point_id', 'sp_id', 'zip']);
    // A comment moves no key.
    await save(`doc = doc || '{"comments": "Call before noon"}'`);
    const afterComment = await written('5');
    expect(movedBetween(start, afterComment)).toEqual([]);
    // A city moves the city's key alone, to its new value.
    await save(`doc = doc || '{"city": "Aaby"}'`);
    const afterCity = await written('5');
    expect(movedBetween(afterComment, afterCity)).toEqual(['city']);
    expect(afterCity.city.value).toBe('Aaby');
    // The search text is in every key.
    await save(`search = 'aaby elsewhere'`);
    const afterSearch = await written('5');
    expect(movedBetween(afterCity, afterSearch)).toEqual(['city', 'name', 'service_point_id', 'sp_id', 'zip']);
    expect(Object.values(afterSearch).map((row) => row.search)).toEqual(Array(5).fill('aaby elsewhere'));
    // A record under a new key gets its keys there, and leaves none under the old one.
    await save(`key = '905'`);
    expect(await written('5')).toEqual({});
    const moved = await written('905');
    expect(Object.keys(moved)).toEqual(['city', 'name', 'service_point_id', 'sp_id', 'zip']);
    expect(moved.city.value).toBe('Aaby');
    await db.close();
  });

  it('are made for every resource at start, so that no first list waits for them', async () => {
    const db = await openTestDb();
    await migrate(db);
    const resources = loadResources();
    const { db: recorded, statements } = recording(db);
    await prepareLists(recorded, resources.values());
    const fields = await db.query<{ resource: string }>('SELECT DISTINCT resource FROM record_sort_fields');
    expect(fields.rows.map((row) => row.resource).sort()).toEqual([...resources.keys()].sort());
    statements.length = 0;
    await listRecords(recorded, servicePointsResource, { offset: 0, limit: 15, filters: {} });
    expect(statements.filter((sql) => /record_sort_fields|LOCK|ANALYZE/.test(sql))).toEqual([]);
    await db.close();
  });

  it('replace the expression sort indexes of earlier versions', async () => {
    const db = await openTestDb();
    await migrate(db);
    // An index as earlier gateways made them, then migration 007's statement that removes them.
    await db.query(
      `CREATE INDEX records_sort_0123456789_abcdef0123_asc ON records ((doc->'name') ASC NULLS LAST, key ASC)
       WHERE resource = 'service_points'`,
    );
    const migration = readFileSync(new URL('../../server/db/migrations/007-sort-keys.sql', import.meta.url), 'utf8');
    const dropOld = migration.split('\n').find((line) => line.startsWith('DO $$'))!;
    await db.query(dropOld.replace(/;\s*$/, ''));
    const left = await db.query("SELECT indexname FROM pg_indexes WHERE indexname LIKE 'records\\_sort\\_%'");
    expect(left.rows).toEqual([]);
    await db.close();
  });
});

describe('the search texts kept apart (migration 054)', () => {
  it('hold every record of the resources named, written only when a text moves', async () => {
    const db = await openTestDb();
    await migrate(db);
    // The resources the gateway searches through the table are the ones its partial indexes name.
    const indexes = await db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'record_search_texts' AND indexdef LIKE '%gin_trgm_ops%'",
    );
    const indexed = indexes.rows.flatMap((row) => [...row.indexdef.matchAll(/resource = '([^']+)'/g)].map((m) => m[1]));
    expect([...new Set(indexed)].sort()).toEqual([...SEARCH_TEXT_RESOURCES].sort());
    const docs = servicePoints(6).map((doc): Record<string, unknown> => ({
      ...doc,
      address: `Gade ${String(doc.service_point_id)}`,
    }));
    await insertRecords(
      db,
      servicePointsResource,
      docs.map((doc) => ({ key: String(doc.service_point_id), doc })),
    );
    await db.query(
      `INSERT INTO records (resource, key, doc, search) VALUES ('service_points/pinpad', 'p1', '{}', 'chip 1'),
         ('couriers', 'c1', '{"address": "Elsewhere"}', 'courier 1')`,
    );
    const texts = async () =>
      (
        await db.query<{ resource: string; key: string; search: string; address: string | null; at: string }>(
          "SELECT resource, key, search, address, xmin::text || ':' || xmax::text AS at FROM record_search_texts ORDER BY resource, key",
        )
      ).rows;
    /** What the table should hold: each record's search text and, for a service point, its address in lower case. */
    const expected = async () =>
      (
        await db.query<{ resource: string; key: string; search: string; address: string | null }>(
          `SELECT resource, key, search, CASE WHEN resource = 'service_points' THEN lower(doc->>'address') END AS address
           FROM records WHERE resource IN ('service_points', 'service_points/pinpad') ORDER BY resource, key`,
        )
      ).rows;
    const same = async () => expect((await texts()).map(({ at: _at, ...row }) => row)).toEqual(await expected());
    await same();
    expect((await texts()).find((row) => row.key === '3')?.address).toBe('gade 3');
    const at = async (key: string) => (await texts()).find((row) => row.key === key)?.at;
    const save = (set: string, key = '5') =>
      db.query(`UPDATE records SET ${set} WHERE resource = 'service_points' AND key = '${key}'`);

    // A comment writes nothing here, nor locks the row (its transaction would be the row's xmax).
    const before = await at('5');
    await save(`doc = doc || '{"comments": "Call before noon"}'`);
    expect(await at('5')).toBe(before);
    // The search text or the address moves the row.
    await save(`search = 'aaby elsewhere'`);
    const afterSearch = await at('5');
    expect(afterSearch).not.toBe(before);
    await save(`doc = doc || '{"address": "Nørregade 7"}'`);
    expect(await at('5')).not.toBe(afterSearch);
    await same();
    // A record under a new key, a removed one, one of another resource, a whole table emptied.
    await save(`key = '905'`);
    await db.query("DELETE FROM records WHERE resource = 'service_points' AND key = '2'");
    await db.query("UPDATE records SET search = 'chip 2' WHERE resource = 'service_points/pinpad'");
    await same();
    expect((await texts()).map((row) => row.key)).toEqual(['1', '3', '4', '6', '905', 'p1']);
    await db.query('TRUNCATE records');
    expect(await texts()).toEqual([]);
    await db.close();
  });
});

describe('record counts', () => {
  let db: Db;
  const total = async (resource = 'service_points') =>
    (await listRecords(db, { ...servicePointsResource, endpoint: resource }, { offset: 0, limit: 1, filters: {} }))
      .total;

  beforeAll(async () => {
    db = await openTestDb();
    await migrate(db);
  });
  afterAll(() => db.close());

  it('stay exact through inserts, refused duplicates, deletes, moves and truncation', async () => {
    const docs = servicePoints(30);
    await insertRecords(
      db,
      servicePointsResource,
      docs.map((doc) => ({ key: String(doc.service_point_id), doc })),
      7,
    );
    expect(await total()).toBe(30);
    await db.query(
      `INSERT INTO records (resource, key, doc) VALUES ('service_points', '1', '{}'), ('service_points', '31', '{}')
       ON CONFLICT DO NOTHING`,
    );
    expect(await total()).toBe(31);
    await db.query("DELETE FROM records WHERE resource = 'service_points' AND key IN ('2', '3', 'none')");
    expect(await total()).toBe(29);
    await db.query('UPDATE records SET doc = doc || \'{"zip": "0001"}\' WHERE resource = \'service_points\'');
    await db.query("UPDATE records SET resource = 'elsewhere' WHERE resource = 'service_points' AND key = '4'");
    expect([await total(), await total('elsewhere')]).toEqual([28, 1]);
    await db.query('TRUNCATE records');
    expect(await total()).toBe(0);
  });

  it('fold their deltas without changing the sum', async () => {
    for (let n = 0; n < 120; n += 1) {
      await db.query("INSERT INTO records (resource, key, doc) VALUES ('service_points', $1, '{}')", [`k${n}`]);
    }
    const parts = async () =>
      Number(
        (await db.query<{ n: string }>("SELECT count(*) AS n FROM record_counts WHERE resource = 'service_points'"))
          .rows[0].n,
      );
    expect(await parts()).toBeGreaterThan(100);
    expect(await total()).toBe(120);
    expect(await parts()).toBe(1);
    expect(await total()).toBe(120);
  });
});
