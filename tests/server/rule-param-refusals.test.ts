import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';

/**
 * Issue 25.6: opname parameters checked by small JSON Schemas (`rules/shared/params.ts`). Each malformed
 * parameter is refused with the same 400, message key and arguments as the hand-written check it
 * replaced, the first parameter wrong naming the refusal, and nothing is written.
 */

let stack: Stack;
let operator: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;

beforeAll(async () => {
  stack = await startStack();
  ({ operator } = await signInAll(stack, ['operator']));
  fingerprint = await recordsFingerprint(stack.db);
});
afterAll(() => stack?.close());

type Doc = Record<string, unknown>;

async function refusal(method: 'GET' | 'POST' | 'PATCH', path: string, values: Doc) {
  const request = method === 'GET' ? { query: values as Record<string, string> } : { body: values };
  const answer = await stack.send(operator, { method, path, ...request });
  return [answer.status, answer.body.message_key, answer.body.args];
}

const someKey = async (resource: string) =>
  (
    await stack.db.query<{ key: string }>('SELECT key FROM records WHERE resource = $1 ORDER BY key LIMIT 1', [
      resource,
    ])
  ).rows[0].key;

describe('opname parameters refused by their schemas', () => {
  it('end users: the filter type, an e-mail filter value and the page size', async () => {
    // The list's own housekeeping (finished end users deleted) may write: no fingerprint here.
    const path = 'webtool/shipments/endusers';
    expect(await refusal('GET', path, { filter_type: 'fax', filter_value: 'x' })).toEqual([
      400,
      'gateway.one_of',
      { name: 'filter_type', values: 'phone, email' },
    ]);
    expect(await refusal('GET', path, { filter_value: 'x' })).toEqual([
      400,
      'gateway.one_of',
      { name: 'filter_type', values: 'phone, email' },
    ]);
    expect(await refusal('GET', path, { filter_type: 'email', filter_value: '  ', limit: '0' })).toEqual([
      400,
      'gateway.param_required',
      { name: 'filter_value' },
    ]);
    expect(await refusal('GET', path, { limit: '1001' })).toEqual([400, 'gateway.limit_range', { max: 1000 }]);
    expect(await refusal('GET', path, { limit: '0' })).toEqual([400, 'gateway.limit_range', { max: 1000 }]);
    expect(await refusal('GET', path, { limit: 'x' })).toEqual([
      400,
      'gateway.whole_number_expected',
      { field: 'limit' },
    ]);
    expect(await refusal('GET', path, { opname: 'get_user_events', enduser_id: 'x' })).toEqual([
      400,
      'gateway.param_required',
      { name: 'enduser_id' },
    ]);
  });

  it('shipments: the piece id, the resend target and the expiry change', async () => {
    const path = 'webtool/shipments';
    const before = await fingerprint();
    const pieceId = await someKey('shipments');
    expect(await refusal('PATCH', path, { opname: 'resend_token', piece_id: '  ', target: 'x' })).toEqual([
      400,
      'gateway.param_required',
      { name: 'piece_id' },
    ]);
    expect(await refusal('PATCH', path, { opname: 'resend_token', piece_id: 7 })).toEqual([
      400,
      'gateway.param_required',
      { name: 'piece_id' },
    ]);
    expect(await refusal('PATCH', path, { opname: 'resend_token', piece_id: 'x'.repeat(31) })).toEqual([
      400,
      'gateway.max_length',
      { name: 'piece_id', max: 30 },
    ]);
    expect(await refusal('PATCH', path, { opname: 'resend_token', piece_id: pieceId, target: 'x' })).toEqual([
      400,
      'gateway.one_of',
      { name: 'target', values: 'end_user, courier' },
    ]);
    expect(await refusal('PATCH', path, { opname: 'update_expiry', piece_id: pieceId })).toEqual([
      400,
      'gateway.one_of',
      { name: 'change', values: 'extend_24, extend_48, force' },
    ]);
    expect(await fingerprint()).toEqual(before);
  });

  it('locations: the proposal of a new service point and the location of an export', async () => {
    const path = 'webtool/locations';
    const before = await fingerprint();
    for (const proposalId of [undefined, null, '']) {
      expect(await refusal('POST', path, { opname: 'create_as_service_point', proposal_id: proposalId })).toEqual([
        400,
        'gateway.param_required',
        { name: 'proposal_id' },
      ]);
    }
    // A one-element list was taken as its element before the schema (String([1]) is '1'); it is refused now.
    for (const proposalId of ['x', 1.5, -1, [1]]) {
      expect(await refusal('POST', path, { opname: 'create_as_service_point', proposal_id: proposalId })).toEqual([
        400,
        'gateway.single_value',
        { name: 'proposal_id' },
      ]);
    }
    for (const locationId of ['', 'x', '-1']) {
      expect(await refusal('GET', path, { opname: 'export', location_id: locationId })).toEqual([
        400,
        'gateway.param_required',
        { name: 'location_id' },
      ]);
    }
    expect(await fingerprint()).toEqual(before);
  });

  it('hardware models: the page size, 1 to 100 in at most three digits', async () => {
    const path = 'webtool/service_points/hardware_units';
    for (const limit of ['0', '000', '101', '0100', 'x', '-1']) {
      expect(await refusal('GET', path, { opname: 'hardware_models', limit })).toEqual([
        400,
        'gateway.integer_range',
        { name: 'limit', min: 1, max: 100 },
      ]);
    }
    for (const limit of ['', '1', '007', '100']) {
      expect((await refusal('GET', path, { opname: 'hardware_models', limit }))[0]).toBe(200);
    }
  });

  it('tickets, invoices and addresses: the date range, the days, the carriers and the text', async () => {
    expect(await refusal('GET', 'webtool/maintenance/tickets', { date_range_type: 'nonsense' })).toEqual([
      400,
      'gateway.one_of',
      { name: 'date_range_type', values: 'created, sla, deadline' },
    ]);
    expect(await refusal('GET', 'webtool/maintenance/tickets', { date1: '2026-01-01', date2: 'today' })).toEqual([
      400,
      'gateway.date_expected',
      { field: 'date2' },
    ]);
    const invoices = { opname: 'invoice_log' };
    expect(await refusal('GET', 'webtool/invoicing', { ...invoices, carrier_ids: '1,x', from_date: 'x' })).toEqual([
      400,
      'gateway.positive_integer',
      { name: 'carrier_ids' },
    ]);
    expect(await refusal('GET', 'webtool/invoicing', { ...invoices, from_date: '2026-1-1' })).toEqual([
      400,
      'gateway.param_required',
      { name: 'from_date' },
    ]);
    expect(await refusal('GET', 'webtool/service_points', { opname: 'address', text: 'a'.repeat(101) })).toEqual([
      400,
      'gateway.max_length',
      { name: 'text', max: 100 },
    ]);
  });
});
