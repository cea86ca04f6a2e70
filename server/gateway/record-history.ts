import type { Db } from '../db/adapter.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import type { HistoryEntry, HistoryPage } from '../../src/contract/logs.ts';

/**
 * One record's audit trail, newest first (`GET webtool/<endpoint>?opname=history&<id>=...`). The caller's
 * right to see the record is checked before this runs; the trail itself holds no secret values
 * (record-writes.ts masks them when it writes).
 */
export async function recordHistory(
  db: Db,
  resource: Pick<ResourceDefinition, 'endpoint'>,
  key: string,
  page: { offset: number; limit: number },
): Promise<HistoryPage> {
  const rows = await db.query<HistoryEntry & { total: string }>(
    `SELECT id, at, username, partner_type, partner_id, action, changes, count(*) OVER () AS total
     FROM audit_log WHERE resource = $1 AND key = $2 ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`,
    [resource.endpoint, key, page.limit, page.offset],
  );
  const total = rows.rows.length ? Number(rows.rows[0].total) : 0;
  const data = rows.rows.map(({ total: _total, ...entry }) => ({
    ...entry,
    id: Number(entry.id),
    at: new Date(entry.at).toISOString(),
  }));
  return { data, total };
}
