import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { migrate, openDb, type Db, type PoolSettings } from '../../../server/db/adapter.ts';
import { createIdentity } from '../../../server/identity/index.ts';
import { seedDemo } from '../../../server/seed/index.ts';
import { onServer, openFromTemplate } from './seeded-template.ts';

/** The test command's PostgreSQL run sets it to the throw-away server, where tests may create databases. */
export const postgresAdminUrl = process.env.DATABASE_URL || undefined;

/**
 * A new empty database on the PostgreSQL server of `adminUrl`, dropped (connections and all) when
 * closed: each test file gets its own, so files run in parallel as they do on PGlite.
 */
export async function openServerTestDb(adminUrl: string, pool?: Partial<PoolSettings>): Promise<Db & { url: string }> {
  const name = `webtool_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString(), pool });
  return {
    ...db,
    url: url.toString(),
    async close() {
      await db.close();
      await onServer(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The database of one test: in-memory PGlite, or a database of its own on the PostgreSQL run's server. */
export async function openTestDb(): Promise<Db> {
  // A test's own seed (the demo's: 25,000 piece events a statement, with their rollup triggers) is no request: on
  // PostgreSQL, beside a busy run, one statement can outlast the pool's 30 s request timeout, so none applies here.
  return postgresAdminUrl ? openServerTestDb(postgresAdminUrl, { statementTimeoutMs: 0 }) : openDb();
}

/**
 * The test's own database, already migrated and holding the seed's `test` size (the demo's kinds
 * of records, fewer of them: find records by shape, not by the demo's counts): a copy of the template the
 * server project's global setup built once for the whole run (see seeded-template.ts), or, when
 * there is none (a run without that setup), migrated and seeded here.
 */
export async function openSeededTestDb(): Promise<Db> {
  const template = inject('seededTemplate');
  if (template) return openFromTemplate(template, postgresAdminUrl);
  const db = await openTestDb();
  await migrate(db);
  await seedDemo(db, createIdentity(db, { local: true, log: () => {} }), { size: 'test' });
  return db;
}
