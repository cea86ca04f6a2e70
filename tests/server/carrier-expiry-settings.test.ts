import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { readRecord } from './support/seed-finders.ts';

/** Spec 02 §7, `partners/carrier: PATCH update_carrier_expiry_settings {carrier_id}`: the record action's form. */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
});
afterAll(() => stack?.close());

const ENDPOINT = 'webtool/partners/carrier';
const OPNAME = 'update_carrier_expiry_settings';

type Doc = Record<string, unknown>;

const stored = (id: number) => readRecord(stack.db, 'partners/carrier', id);

async function auditOf(id: number) {
  const found = await stack.db.query<{ action: string; username: string; changes: Doc }>(
    `SELECT action, username, changes FROM audit_log WHERE resource = 'partners/carrier' AND key = $1 ORDER BY id`,
    [String(id)],
  );
  return found.rows;
}

const settings = (session: SigningSession, body: Doc) =>
  stack.send(session, { method: 'PATCH', path: ENDPOINT, body: { opname: OPNAME, ...body } });

describe('PATCH partners/carrier update_carrier_expiry_settings', () => {
  it('changes only the expiry fields, moves the version on and writes one audit row', async () => {
    const before = await stored(3);
    const auditBefore = (await auditOf(3)).length;
    const expiryDays = before.doc.expiry_days === 12 ? 13 : 12;
    const answer = await settings(operator, {
      carrier_id: 3,
      version: before.version,
      expiry_days: expiryDays,
      reminder: !before.doc.reminder,
      // Not part of the form: the action cannot change the rest of the carrier.
      name: 'Renamed by the settings call',
      service_point_radius: 99,
    });
    expect(answer.status).toBe(200);
    const after = await stored(3);
    expect(after.version).toBe(before.version + 1);
    expect(after.doc).toEqual({ ...before.doc, expiry_days: expiryDays, reminder: !before.doc.reminder });
    expect(answer.body.data).toMatchObject({ expiry_days: expiryDays, version: after.version, name: before.doc.name });

    const audit = await auditOf(3);
    expect(audit).toHaveLength(auditBefore + 1);
    expect(audit.at(-1)).toMatchObject({ action: 'update', username: 'operator' });
    expect(Object.keys(audit.at(-1)!.changes).sort()).toEqual(['expiry_days', 'reminder']);
  });

  it('refuses a value out of range with the field message and writes nothing', async () => {
    const before = await stored(3);
    const auditBefore = (await auditOf(3)).length;
    const answer = await settings(operator, {
      carrier_id: 3,
      version: before.version,
      expiry_days: 31,
      reminder: true,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe('Save failed, check the fields in error state');
    expect(answer.body.errors).toEqual({ expiry_days: { message: 'validation.max', args: { max: 30 } } });
    const missing = await settings(operator, { carrier_id: 3, reminder: true });
    expect(missing.status).toBe(422);
    expect((missing.body.errors as Doc).expiry_days).toEqual({ message: 'validation.required' });
    expect(await stored(3)).toEqual(before);
    expect(await auditOf(3)).toHaveLength(auditBefore);
  });

  it('refuses a version the carrier has moved on from with 409', async () => {
    const before = await stored(3);
    const answer = await settings(operator, {
      carrier_id: 3,
      version: before.version - 1,
      expiry_days: 5,
      reminder: false,
    });
    expect(answer.status).toBe(409);
    expect(await stored(3)).toEqual(before);
  });

  it('lets a carrier change its own settings, and answers 404 for another carrier', async () => {
    const own = await settings(carrier, { carrier_id: 1, expiry_days: 9, reminder: true });
    expect(own.status).toBe(200);
    expect((await stored(1)).doc).toMatchObject({ expiry_days: 9, reminder: true });

    const other = await stored(2);
    const foreign = await settings(carrier, { carrier_id: 2, expiry_days: 4, reminder: false });
    expect(foreign.status).toBe(404);
    // Even out-of-range values: whether another carrier exists is not for this caller to learn.
    expect((await settings(carrier, { carrier_id: 2, expiry_days: 99 })).status).toBe(404);
    expect(await stored(2)).toEqual(other);
  });

  it('answers 400 for an opname PATCH does not know', async () => {
    const answer = await settings(operator, { carrier_id: 3, opname: 'update_carrier_everything', expiry_days: 5 });
    expect(answer.status).toBe(400);
  });

  it('refuses a user holding only the basic level of carriers with 403', async () => {
    // carrier_2_admin loses the advance level of carriers (215) and keeps the basic one (214).
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{permissions}', (
         SELECT jsonb_agg(CASE WHEN (p->>'feature_id')::int = 215 THEN jsonb_set(p, '{feature_id}', '214') ELSE p END)
         FROM jsonb_array_elements(doc->'permissions') p))
       WHERE resource = 'identity_access/roles' AND key = 'carrier_2_admin'`,
    );
    const reader = await stack.signIn('carrier2');
    const before = await stored(2);
    expect((await stack.send(reader, { method: 'GET', path: ENDPOINT, query: { carrier_id: 2 } })).status).toBe(200);
    const answer = await settings(reader, { carrier_id: 2, version: before.version, expiry_days: 6, reminder: true });
    expect(answer.status).toBe(403);
    expect(answer.body.message_key).toBe('http.no_permission');
    expect(await stored(2)).toEqual(before);
  });
});
