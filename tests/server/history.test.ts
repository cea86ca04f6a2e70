import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { MASKED } from '../../server/gateway/record-writes.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier, carrier2 } = await signInAll(stack, ['operator', 'carrier', 'carrier2']));
});
afterAll(() => stack.close());

interface Entry {
  action: string;
  username: string;
  partner_type: string;
  at: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

const history = (session: SigningSession, path: string, query: Record<string, string | number>) =>
  stack.send(session, { method: 'GET', path, query: { opname: 'history', ...query } });

describe('record history', () => {
  it('lists who changed which fields from what to what, newest first', async () => {
    const created = await stack.send(carrier, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { code: 'HIST-1', phone: '+4512345678' },
    });
    expect(created.status).toBe(201);
    const courier = created.body.data as { courier_id: number; version: number };
    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/couriers',
      body: { courier_id: courier.courier_id, version: courier.version, phone: '+4587654321', box_inspection: true },
    });
    expect(edited.status).toBe(200);

    const answer = await history(carrier, 'webtool/couriers', { courier_id: courier.courier_id });
    expect(answer.status).toBe(200);
    const entries = answer.body.data as Entry[];
    expect(answer.body.total).toBe(2);
    // A partner reads its own users' names; another company's user shows by company type only (issue 33.2).
    expect(entries.map((entry) => [entry.action, entry.username, entry.partner_type])).toEqual([
      ['update', null, 'operator'],
      ['create', 'carrier', 'carrier'],
    ]);
    const asOperator = await history(operator, 'webtool/couriers', { courier_id: courier.courier_id });
    expect((asOperator.body.data as Entry[]).map((entry) => entry.username)).toEqual(['operator', 'carrier']);
    expect(entries[0].changes).toEqual({
      phone: { from: '+4512345678', to: '+4587654321' },
      box_inspection: { from: false, to: true },
    });
    expect(Date.parse(entries[0].at)).not.toBeNaN();

    const paged = await history(carrier, 'webtool/couriers', { courier_id: courier.courier_id, limit: 1, offset: 1 });
    expect((paged.body.data as Entry[]).map((entry) => entry.action)).toEqual(['create']);
    expect(paged.body.total).toBe(2);
  });

  it("answers 404 for another partner's record and for an unknown one, so ids cannot be probed", async () => {
    const created = await stack.send(carrier, { method: 'POST', path: 'webtool/couriers', body: { code: 'HIST-2' } });
    const id = (created.body.data as { courier_id: number }).courier_id;
    expect((await history(carrier2, 'webtool/couriers', { courier_id: id })).status).toBe(404);
    expect((await history(carrier, 'webtool/couriers', { courier_id: 999999 })).status).toBe(404);
  });

  it('refuses a call without the record id, or with a bad page', async () => {
    expect((await history(operator, 'webtool/couriers', {})).status).toBe(400);
    expect((await history(operator, 'webtool/couriers', { courier_id: 1, limit: 0 })).status).toBe(400);
    expect((await history(operator, 'webtool/couriers', { courier_id: 1, offset: -1 })).status).toBe(400);
  });

  it('never stores secret values: a changed API key shows as changed, masked', async () => {
    const created = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/partners/carrier',
      body: { name: 'History Carrier', primary_country_code: 'SE', service_point_radius: 5 },
    });
    expect(created.status).toBe(201);
    const data = created.body.data as { carrier_id: number; api_key: string };
    const answer = await history(operator, 'webtool/partners/carrier', { carrier_id: data.carrier_id });
    const [entry] = answer.body.data as Entry[];
    expect(entry.changes.api_key).toEqual({ from: null, to: MASKED });
    expect(JSON.stringify(answer.body)).not.toContain(data.api_key);
  });

  it('an unknown GET opname is refused', async () => {
    expect(
      (await stack.send(operator, { method: 'GET', path: 'webtool/couriers', query: { opname: 'nope' } })).status,
    ).toBe(400);
  });
});
