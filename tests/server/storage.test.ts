import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDb } from '../../server/db/adapter.ts';
import { openTestDb, postgresAdminUrl } from './support/test-db.ts';
import { insertRecords, listRecords, listRecordTexts, type ListQuery } from '../../server/gateway/record-store.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'webtool-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const servicePoints = loadResources().get('service_points')!;

describe('storage', () => {
  it('keeps data across a restart of the file-backed database', async () => {
    const first = await openDb({ dataDir: dir });
    expect(await migrate(first)).toContain('001-core.sql');
    await insertRecords(first, servicePoints, [
      { key: '1', doc: { service_point_id: 1, name: 'Kiosk Oslo 1', status: 7, country: 'NO', city: 'Oslo' } },
    ]);
    await first.close();

    const second = await openDb({ dataDir: dir });
    expect(await migrate(second)).toEqual([]);
    const { data, total } = await listRecords(second, servicePoints, { offset: 0, limit: 10, filters: {} });
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({ name: 'Kiosk Oslo 1', version: 1 });
    await second.close();
  });

  it('stores a field no migration knows about', async () => {
    const db = await openTestDb();
    await migrate(db);
    await insertRecords(db, servicePoints, [
      { key: '9', doc: { service_point_id: 9, name: 'New field', status: 1, country: 'DK', brand_new_field: 'kept' } },
    ]);
    const { data } = await listRecords(db, servicePoints, { offset: 0, limit: 1, filters: {} });
    expect(data[0].brand_new_field).toBe('kept');
    await db.close();
  });

  it('rolls a failed transaction back completely', async () => {
    const db = await openTestDb();
    await migrate(db);
    await expect(
      db.transaction(async (tx) => {
        await insertRecords(tx, servicePoints, [
          { key: '1', doc: { service_point_id: 1, name: 'a', status: 1, country: 'DK' } },
        ]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { total } = await listRecords(db, servicePoints, { offset: 0, limit: 1, filters: {} });
    expect(total).toBe(0);
    await db.close();
  });

  it('sets a transaction’s settings with its BEGIN, any text taken as it is, and only for that transaction', async () => {
    const db = await openTestDb();
    await migrate(db);
    const odd = "O'Brien \\ '; DROP TABLE records; -- ü";
    const setting = (tx: typeof db) =>
      tx
        .query<{ actor: string | null }>("SELECT current_setting('webtool.actor', true) AS actor")
        .then(({ rows }) => rows[0].actor);
    expect(await db.transaction(setting, { settings: { 'webtool.actor': odd } })).toBe(odd);
    expect(await db.transaction(setting, { readOnlySnapshot: true, settings: { 'webtool.actor': 'reader' } })).toBe(
      'reader',
    );
    expect(await db.transaction(setting)).toBeFalsy();
    expect(await db.query('SELECT count(*) AS n FROM records')).toBeTruthy();
    await expect(db.transaction(setting, { settings: { 'webtool.actor; DROP': 'x' } })).rejects.toThrow(
      'not a setting name',
    );
    await db.close();
  });

  it('runs a statement with its kept generic plan where asked, with the answers of a plain one', async () => {
    const db = await openTestDb();
    await migrate(db);
    const odd = "O'Brien \\ $1 '; DROP TABLE records; -- ü";
    await insertRecords(db, servicePoints, [
      { key: odd, doc: { service_point_id: 5, name: odd, status: 1, country: 'DK' } },
      { key: '6', doc: { service_point_id: 6, name: 'Second', status: 1, country: 'DK' } },
    ]);
    const sql = `SELECT key, doc->>'name' AS name, doc FROM records WHERE resource = $1 AND doc->>'name' LIKE $2
      ORDER BY key LIMIT $3 OFFSET $4`;
    const plain = async (params: unknown[]) => (await db.query(sql, params)).rows;
    for (const params of [
      ['service_points', '%', 10, 0],
      ['service_points', `%${odd.slice(2, 9)}%`, 1, 0],
      ['service_points', '%', 1, 1],
    ]) {
      for (let round = 0; round < 3; round += 1) {
        // On the pool, on a transaction's connection, and with the documents as text.
        expect((await db.query(sql, params, { prepared: true, genericPlan: true })).rows).toEqual(await plain(params));
        const inTransaction = await db.transaction(async (tx) => ({
          rows: (await tx.query(sql, params, { prepared: true, genericPlan: true, jsonAsText: true })).rows,
          plans: postgresAdminUrl
            ? (
                await tx.query<{ generic: number; custom: number; mode: string }>(
                  `SELECT generic_plans::int AS generic, custom_plans::int AS custom, current_setting('plan_cache_mode') AS mode
                   FROM pg_prepared_statements WHERE statement LIKE '%doc->>''name'' LIKE%'`,
                )
              ).rows
            : undefined,
        }));
        expect(inTransaction.rows.map((row) => ({ ...row, doc: JSON.parse(row.doc as string) as unknown }))).toEqual(
          await plain(params),
        );
        if (postgresAdminUrl) {
          // Planned without the values every time, and the connection's own mode as it was.
          expect(inTransaction.plans).toEqual([{ generic: expect.any(Number) as unknown, custom: 0, mode: 'auto' }]);
          expect(inTransaction.plans?.[0].generic).toBeGreaterThan(0);
        }
      }
    }
    // A statement that fails fails as a plain one does, and leaves the connections as they were.
    await expect(db.query('SELECT 1 / $1::int AS n', [0], { prepared: true, genericPlan: true })).rejects.toThrow(
      'division by zero',
    );
    expect((await db.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode")).rows).toEqual([
      { mode: 'auto' },
    ]);
    await db.close();
  });

  it('runs a transaction’s opening statement with its BEGIN and hands its rows over, any text taken as it is', async () => {
    const db = await openTestDb();
    await migrate(db);
    const odd = "O'Brien \\ $1 '; DROP TABLE records; -- ü";
    await insertRecords(db, servicePoints, [
      { key: odd, doc: { service_point_id: 5, name: odd, status: 1, country: 'DK' } },
    ]);
    const read = (key: string) => ({
      sql: 'SELECT key, doc, version FROM records WHERE resource = $1 AND key = $2',
      params: ['service_points', key],
    });
    const opened = (_tx: typeof db, rows?: Record<string, unknown>[]) => Promise.resolve(rows);
    expect(await db.transaction(opened, { settings: { 'webtool.actor': odd }, opening: read(odd) })).toEqual([
      { key: odd, doc: expect.objectContaining({ name: odd }) as unknown, version: 1 },
    ]);
    expect(await db.transaction(opened, { opening: read('5') })).toEqual([]);
    expect(await db.transaction(opened)).toBeUndefined();
    // Again and again on the same connections: on PostgreSQL the settings and the read are then EXECUTEs of
    // statements the connection prepared once (each planned once, not on every save), with the same answers.
    for (let round = 0; round < 3; round += 1) {
      const seen = await db.transaction(
        async (tx, rows) => ({
          rows,
          actor: (await tx.query<{ actor: string }>("SELECT current_setting('webtool.actor', true) AS actor")).rows[0]
            .actor,
          prepared: postgresAdminUrl
            ? (
                await tx.query<{ statement: string }>(
                  "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'o\\_%' ORDER BY statement",
                )
              ).rows.map((row) => row.statement)
            : undefined,
        }),
        { settings: { 'webtool.actor': `${odd} ${round}` }, opening: read(odd) },
      );
      expect(seen.rows).toEqual([{ key: odd, doc: expect.objectContaining({ name: odd }) as unknown, version: 1 }]);
      expect(seen.actor).toBe(`${odd} ${round}`);
      if (postgresAdminUrl) {
        expect(seen.prepared).toEqual([
          expect.stringContaining(read(odd).sql),
          expect.stringContaining("SELECT set_config('webtool.actor', $1, true)"),
        ]);
      }
    }
    // A statement whose prepared name (base64url of its hash) holds a `-`: prepared all the same (quoted), so its
    // transactions carry an EXECUTE, not a refused PREPARE each time (issue 32: one per save under load).
    const dashed = Array.from({ length: 200 }, (_, n) => ({
      sql: `SELECT key, doc, version, ${n} AS n FROM records WHERE resource = $1 AND key = $2`,
      params: ['service_points', odd],
    })).find(({ sql }) => createHash('sha256').update(sql).digest('base64url').slice(0, 24).includes('-'))!;
    for (let round = 0; round < 2; round += 1) {
      const seen = await db.transaction(
        async (tx, rows) => ({
          rows,
          prepared: postgresAdminUrl
            ? (await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map(
                (row) => row.statement,
              )
            : undefined,
        }),
        { opening: dashed },
      );
      expect(seen.rows).toEqual([expect.objectContaining({ key: odd, n: expect.anything() as unknown })]);
      if (postgresAdminUrl) expect(seen.prepared).toContainEqual(expect.stringContaining(dashed.sql));
    }
    await expect(
      db.transaction(opened, { opening: { sql: 'SELECT 1; DROP TABLE records', params: [] } }),
    ).rejects.toThrow('an opening statement is one statement');
    await expect(db.transaction(opened, { opening: { sql: 'SELECT $1, $2', params: ['only one'] } })).rejects.toThrow();
    const { total } = await listRecords(db, servicePoints, { offset: 0, limit: 1, filters: {} });
    expect(total).toBe(1);
    await db.close();
  });

  it('commits a transaction with its last statement where the database can, and rolls back a failure there as any other', async () => {
    const db = await openTestDb();
    await migrate(db);
    const odd = "O'Brien \\ $1 '; DROP TABLE records; -- ü";
    await insertRecords(db, servicePoints, [
      { key: '7', doc: { service_point_id: 7, name: 'Before', status: 1, country: 'DK' } },
    ]);
    const update = `UPDATE records SET doc = doc || jsonb_build_object('name', $1::text), version = version + $2
      WHERE resource = $3 AND key = $4 AND coalesce($5::text, 'go') <> 'stop' RETURNING version`;
    const nameOf7 = async () =>
      (await db.query<{ name: string }>("SELECT doc->>'name' AS name FROM records WHERE key = '7'")).rows[0].name;
    const last = (tx: typeof db, params: unknown[]) =>
      tx.commitWith
        ? tx.commitWith<{ version: number }>(update, params)
        : tx.query<{ version: number }>(update, params);
    for (let round = 0; round < 3; round += 1) {
      const seen = await db.transaction(async (tx) => {
        const prepared = postgresAdminUrl
          ? (await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows
          : [];
        const { rows } = await last(tx, [`${odd} ${round}`, 1, 'service_points', '7', null]);
        // Once it answered the transaction is over: nothing more runs in it.
        const after = await tx.query('SELECT 1').then(
          () => 'ran',
          (error: Error) => error.message,
        );
        return { rows, after, prepared, hasCommitWith: tx.commitWith !== undefined };
      });
      expect(seen.rows).toEqual([{ version: 2 + round }]);
      expect(await nameOf7()).toBe(`${odd} ${round}`);
      // On PostgreSQL: an EXECUTE of the statement the connection prepared, with the COMMIT in the same query.
      expect(seen.hasCommitWith).toBe(Boolean(postgresAdminUrl));
      expect(seen.after).toBe(postgresAdminUrl ? 'the transaction has committed' : 'ran');
      if (postgresAdminUrl && round > 0) {
        expect(seen.prepared.map((row) => row.statement)).toContainEqual(expect.stringContaining(update));
      }
    }
    if (postgresAdminUrl) {
      // A throw after it undoes nothing: it is committed.
      await expect(
        db.transaction(async (tx) => {
          await tx.commitWith!(update, ['kept', 1, 'service_points', '7', null]);
          throw new Error('after the commit');
        }),
      ).rejects.toThrow('after the commit');
      expect(await nameOf7()).toBe('kept');
      // A parameter it cannot write as a literal: the statement, then the COMMIT.
      await db.transaction((tx) => tx.commitWith!(update, ['object', 1, 'service_points', '7', { not: 'text' }]));
      expect(await nameOf7()).toBe('object');
      // A statement that changes nothing commits nothing: a save that found its record moved on.
      await db.transaction((tx) => tx.commitWith!(update, ['unchanged', 1, 'service_points', '7', 'stop']));
      expect(await nameOf7()).toBe('object');
    }
    // The statement fails: the transaction rolls back, what ran before it in the transaction too.
    await expect(
      db.transaction(async (tx) => {
        await tx.query(update, ['lost', 1, 'service_points', '7', null]);
        await last(tx, ['lost too', 'not a number', 'service_points', '7', null]);
      }),
    ).rejects.toThrow();
    expect(await nameOf7()).toBe(postgresAdminUrl ? 'object' : `${odd} 2`);
    // And the connections are as they were: the next transactions run and commit.
    for (let round = 0; round < 12; round += 1) {
      await db.transaction((tx) => last(tx, [`again ${round}`, 1, 'service_points', '7', null]));
    }
    expect(await nameOf7()).toBe('again 11');
    await db.close();
  });

  it('gives each list page as the documents’ own JSON texts that parse to the documents read whole, on every path', async () => {
    const db = await openTestDb();
    await migrate(db);
    const cities = ['Oslo', 'Bergen', 'Århus', 'Zürich'];
    await insertRecords(db, servicePoints, [
      ...Array.from({ length: 40 }, (_, n) => ({
        key: String(n + 1),
        doc: {
          service_point_id: n + 1,
          name: `Kiosk "${n}" \\ ü \u2028 😀`,
          status: n % 3,
          country: n % 2 ? 'DK' : 'NO',
          city: cities[n % cities.length],
          latitude: 59.9 + n / 1000,
          opening_hours: [{ day: n % 7, open: '08:00', close: null }],
          nested: { deep: { list: [1, 2.5, -3e-7, true, null] } },
        },
      })),
      // A field named as the version the page adds: the version wins, as `{ ...doc, version }` has it.
      { key: '41', doc: { service_point_id: 41, name: 'Kiosk with a version', status: 1, country: 'DK', version: 99 } },
    ]);
    const queries: Partial<ListQuery>[] = [
      {},
      { orderBy: 'name', orderDir: 'DESC', offset: 30 },
      { orderBy: 'city', orderDir: 'ASC', offset: 5 },
      { orderBy: 'latitude' },
      { search: 'kiosk', orderBy: 'name' },
      { search: 'version' },
      { filters: { country: 'DK' }, orderBy: 'service_point_id', orderDir: 'DESC' },
      { filters: { service_point_id: 41 } },
      { filters: { service_point_id: 7 } },
      { offset: 100 },
    ];
    for (const asked of queries) {
      const query: ListQuery = { offset: 0, limit: 15, filters: {}, ...asked };
      const whole = await listRecords(db, servicePoints, query);
      const texts = await listRecordTexts(db, servicePoints, query);
      expect(texts.total).toBe(whole.total);
      expect(texts.data.map((text) => JSON.parse(text) as unknown)).toStrictEqual(whole.data);
    }
    const [withVersion] = (
      await listRecordTexts(db, servicePoints, { offset: 0, limit: 1, filters: { service_point_id: 41 } })
    ).data;
    expect(JSON.parse(withVersion)).toMatchObject({ name: 'Kiosk with a version', version: 1 });
    // The database's own text (its `": "`), not the documents parsed and serialised again.
    expect(withVersion).toMatch(/^\{"[a-z_]+": /);
    await db.close();
  });
});
