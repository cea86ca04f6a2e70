import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/** Spec 02 §7 `maintenance/operators: GET, POST, PATCH`; §9 "maintenance operators (active=1)". */

let stack: Stack;
let operator: SigningSession;
let maintenance: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, maintenance, carrier } = await signInAll(stack, ['operator', 'maintenance', 'carrier']));
});
afterAll(() => stack?.close());

const PATH = 'webtool/maintenance/operators';
type Doc = Record<string, unknown>;

const list = (session: SigningSession, query: Record<string, string> = {}) =>
  stack.send(session, { method: 'GET', path: PATH, query: { offset: '0', limit: '100', ...query } });
const rows = (answer: { body: Doc }) => answer.body.data as Doc[];

async function count() {
  const found = await stack.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM records WHERE resource = 'maintenance/operators'`,
  );
  return found.rows[0].n;
}

/** A service point the provider maintains, for a new operator. */
async function servicePointOf(providerId: number) {
  const found = await stack.db.query<{ id: number }>(
    `SELECT (doc->>'service_point_id')::int AS id FROM records WHERE resource = 'service_points'
     AND doc->>'maintenance_provider_id' = $1 ORDER BY key LIMIT 1`,
    [String(providerId)],
  );
  return found.rows[0].id;
}

describe('maintenance operators', () => {
  it('lists a provider only its own operators, the operator company all, and filters by active=1', async () => {
    const all = rows(await list(operator));
    expect(new Set(all.map((row) => row.maintenance_provider_id))).toEqual(new Set([1, 2]));
    const own = rows(await list(maintenance));
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((row) => row.maintenance_provider_id === 1)).toBe(true);
    const active = rows(await list(maintenance, { active: '1' }));
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThan(own.length);
    expect(active.every((row) => row.active === true)).toBe(true);
    const other = all.find((row) => row.maintenance_provider_id === 2)!;
    const read = await stack.send(maintenance, { method: 'GET', path: `${PATH}/${String(other.operator_id)}` });
    expect(read.status).toBe(404);
  });

  it('refuses a carrier (403) on list and create', async () => {
    expect((await list(carrier)).status).toBe(403);
    const created = await stack.send(carrier, {
      method: 'POST',
      path: PATH,
      body: { maintenance_operator_id: 'CAR-1', name: 'Not mine', maintenance_provider_id: 1 },
    });
    expect(created.status).toBe(403);
  });

  it('creates an operator for the caller provider, taking its id from the role', async () => {
    const sp = await servicePointOf(1);
    const answer = await stack.send(maintenance, {
      method: 'POST',
      path: PATH,
      body: { maintenance_operator_id: 'FIX-0901', name: 'Nina Holm', phone: '+47 41 22 33 44', sp_id: [sp] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ maintenance_provider_id: 1, active: true, sp_id: [sp] });
  });

  it('refuses another provider, a repeated code, a foreign service point and a short name, writing nothing', async () => {
    const before = await count();
    const foreign = await stack.send(maintenance, {
      method: 'POST',
      path: PATH,
      body: { maintenance_operator_id: 'FIX-0902', name: 'Other Firm', maintenance_provider_id: 2 },
    });
    expect(foreign.status).toBe(403);
    const repeated = await stack.send(operator, {
      method: 'POST',
      path: PATH,
      body: { maintenance_operator_id: 'fix-001', name: 'Copy Cat', maintenance_provider_id: 1 },
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body.errors).toEqual({ maintenance_operator_id: { message: 'catalogue.operator_code_exists' } });
    const spOfOther = await servicePointOf(2);
    const wrongSp = await stack.send(operator, {
      method: 'POST',
      path: PATH,
      body: {
        maintenance_operator_id: 'FIX-0903',
        name: 'Wrong Place',
        maintenance_provider_id: 1,
        sp_id: [spOfOther],
      },
    });
    expect(wrongSp.status).toBe(422);
    expect(wrongSp.body.errors).toEqual({ sp_id: { message: 'catalogue.operator_sp_not_maintained' } });
    const shortName = await stack.send(operator, {
      method: 'POST',
      path: PATH,
      body: { maintenance_operator_id: 'FIX-0904', name: ' a  ', maintenance_provider_id: 1 },
    });
    expect(shortName.status).toBe(422);
    expect(shortName.body.errors).toMatchObject({ name: { message: 'validation.min_non_space', args: { min: 3 } } });
    expect(await count()).toBe(before);
  });

  it('switches an operator off with PATCH, 409 on a stale version, and never deletes one', async () => {
    const [first] = rows(await list(maintenance, { active: '1' }));
    const off = await stack.send(maintenance, {
      method: 'PATCH',
      path: PATH,
      body: { operator_id: first.operator_id, active: false, version: first.version },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ active: false });
    const stale = await stack.send(maintenance, {
      method: 'PATCH',
      path: PATH,
      body: { operator_id: first.operator_id, active: true, version: first.version },
    });
    expect(stale.status).toBe(409);
    const before = await count();
    const removed = await stack.send(operator, {
      method: 'DELETE',
      path: PATH,
      body: { operator_id: first.operator_id },
    });
    expect(removed.status).toBe(403);
    expect(await count()).toBe(before);
  });
});
