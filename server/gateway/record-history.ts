import type { Db } from '../db/adapter.ts';
import type { CallerAccess } from './caller-access.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { ownItems } from './tenancy.ts';
import { fieldsHiddenByOptions } from '../../src/schema/feature-options.ts';
import type { HistoryEntry, HistoryPage } from '../../src/contract/logs.ts';

type Changes = HistoryEntry['changes'];

/**
 * One record's audit trail, newest first (`GET webtool/<endpoint>?opname=history&<id>=...`). The caller's
 * right to see the record is checked before this runs; the trail itself holds no secret values
 * (record-writes.ts masks them when it writes).
 *
 * The operator company reads the trail as written. Anyone else reads only the history of what it may read
 * of the record (tenancy.ts `readableDoc`): a `x-resource.partnerItems` field's changes cut down to its own
 * items, no field its feature options hide, no entry left with nothing it may read, and the names of users
 * of other companies withheld (their company type stays, so that "the operator changed it" still reads).
 */
export async function recordHistory(
  db: Db,
  access: CallerAccess,
  resource: ResourceDefinition,
  key: string,
  page: { offset: number; limit: number },
): Promise<HistoryPage> {
  if (!access.seesAll) return partnerHistory(db, access, resource, key, page);
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

async function partnerHistory(
  db: Db,
  access: CallerAccess,
  resource: ResourceDefinition,
  key: string,
  page: { offset: number; limit: number },
): Promise<HistoryPage> {
  // What is left of an entry depends on its changes, so the page is cut after reading: one record's trail.
  const rows = await db.query<HistoryEntry>(
    `SELECT id, at, username, partner_type, partner_id, action, changes
     FROM audit_log WHERE resource = $1 AND key = $2 ORDER BY at DESC, id DESC`,
    [resource.endpoint, key],
  );
  const readable = rows.rows.flatMap((entry) => {
    const changes = readableChanges(access, resource, entry.changes ?? {});
    // A create or delete stays (the record's life), an update only with a change the caller may read.
    if (entry.action === 'update' && !Object.keys(changes).length) return [];
    const own = entry.partner_type === access.partnerType && String(entry.partner_id ?? '') === (access.partner ?? '');
    return [
      {
        ...entry,
        id: Number(entry.id),
        at: new Date(entry.at).toISOString(),
        username: own ? entry.username : null,
        partner_id: own ? entry.partner_id : null,
        changes,
      },
    ];
  });
  return { data: readable.slice(page.offset, page.offset + page.limit), total: readable.length };
}

/** The changes of one audit entry that the caller may read. */
export function readableChanges(access: CallerAccess, resource: ResourceDefinition, changes: Changes): Changes {
  if (access.seesAll) return changes;
  const hidden = new Set(fieldsHiddenByOptions(access.permissions, resource).map((field) => field.source));
  const readable: Changes = {};
  for (const [field, change] of Object.entries(changes)) {
    if (hidden.has(field)) continue;
    if (!Object.hasOwn(resource.partnerItems, field)) {
      readable[field] = change;
      continue;
    }
    const from = ownItems(access, resource, field, change.from);
    const to = ownItems(access, resource, field, change.to);
    if (JSON.stringify(from ?? []) !== JSON.stringify(to ?? [])) readable[field] = { from, to };
  }
  return readable;
}
