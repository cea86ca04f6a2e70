import type { Db, OpeningStatement } from '../db/adapter.ts';
import type { Doc } from './record-store.ts';
import { searchText } from './record-store.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { HttpError, keyedError } from './http-error.ts';

/** A stored record; `T` is its generated type (src/types/generated) where the rules know it. */
export interface StoredRecord<T extends object = Doc> {
  key: string;
  doc: T;
  version: number;
}

export interface Actor {
  username: string;
  partnerType: string;
  partner: string | undefined;
}

/** Fields whose values never reach the audit trail: that a change happened is kept, not the secret. */
const SECRET_FIELD = /password|secret|api_key|token/i;
export const MASKED = '••••••';

const masked = (field: string, value: unknown) =>
  value === undefined || value === null ? null : SECRET_FIELD.test(field) ? MASKED : value;

/** Field-by-field difference, for the audit trail. */
export function diff(before: Doc, after: Doc): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes[field] = { from: masked(field, before[field]), to: masked(field, after[field]) };
    }
  }
  return changes;
}

/** One audit_log row; callers writing records pass their transaction. */
export async function audit(
  tx: Db,
  actor: Actor,
  resource: ResourceDefinition,
  key: string,
  action: string,
  changes: object,
) {
  await tx.query(
    `INSERT INTO audit_log (username, partner_type, partner_id, resource, key, action, changes)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [actor.username, actor.partnerType, actor.partner ?? null, resource.endpoint, key, action, JSON.stringify(changes)],
  );
}

export async function nextId(tx: Db, resource: ResourceDefinition): Promise<number> {
  const result = await tx.query<{ last_value: string }>(
    `INSERT INTO id_sequences (resource, last_value) VALUES ($1, 1)
     ON CONFLICT (resource) DO UPDATE SET last_value = id_sequences.last_value + 1
     RETURNING last_value`,
    [resource.endpoint],
  );
  return Number(result.rows[0].last_value);
}

const READ_RECORD = 'SELECT key, doc, version FROM records WHERE resource = $1 AND key = $2';

export async function readRecord(db: Db, resource: ResourceDefinition, key: string): Promise<StoredRecord | undefined> {
  const result = await db.query<StoredRecord>(READ_RECORD, [resource.endpoint, key], { prepared: true });
  return result.rows[0];
}

/** readRecord as a transaction's opening statement (TransactionOptions.opening): the read goes with the BEGIN. */
export const recordRead = (resource: ResourceDefinition, key: string): OpeningStatement => ({
  sql: READ_RECORD,
  params: [resource.endpoint, key],
});

/** SQLSTATE of `webtool_refuse_write` (migration 055): the write statement found nothing to write. */
const WRITE_REFUSED = 'WT409';

/** The statement's answer, or `refusal()` where it failed as nothing was to be written (a 409, rolled back). */
async function refusedAs<T>(refusal: () => Error, statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code === WRITE_REFUSED) throw refusal();
    throw error;
  }
}

/** The transaction's commitWith where the statement `commits` and the transaction has one, else its query. */
const lastOrNot = (tx: Db, commits: boolean): Db['query'] =>
  commits && tx.commitWith ? tx.commitWith.bind(tx) : tx.query.bind(tx);

/**
 * The write stage of the write pipeline (write-pipeline.ts): the record and its audit row (`changes`, from
 * `diff`) in one statement, so that neither is written without the other and a save costs one round trip
 * less. The audit row is added only if the record was; else the statement fails (a key taken: 409), as an
 * update's does whose record moved on, so that nothing the transaction wrote before is committed. With `commits`,
 * the statement is the transaction's last and goes with its COMMIT where the database can (`Db.commitWith`).
 */
export async function storeNew(
  tx: Db,
  resource: ResourceDefinition,
  actor: Actor,
  key: string,
  doc: Doc,
  changes: object,
  commits = false,
) {
  const inserted = await refusedAs(
    () => keyedError(409, 'gateway.record_exists'),
    lastOrNot(tx, commits)(
      `WITH inserted AS (
       INSERT INTO records (resource, key, doc, search, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING RETURNING key
     ), logged AS (
       INSERT INTO audit_log (username, partner_type, partner_id, resource, key, action, changes)
       SELECT $5, $6, $7, $1, $2, 'create', $8 FROM inserted
     )
     SELECT key FROM inserted
     UNION ALL SELECT webtool_refuse_write('record_exists') WHERE NOT EXISTS (SELECT FROM inserted)`,
      [
        resource.endpoint,
        key,
        JSON.stringify(doc),
        searchText(resource, doc),
        actor.username,
        actor.partnerType,
        actor.partner ?? null,
        JSON.stringify(changes),
      ],
      { prepared: true },
    ),
  );
  if (!inserted.rows.length) throw keyedError(409, 'gateway.record_exists');
}

/** Writes only if the stored version is still the one the caller edited: no lost updates. Audited as storeNew. */
export async function storeUpdate(
  tx: Db,
  resource: ResourceDefinition,
  actor: Actor,
  existing: StoredRecord,
  doc: Doc,
  basedOnVersion: number,
  changes: object,
  commits = false,
) {
  const updated = await refusedAs(
    staleVersion,
    lastOrNot(tx, commits)<{ version: number }>(
      `WITH updated AS (
       UPDATE records SET doc = $3, search = $4, version = version + 1, updated_at = now(), updated_by = $5
       WHERE resource = $1 AND key = $2 AND version = $6 RETURNING version
     ), logged AS (
       INSERT INTO audit_log (username, partner_type, partner_id, resource, key, action, changes)
       SELECT $5, $7, $8, $1, $2, 'update', $9 FROM updated
     )
     SELECT version FROM updated
     UNION ALL SELECT webtool_refuse_write('stale_version')::int WHERE NOT EXISTS (SELECT FROM updated)`,
      [
        resource.endpoint,
        existing.key,
        JSON.stringify(doc),
        searchText(resource, doc),
        actor.username,
        basedOnVersion,
        actor.partnerType,
        actor.partner ?? null,
        JSON.stringify(changes),
      ],
      { prepared: true },
    ),
  );
  if (!updated.rows.length) throw staleVersion();
  return updated.rows[0].version;
}

export async function storeRemoval(tx: Db, resource: ResourceDefinition, existing: StoredRecord) {
  await tx.query('DELETE FROM records WHERE resource = $1 AND key = $2', [resource.endpoint, existing.key]);
}

export const staleVersion = () =>
  new HttpError(409, 'This record was changed by someone else. Reload it to see the changes.', {
    code: 'STALE_VERSION',
    message_key: 'catalogue.stale_version',
  });
