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

export async function listRecords(db: Db, resource: ResourceDefinition, query: ListQuery) {
  const params: unknown[] = [resource.endpoint];
  const where = ['resource = $1'];
  if (query.scope) {
    params.push(query.scope.value);
    where.push(`${fieldExpr(resource, query.scope.field).replace('->', '->>')} = $${params.length}`);
  }
  if (query.search) {
    params.push(`%${escapeLike(query.search.toLowerCase())}%`);
    where.push(`search LIKE $${params.length}`);
  }
  for (const [field, value] of Object.entries(query.filters)) {
    params.push(JSON.stringify(value));
    where.push(`${fieldExpr(resource, field)} = $${params.length}::jsonb`);
  }
  const orderField = query.orderBy ?? resource.sort.field;
  const orderDir = query.orderDir ?? resource.sort.order;
  const order = `${fieldExpr(resource, orderField)} ${orderDir} NULLS LAST, key ${orderDir}`;
  const whereSql = where.join(' AND ');
  params.push(query.limit, query.offset);
  const rows = await db.query<{ doc: Doc; version: number; total: string }>(
    `SELECT doc, version, count(*) OVER () AS total FROM records WHERE ${whereSql}
     ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = rows.rows.length ? Number(rows.rows[0].total) : 0;
  if (!rows.rows.length && query.offset > 0) {
    const counted = await db.query<{ total: string }>(
      `SELECT count(*) AS total FROM records WHERE ${whereSql}`,
      params.slice(0, -2),
    );
    total = Number(counted.rows[0].total);
  }
  const data: Doc[] = rows.rows.map((row) => ({ ...row.doc, version: row.version }));
  return { data, total };
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
}

export async function countRecords(db: Db, resource: string) {
  const result = await db.query<{ n: string }>('SELECT count(*) AS n FROM records WHERE resource = $1', [resource]);
  return Number(result.rows[0].n);
}
