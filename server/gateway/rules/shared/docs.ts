import type { Db } from '../../../db/adapter.ts';
import { loadSchemas, type JsonSchema } from '../../resource-registry.ts';
import { inStore, STORES, type Store } from './endpoints.ts';

/**
 * A small record-store API for the rules: read, find, count and test documents of a store
 * (`endpoints.ts`) by equality on their top-level fields, without writing SQL. Field names are checked
 * against the store's schema (an unknown one is a programming error, thrown before any SQL runs);
 * values always go as parameters, compared as text (`doc->>'field'`), so a number matches its
 * document's number. `key` is the record's key.
 */

type Scalar = string | number | boolean;
/** A field's value, `null` for "not set", or a list of values it may hold. */
export type WhereValue = Scalar | null | readonly Scalar[];
export type Where = Readonly<Record<string, WhereValue>>;

export interface OrderBy {
  field: string;
  desc?: boolean;
  /** Orders the field as a number rather than as text. */
  numeric?: boolean;
}

export interface DocQuery {
  where?: Where;
  orderBy?: readonly (string | OrderBy)[];
  limit?: number;
  /** Locks the rows found until the transaction ends. */
  forUpdate?: boolean;
}

export interface StoredDoc<T> {
  key: string;
  doc: T;
  version: number;
}

const fieldsCache = new Map<Store, ReadonlySet<string>>();

function schemaFields(schema: JsonSchema, into: Set<string>) {
  const properties = schema.properties as Record<string, unknown> | undefined;
  for (const name of Object.keys(properties ?? {})) into.add(name);
  for (const part of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const sub of (schema[part] as JsonSchema[] | undefined) ?? []) schemaFields(sub, into);
  }
  for (const part of ['then', 'else'] as const) {
    const sub = schema[part] as JsonSchema | undefined;
    if (sub) schemaFields(sub, into);
  }
}

/** The fields a store's documents may have. */
export function storeFields(store: Store): ReadonlySet<string> {
  let fields = fieldsCache.get(store);
  if (!fields) {
    const declared = STORES[store] as { schema: string } | { fields: readonly string[] };
    const names = new Set<string>();
    if ('fields' in declared) {
      for (const name of declared.fields) names.add(name);
    } else {
      const schema = loadSchemas().find((candidate) => candidate.$id === declared.schema);
      if (!schema) throw new Error(`No schema ${declared.schema} for store ${store}`);
      schemaFields(schema, names);
    }
    fields = names;
    fieldsCache.set(store, fields);
  }
  return fields;
}

function fieldSql(store: Store, field: string): string {
  if (field === 'key') return 'key';
  if (!storeFields(store).has(field)) throw new Error(`Unknown field ${field} of store ${store}`);
  return `doc->>'${field}'`;
}

function whereSql(store: Store, where: Where | undefined, params: unknown[]): string {
  const conditions = [inStore(store)];
  for (const [field, value] of Object.entries(where ?? {})) {
    const column = fieldSql(store, field);
    if (value === null) {
      conditions.push(`${column} IS NULL`);
    } else if (Array.isArray(value)) {
      params.push(value.map(String));
      conditions.push(`${column} = ANY($${params.length}::text[])`);
    } else {
      params.push(String(value));
      conditions.push(`${column} = $${params.length}`);
    }
  }
  return conditions.join(' AND ');
}

function querySql(store: Store, select: string, query: DocQuery, params: unknown[]): string {
  let sql = `SELECT ${select} FROM records WHERE ${whereSql(store, query.where, params)}`;
  if (query.orderBy?.length) {
    const terms = query.orderBy.map((term) => {
      const order = typeof term === 'string' ? { field: term } : term;
      const column = fieldSql(store, order.field);
      return `${order.numeric ? `(${column})::numeric` : column}${order.desc ? ' DESC' : ''}`;
    });
    sql += ` ORDER BY ${terms.join(', ')}`;
  }
  if (query.limit !== undefined) {
    params.push(query.limit);
    sql += ` LIMIT $${params.length}`;
  }
  if (query.forUpdate) sql += ' FOR UPDATE';
  return sql;
}

/** The documents of `store` that `query` finds, with their keys and versions. */
export async function findStored<T>(tx: Db, store: Store, query: DocQuery = {}): Promise<StoredDoc<T>[]> {
  const params: unknown[] = [];
  const found = await tx.query<StoredDoc<T>>(querySql(store, 'key, doc, version', query, params), params);
  return found.rows;
}

/** The documents of `store` that `query` finds. */
export async function findDocs<T>(tx: Db, store: Store, query: DocQuery = {}): Promise<T[]> {
  const params: unknown[] = [];
  const found = await tx.query<{ doc: T }>(querySql(store, 'doc', query, params), params);
  return found.rows.map((row) => row.doc);
}

/** The keys of the documents of `store` that `query` finds. */
export async function findKeys(tx: Db, store: Store, query: DocQuery = {}): Promise<string[]> {
  const params: unknown[] = [];
  const found = await tx.query<{ key: string }>(querySql(store, 'key', query, params), params);
  return found.rows.map((row) => row.key);
}

/** One document of `store` by its key, or undefined. */
export async function readDoc<T>(
  tx: Db,
  store: Store,
  key: unknown,
  options: { forUpdate?: boolean } = {},
): Promise<T | undefined> {
  const [doc] = await findDocs<T>(tx, store, { where: { key: String(key) }, forUpdate: options.forUpdate });
  return doc;
}

/** How many documents of `store` match `where`. */
export async function countDocs(tx: Db, store: Store, where?: Where): Promise<number> {
  const params: unknown[] = [];
  const found = await tx.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM records WHERE ${whereSql(store, where, params)}`,
    params,
  );
  return Number(found.rows[0]?.n ?? 0);
}

/** Whether a document of `store` matches `where` (a key alone: `{ key }`). */
export async function existsDoc(tx: Db, store: Store, where?: Where): Promise<boolean> {
  const params: unknown[] = [];
  const found = await tx.query(`SELECT 1 FROM records WHERE ${whereSql(store, where, params)} LIMIT 1`, params);
  return found.rows.length > 0;
}
