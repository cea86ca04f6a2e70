import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { migrate, openDb, openDumpableMemoryDb, type Db } from '../../../server/db/adapter.ts';
import { createIdentity } from '../../../server/identity/index.ts';
import { seedDemo } from '../../../server/seed/index.ts';

/**
 * The seeded database (the seed's `test` size), built ONCE per test run (tests/server/support/global-setup.ts) and
 * copied for every test file that wants one: on PGlite a dump of the data folder that each file
 * loads (about a second, however large the seed grows, against several for migrate + seed), on
 * PostgreSQL a template database that each file copies with CREATE DATABASE ... TEMPLATE.
 */
export type SeededTemplate = { engine: 'pglite'; file: string } | { engine: 'postgres'; database: string };

declare module 'vitest' {
  export interface ProvidedContext {
    seededTemplate?: SeededTemplate;
  }
}

export async function onServer<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migrateAndSeed(db: Db) {
  await migrate(db);
  await seedDemo(db, createIdentity(db, { local: true, log: () => {} }), { size: 'test' });
}

/** Builds the template (migrations and the test seed) and says where it is; `remove()` deletes it. */
export async function buildSeededTemplate(options: { adminUrl?: string; folder: string }) {
  const started = Date.now();
  if (options.adminUrl) {
    const adminUrl = options.adminUrl;
    const database = `webtool_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onServer(adminUrl, (client) => client.query(`CREATE DATABASE ${database}`));
    const db = await openDb({ databaseUrl: databaseUrl(adminUrl, database) });
    try {
      await migrateAndSeed(db);
    } finally {
      // A template database copies only while nobody is connected to it.
      await db.close();
    }
    return {
      template: { engine: 'postgres', database } as SeededTemplate,
      ms: Date.now() - started,
      remove: () => onServer(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)),
    };
  }
  const db = await openDumpableMemoryDb();
  let dump: Blob;
  try {
    await migrateAndSeed(db);
    dump = await db.dump();
  } finally {
    await db.close();
  }
  await mkdir(options.folder, { recursive: true });
  const file = path.resolve(options.folder, `seeded-${process.pid}-${randomBytes(4).toString('hex')}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  return {
    template: { engine: 'pglite', file } as SeededTemplate,
    ms: Date.now() - started,
    remove: () => rm(file, { force: true }),
  };
}

/** The dump, read once per test process however many databases it opens from it. */
let dumpRead: { file: string; blob: Promise<Blob> } | undefined;

/**
 * A new database holding a copy of the seeded template, dropped when closed (PostgreSQL), or an
 * in-memory PGlite loaded from the dump.
 */
export async function openFromTemplate(template: SeededTemplate, adminUrl?: string): Promise<Db> {
  if (template.engine === 'pglite') {
    if (dumpRead?.file !== template.file) {
      dumpRead = { file: template.file, blob: readFile(template.file).then((bytes) => new Blob([bytes])) };
    }
    return openDb({ loadDataDir: await dumpRead.blob });
  }
  if (!adminUrl) throw new Error('a PostgreSQL template needs the server (DATABASE_URL)');
  const name = `webtool_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template.database}`));
  const db = await openDb({ databaseUrl: databaseUrl(adminUrl, name) });
  return {
    ...db,
    url: databaseUrl(adminUrl, name),
    async close() {
      await db.close();
      await onServer(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  } as Db;
}
