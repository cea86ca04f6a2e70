import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/** Spec 02 §7: `partners/maintenance_provider: PATCH update_mps_periodic_tickets {mp_id, action_type}`. */

let stack: Stack;
let operator: SigningSession;
let maintenance: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, maintenance, carrier } = await signInAll(stack, ['operator', 'maintenance', 'carrier']));
});
afterAll(() => stack?.close());

const PATH = 'webtool/partners/maintenance_provider';
const OPNAME = 'update_mps_periodic_tickets';
type Doc = Record<string, unknown>;

const switchTo = (session: SigningSession, body: Doc) =>
  stack.send(session, { method: 'PATCH', path: PATH, body: { opname: OPNAME, ...body } });

async function stored(id: number) {
  const found = await stack.db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM records WHERE resource = 'partners/maintenance_provider' AND key = $1`,
    [String(id)],
  );
  return found.rows[0];
}

async function audits(id: number) {
  const found = await stack.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log WHERE resource = 'partners/maintenance_provider' AND key = $1`,
    [String(id)],
  );
  return found.rows[0].n;
}

describe('PATCH partners/maintenance_provider update_mps_periodic_tickets', () => {
  it('lets a provider switch its own periodic tickets off and on, audited', async () => {
    expect((await stored(1)).doc.periodic_tickets).toBe(true);
    const before = await audits(1);
    const off = await switchTo(maintenance, { mp_id: 1, action_type: 2 });
    expect(off.status).toBe(200);
    expect((await stored(1)).doc.periodic_tickets).toBe(false);
    const on = await switchTo(maintenance, { mp_id: 1, action_type: 1, version: (await stored(1)).version });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ periodic_tickets: true, name: 'FixIt Services' });
    expect(await audits(1)).toBe(before + 2);
  });

  it('refuses another provider (404), a carrier (403), a bad action_type (400) and a stale version (409)', async () => {
    const other = await stored(2);
    expect((await switchTo(maintenance, { mp_id: 2, action_type: 1 })).status).toBe(404);
    expect((await switchTo(carrier, { mp_id: 2, action_type: 1 })).status).toBe(403);
    expect((await switchTo(operator, { mp_id: 2, action_type: 3 })).status).toBe(400);
    expect((await switchTo(operator, { mp_id: 2, action_type: 1, version: other.version - 1 })).status).toBe(409);
    expect(await stored(2)).toEqual(other);
    const done = await switchTo(operator, { mp_id: 2, action_type: 1, version: other.version });
    expect(done.status).toBe(200);
    expect((await stored(2)).doc.periodic_tickets).toBe(true);
  });
});
