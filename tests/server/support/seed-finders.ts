import type { Db } from '../../../server/db/adapter.ts';
import { demoUsers } from '../../../server/seed/demo-network.ts';

/**
 * Named look-ups of the demo seed for server tests, instead of hard-coded seed ids and SQL written
 * by hand in each test file. Each reads the `records` table of the test file's own database.
 */

type Doc = Record<string, unknown>;

/** One stored record: its key, document and version. */
export interface StoredRecord<T = Doc> {
  key: string;
  doc: T;
  version: number;
}

/**
 * Which records: the document fields they have (`{ carrier_id: 1 }`, a JSON containment, so
 * numbers match numbers and strings strings), or an SQL condition on the row's `key`, `doc` and
 * `version` for what containment cannot say.
 */
export type Where = Doc | string;

export interface FindOptions {
  /** An SQL ORDER BY expression on the row; by default the key, as text. */
  orderBy?: string;
  limit?: number;
}

function condition(where: Where, params: unknown[]): string {
  if (typeof where === 'string') return `(${where})`;
  if (Object.keys(where).length === 0) return 'true';
  params.push(JSON.stringify(where));
  return `doc @> $${params.length}::jsonb`;
}

/** The records of `resource` that match `where`, in key order unless told. */
export async function findRecords<T = Doc>(
  db: Db,
  resource: string,
  where: Where = {},
  options: FindOptions = {},
): Promise<StoredRecord<T>[]> {
  const params: unknown[] = [resource];
  const sql = `SELECT key, doc, version FROM records WHERE resource = $1 AND ${condition(where, params)}
    ORDER BY ${options.orderBy ?? 'key'}${options.limit === undefined ? '' : ` LIMIT ${Number(options.limit)}`}`;
  return (await db.query<StoredRecord<T>>(sql, params)).rows;
}

/** The first record of `resource` that matches `where` (see findRecords); fails the test when there is none. */
export async function findRecord<T = Doc>(
  db: Db,
  resource: string,
  where: Where = {},
  options: Omit<FindOptions, 'limit'> = {},
): Promise<StoredRecord<T>> {
  const [found] = await findRecords<T>(db, resource, where, { ...options, limit: 1 });
  if (!found) throw new Error(`No ${resource} record matches ${JSON.stringify(where)}`);
  return found;
}

/** The record of `resource` with `key`; fails the test when there is none. */
export async function readRecord<T = Doc>(db: Db, resource: string, key: string | number): Promise<StoredRecord<T>> {
  const found = await db.query<StoredRecord<T>>(
    'SELECT key, doc, version FROM records WHERE resource = $1 AND key = $2',
    [resource, String(key)],
  );
  if (!found.rows[0]) throw new Error(`No ${resource} record ${key}`);
  return found.rows[0];
}

/** How many records of `resource` match `where` (all of them by default). */
export async function countRecords(db: Db, resource: string, where: Where = {}): Promise<number> {
  const params: unknown[] = [resource];
  const found = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE resource = $1 AND ${condition(where, params)}`,
    params,
  );
  return Number(found.rows[0].n);
}

/** The carrier of the seed named `name` (`carrierNamed(db, 'NordPost')`). */
export async function carrierNamed<T = Doc>(db: Db, name: string): Promise<StoredRecord<T> & { id: number }> {
  const found = await findRecord<T>(db, 'partners/carrier', { name });
  return { ...found, id: Number(found.key) };
}

/**
 * The partner id of a demo user (`partnerIdOf(db, 'maintenance')` is maintenance provider 1), read
 * from the user's role record: a number, or the operator's name (`infinity`).
 */
export async function partnerIdOf(db: Db, username: string): Promise<number> {
  const user = demoUsers.find((candidate) => candidate.username === username);
  if (!user?.role) throw new Error(`The demo user ${username} has no role`);
  const role = await readRecord<{ partner: string }>(db, 'identity_access/roles', user.role);
  const id = Number(role.doc.partner);
  if (!Number.isInteger(id)) throw new Error(`The demo user ${username} belongs to no numbered partner`);
  return id;
}
