import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/**
 * What a partner reads of a record it may see but does not own (issue 33.2): a carrier reads every service
 * point, but only its own carrier settings (`x-resource.partnerItems`), and only the history of what it may
 * read, without the names of other companies' users. The operator reads everything as stored.
 */

type Doc = Record<string, unknown>;
interface Setting {
  carrier_id: number;
  first_mile?: boolean;
  expiry_days?: number;
  reserved_compartments?: number;
}
interface Entry {
  action: string;
  username: string | null;
  partner_type: string | null;
  partner_id: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;
let maintenance: SigningSession;
/** A service point both demo carriers serve, and one only another carrier serves. */
let shared: Doc;
let foreign: Doc;

const settingsOf = (doc: Doc) => (doc.carrier_settings ?? []) as Setting[];
const list = (session: SigningSession, query: Record<string, string | number>) =>
  stack.send(session, { method: 'GET', path: 'webtool/service_points', query: { offset: 0, limit: 50, ...query } });
const history = (session: SigningSession, id: unknown) =>
  stack.send(session, {
    method: 'GET',
    path: 'webtool/service_points',
    query: { opname: 'history', service_point_id: String(id), limit: 100 },
  });

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier, carrier2, maintenance } = await signInAll(stack, [
    'operator',
    'carrier',
    'carrier2',
    'maintenance',
  ]));
  // Two seeded points, given carriers by the operator here: one served by both demo carriers and a third, one
  // served only by the third.
  const carriers = await stack.db.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = 'partners/carrier' AND key NOT IN ('1', '2') ORDER BY key LIMIT 1`,
  );
  const third = Number(carriers.rows[0].key);
  const points = await stack.db.query<{ doc: Doc }>(
    `SELECT doc FROM records WHERE resource = 'service_points' ORDER BY key LIMIT 2`,
  );
  [shared, foreign] = points.rows.map((row) => row.doc);
  for (const [point, served] of [
    [shared, [1, 2, third]],
    [foreign, [third]],
  ] as const) {
    const current = await list(operator, { service_point_id: String(point.service_point_id) });
    const doc = (current.body.data as Doc[])[0];
    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/service_points',
      body: {
        service_point_id: doc.service_point_id,
        version: doc.version,
        carriers_access: served,
        carrier_settings: served.map((carrierId) => ({ carrier_id: carrierId, first_mile: true, expiry_days: 7 })),
        status_comment: 'Partner reads check',
      },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  }
});
afterAll(() => stack?.close());

describe('nested settings a partner may read', () => {
  it('the operator reads every carrier’s settings', async () => {
    const answer = await list(operator, { service_point_id: String(shared.service_point_id) });
    const ids = settingsOf((answer.body.data as Doc[])[0]).map((setting) => setting.carrier_id);
    expect(ids).toEqual(expect.arrayContaining([1, 2]));
  });

  it('a carrier reads only its own settings, on the record and in a list page', async () => {
    for (const [session, own] of [
      [carrier, 1],
      [carrier2, 2],
    ] as const) {
      const one = await list(session, { service_point_id: String(shared.service_point_id) });
      expect(one.status).toBe(200);
      const settings = settingsOf((one.body.data as Doc[])[0]);
      expect(settings.map((setting) => setting.carrier_id)).toEqual([own]);
      expect(settings[0].expiry_days).toBe(7);
    }
    const page = await list(carrier, { limit: 200 });
    const others = (page.body.data as Doc[]).flatMap(settingsOf).filter((setting) => setting.carrier_id !== 1);
    expect((page.body.data as Doc[]).length).toBeGreaterThan(0);
    expect(others).toEqual([]);
  });

  it('on a point it does not serve, a carrier reads the point but no settings at all', async () => {
    const answer = await list(carrier, { service_point_id: String(foreign.service_point_id) });
    const [doc] = answer.body.data as Doc[];
    expect(doc.name).toBe(foreign.name);
    expect(doc.carrier_settings).toEqual([]);
  });

  it('another partner type reads no carrier settings', async () => {
    const answer = await list(maintenance, { limit: 50 });
    expect(answer.status).toBe(200);
    expect((answer.body.data as Doc[]).flatMap(settingsOf)).toEqual([]);
  });
});

describe('the history a partner may read', () => {
  it('the operator reads the whole trail, with names', async () => {
    const answer = await history(operator, shared.service_point_id);
    const [latest] = answer.body.data as Entry[];
    expect(latest.username).toBe('operator');
    const to = latest.changes.carrier_settings.to as Setting[];
    expect(to.map((setting) => setting.carrier_id)).toEqual(expect.arrayContaining([1, 2]));
  });

  it('a carrier reads the changes of its own settings only, and no user names of other companies', async () => {
    const answer = await history(carrier, shared.service_point_id);
    expect(answer.status).toBe(200);
    const entries = answer.body.data as Entry[];
    const [latest] = entries;
    expect(latest.username).toBeNull();
    expect(latest.partner_type).toBe('operator');
    expect(latest.changes.status_comment.to).toBe('Partner reads check');
    expect((latest.changes.carrier_settings.to as Setting[]).map((setting) => setting.carrier_id)).toEqual([1]);
    const body = JSON.stringify(answer.body);
    expect(body).not.toContain('"username":"operator"');
    expect(entries.every((entry) => entry.username === null)).toBe(true);
  });

  it('on a point it does not serve, a settings change does not reach a carrier: only what it may read', async () => {
    const answer = await history(carrier, foreign.service_point_id);
    const entries = answer.body.data as Entry[];
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.changes.carrier_settings).toBeUndefined();
      expect(entry.username).toBeNull();
    }
    expect(entries[0].changes.status_comment.to).toBe('Partner reads check');
    expect(answer.body.total).toBe(entries.length);
  });

  it('pages count only the entries the partner may read', async () => {
    const all = await history(carrier, shared.service_point_id);
    const total = all.body.total as number;
    const second = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { opname: 'history', service_point_id: String(shared.service_point_id), limit: 1, offset: total - 1 },
    });
    expect((second.body.data as Entry[]).length).toBe(1);
    expect(second.body.total).toBe(total);
  });
});
