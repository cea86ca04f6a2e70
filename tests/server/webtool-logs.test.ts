import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { MAX_ROWS } from '../../server/gateway/webtool-logs.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
});
afterAll(() => stack.close());

interface LogRow {
  '@timestamp': string;
  '@message': string;
  fields: string[];
  '@ptr': string;
  username: string;
  action: string;
  resource: string;
  key: string;
}

const GROUP = 'webtool-audit';
const now = () => Math.floor(Date.now() / 1000);
const lastHour = () => ({ startTime: now() - 3600, endTime: now() + 60 });

const query = (session: SigningSession, body: Record<string, unknown>) =>
  stack.send(session, { method: 'POST', path: 'webtool/logs', body: { opname: 'query', ...body } });
const search = (queryString?: string) =>
  query(operator, { ...lastHour(), logGroupNames: [GROUP], ...(queryString === undefined ? {} : { queryString }) });
const readLog = (session: SigningSession, ptr: string) =>
  stack.send(session, { method: 'GET', path: 'webtool/logs', query: { opname: 'log', ptr } });

async function createCourier(code: string, phone?: string) {
  const created = await stack.send(operator, {
    method: 'POST',
    path: 'webtool/couriers',
    body: { code, carrier_id: 1, ...(phone ? { phone } : {}) },
  });
  expect(created.status).toBe(201);
  return created.body.data as { courier_id: number; version: number };
}

describe('webtool logs', () => {
  it('lists the log groups to the operator company', async () => {
    const answer = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/logs',
      query: { opname: 'log_group_list' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      data: [{ column_id: GROUP, column_name: 'Webtool audit trail' }],
    });
  });

  it('finds a change by a text filter, newest first, and reads the full entry by its pointer', async () => {
    const courier = await createCourier('LOGS-1', '+4512000001');
    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/couriers',
      body: { courier_id: courier.courier_id, version: courier.version, phone: '+4512000002' },
    });
    expect(edited.status).toBe(200);

    const answer = await search('+451200000');
    expect(answer.status).toBe(200);
    const rows = answer.body.data as LogRow[];
    expect(answer.body.total).toBe(2);
    expect(answer.body.truncated).toBeUndefined();
    expect(rows.map((row) => row.action)).toEqual(['update', 'create']);
    const [update] = rows;
    expect(update).toMatchObject({ username: 'operator', resource: 'couriers', key: String(courier.courier_id) });
    expect(update['@message']).toBe(`operator updated couriers ${courier.courier_id}: phone`);
    // The changed fields by name, for the screen to label in the user's language.
    expect(update.fields).toEqual(['phone']);
    expect(rows[1].fields).toEqual(expect.arrayContaining(['code', 'phone', 'carrier_id']));
    expect(Date.parse(update['@timestamp'])).toBeGreaterThanOrEqual(Date.parse(rows[1]['@timestamp']));

    const byValue = (await search('+4512000002')).body.data as LogRow[];
    expect(byValue.map((row) => row['@ptr'])).toEqual([update['@ptr']]);

    const entry = await readLog(operator, update['@ptr']);
    expect(entry.status).toBe(200);
    expect(entry.body.data).toEqual({
      at: update['@timestamp'],
      username: 'operator',
      partner_type: 'operator',
      partner_id: 'infinity',
      resource: 'couriers',
      key: String(courier.courier_id),
      action: 'update',
      changes: { phone: { from: '+4512000001', to: '+4512000002' } },
    });
  });

  it('matches case-insensitively and takes LIKE wildcards literally', async () => {
    for (const name of ['Wild_card Post', 'WildXcard Post']) {
      const created = await stack.send(operator, {
        method: 'POST',
        path: 'webtool/partners/carrier',
        body: { name, primary_country_code: 'SE', service_point_radius: 5 },
      });
      expect(created.status).toBe(201);
    }
    const messages = async (queryString: string) => {
      const answer = await search(queryString);
      expect(answer.status).toBe(200);
      return (answer.body.data as LogRow[]).map((row) => row['@message']);
    };
    expect(await messages('WILD_CARD')).toEqual([expect.stringMatching(/^operator created partners\/carrier \d+: /)]);
    expect(await messages('wild%card')).toEqual([]);
    expect(await messages('wild\\')).toEqual([]);
    expect(await messages('wildxcard')).toHaveLength(1);
  });

  it('keeps only entries inside the time range', async () => {
    await createCourier('LOGS-PAST');
    const earlier = await query(operator, {
      startTime: now() - 10 * 24 * 3600,
      endTime: now() - 9 * 24 * 3600,
      logGroupNames: [GROUP],
      queryString: 'LOGS-PAST',
    });
    expect(earlier.status).toBe(200);
    expect(earlier.body).toMatchObject({ data: [], total: 0 });
  });

  it(`returns at most ${MAX_ROWS} rows and says when the list is cut`, async () => {
    await stack.db.query(
      `INSERT INTO audit_log (username, partner_type, resource, key, action, changes)
       SELECT 'bulk', 'operator', 'couriers', 'many-' || n, 'update', '{"phone":{"from":null,"to":"1"}}'
       FROM generate_series(1, $1::int) AS n`,
      [MAX_ROWS + 5],
    );
    const answer = await search('many-');
    expect(answer.status).toBe(200);
    expect((answer.body.data as LogRow[]).length).toBe(MAX_ROWS);
    expect(answer.body).toMatchObject({ total: MAX_ROWS + 5, truncated: true });
  });

  it('answers the GET form with start_time, end_time and request', async () => {
    await createCourier('LOGS-GET');
    const { startTime, endTime } = lastHour();
    const answer = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/logs',
      query: { start_time: startTime, end_time: endTime, request: 'logs-get' },
    });
    expect(answer.status).toBe(200);
    expect((answer.body.data as LogRow[]).map((row) => row.action)).toEqual(['create']);
  });

  it('refuses other partner types', async () => {
    const expectRefused = async (answer: Promise<{ status: number; body: Record<string, unknown> }>) => {
      const { status, body } = await answer;
      expect(status).toBe(403);
      expect(body.message).toBe('You have no permission for this request.');
    };
    await expectRefused(
      stack.send(carrier, { method: 'GET', path: 'webtool/logs', query: { opname: 'log_group_list' } }),
    );
    await expectRefused(query(carrier, { ...lastHour(), logGroupNames: [GROUP] }));
    await expectRefused(readLog(carrier, '1'));
  });

  it.each([
    ['a missing opname', { opname: undefined }],
    ['an unknown opname', { opname: 'drop' }],
    ['times that are not numbers', { startTime: '2026-01-01', endTime: '2026-01-02' }],
    ['times in milliseconds far in the future', { startTime: now(), endTime: now() * 1000 }],
    ['a fractional time', { startTime: now() - 10.5 }],
    ['a negative time', { startTime: -5 }],
    ['a start after the end', { startTime: now(), endTime: now() - 60 }],
    ['a start equal to the end', { startTime: now(), endTime: now() }],
    ['a range over 31 days', { startTime: now() - 32 * 24 * 3600, endTime: now() }],
    ['no log groups', { logGroupNames: [] }],
    ['log groups that are not a list', { logGroupNames: GROUP }],
    ['an unknown log group', { logGroupNames: [GROUP, '/aws/lambda/other'] }],
    ['a query that is not text', { queryString: { $ne: null } }],
    ['a query over 500 characters', { queryString: 'x'.repeat(501) }],
    ['a query with a NUL character', { queryString: 'a\u0000b' }],
  ])('answers 400 with a message for %s', async (_case, change) => {
    const answer = await query(operator, { ...lastHour(), logGroupNames: [GROUP], ...change });
    expect(answer.status).toBe(400);
    expect(typeof answer.body.message).toBe('string');
  });

  it('answers 400 for a body that is not an object, and for a bad GET search', async () => {
    const list = await stack.send(operator, { method: 'POST', path: 'webtool/logs', body: [1, 2] });
    expect(list.status).toBe(400);
    const noTimes = await stack.send(operator, { method: 'GET', path: 'webtool/logs', query: { request: 'x' } });
    expect(noTimes.status).toBe(400);
    const pieces = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/logs',
      query: { start_time: 1, end_time: 2, piece_id: 'P'.repeat(31) },
    });
    expect(pieces.status).toBe(400);
  });

  it('keeps, with piece_id, only the entries of that piece (spec 02 §7)', async () => {
    const [piece] = (
      await stack.db.query<{ key: string; version: number }>(
        `SELECT key, version FROM records WHERE resource = 'shipments' AND coalesce((doc->>'active')::boolean, false)
         ORDER BY key LIMIT 1`,
      )
    ).rows;
    const commented = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/shipments',
      body: { opname: 'add_comment', piece_id: piece.key, comment: 'Logged for the piece search' },
    });
    expect(commented.status).toBe(200);
    await createCourier('LOGS-PIECE');
    const { startTime, endTime } = lastHour();
    const answer = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/logs',
      query: { start_time: startTime, end_time: endTime, piece_id: piece.key },
    });
    expect(answer.status).toBe(200);
    const found = answer.body.data as LogRow[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((row) => row.resource === 'shipments' && row.key === piece.key)).toBe(true);
  });

  it('answers 400 for a malformed pointer and 404 for an unknown one', async () => {
    for (const ptr of ['', 'abc', '-1', '0', '1.5', '1; DROP TABLE audit_log', '99999999999999999999']) {
      expect((await readLog(operator, ptr)).status, ptr).toBe(400);
    }
    const unknown = await readLog(operator, '999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Log entry not found.');
  });
});
