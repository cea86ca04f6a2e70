import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Pool } from 'pg';

export interface QueryResult<T> {
  rows: T[];
}

/**
 * The one storage interface of the gateway. PGlite (embedded) and a real PostgreSQL server
 * (through `pg`) both satisfy it with the same SQL.
 */
export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs `fn` inside BEGIN/COMMIT; any throw rolls back. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** postgres://... uses a real server; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; omitted means in memory. */
  dataDir?: string;
  /** A PGlite dump (from `dumpDataDir`) to start from, for fast test databases. */
  loadDataDir?: Blob | File;
}

/** PGlite is single-connection: calls are serialised through one promise chain. */
function serialised() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

async function openPglite(options: OpenDbOptions): Promise<Db & { dump(): Promise<Blob> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Migration 004 creates pg_trgm; a real server has it as a standard contrib module.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  const run = serialised();
  let closed = false;
  const direct: Db = {
    query: async <T>(sql: string, params?: unknown[]) => {
      const result = await pg.query<T>(sql, params as unknown[] | undefined);
      return { rows: result.rows };
    },
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
    close: () => Promise.resolve(),
  };
  return {
    query: (sql, params) => run(() => direct.query(sql, params)),
    transaction: (fn) =>
      run(async () => {
        await pg.query('BEGIN');
        try {
          const result = await fn(direct);
          await pg.query('COMMIT');
          return result;
        } catch (error) {
          await pg.query('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      run(async () => {
        if (closed) return;
        closed = true;
        await pg.close();
      }),
    dump: () => run(() => pg.dumpDataDir('none')),
  };
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const wrap = (client: Pick<Pool, 'query'>): Db['query'] =>
    (async <T>(sql: string, params?: unknown[]) => {
      const result = await client.query(sql, params);
      return { rows: result.rows as T[] };
    }) as Db['query'];
  return {
    query: wrap(pool),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Db = {
          query: wrap(client),
          transaction: () => Promise.reject(new Error('nested transactions are not supported')),
          close: () => Promise.resolve(),
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openDb(options: OpenDbOptions = {}): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options);
}

/** Opens an in-memory PGlite and returns it with a dump function (used to clone test databases). */
export async function openDumpableMemoryDb(loadDataDir?: Blob) {
  return openPglite({ loadDataDir });
}

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Applies `server/db/migrations/NNN-name.sql` in order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const done = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
  );
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{3}-.+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    await db.transaction(async (tx) => {
      for (const statement of splitSql(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
    applied.push(file);
  }
  return applied;
}

/** Splits a migration into statements on `;` at line ends (migrations keep one statement per `;`). */
function splitSql(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
