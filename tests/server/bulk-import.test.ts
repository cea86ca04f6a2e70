import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { countRecords } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
});
afterAll(() => stack.close());

const bulk = (session: SigningSession, body: Record<string, unknown>) =>
  stack.send(session, { method: 'POST', path: 'webtool/couriers', body: { opname: 'bulk_import', ...body } });

const courierCount = () => countRecords(stack.db, 'couriers');

type RowErrors = { index: number; line: number; errors: Record<string, { message: string }> }[];

describe('POST webtool/couriers opname bulk_import', () => {
  it('imports a good batch in one go, with an audit row per courier', async () => {
    const before = await courierCount();
    const response = await bulk(operator, {
      data: [
        { carrier_id: 1, code: 'BULK-1', phone: '+4512345678' },
        { carrier_id: 2, code: 'BULK-1', active: false },
      ],
      fileName: 'couriers.csv',
      import_from: 'csv',
      is_toggle_enabled: false,
    });
    expect(response).toMatchObject({ status: 200, body: { success: true, imported: 2 } });
    expect(await courierCount()).toBe(before + 2);
    const audit = await stack.db.query<{ action: string; username: string }>(
      `SELECT a.action, a.username FROM audit_log a JOIN records r ON r.resource = a.resource AND r.key = a.key
       WHERE a.resource = 'couriers' AND r.doc->>'code' = 'BULK-1'`,
    );
    expect(audit.rows).toEqual([
      { action: 'create', username: 'operator' },
      { action: 'create', username: 'operator' },
    ]);
  });

  it('imports nothing when one row is bad, and lists every bad row with its field errors', async () => {
    const before = await courierCount();
    const response = await bulk(operator, {
      data: [
        { carrier_id: 1, code: 'BULK-2' },
        { carrier_id: 1, code: 'B', phone: '12-34' },
        { carrier_id: 1, code: '=cmd|calc' },
        { code: 'BULK-3' },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('Save failed, check the fields in error state');
    expect(response.body.row_errors).toEqual([
      {
        index: 1,
        line: 3,
        errors: {
          code: expect.objectContaining({ message: 'validation.min_length' }),
          phone: expect.objectContaining({ message: 'validation.mobile_format' }),
        },
      },
      { index: 2, line: 4, errors: { code: { message: 'import.errors.formula' } } },
      { index: 3, line: 5, errors: { carrier_id: expect.objectContaining({ message: 'validation.required' }) } },
    ]);
    expect(await courierCount()).toBe(before);
  });

  it('flags a code repeated inside the batch, case-insensitively', async () => {
    const response = await bulk(operator, {
      data: [
        { carrier_id: 1, code: 'BULK-4' },
        { carrier_id: 1, code: 'bulk-4' },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body.row_errors as RowErrors).toEqual([
      { index: 1, line: 3, errors: { code: { message: 'import.errors.repeated', args: { line: 2 } } } },
    ]);
  });

  it('flags a code already stored for the carrier, and rolls back the rows before it', async () => {
    const before = await courierCount();
    const response = await bulk(operator, {
      data: [
        { carrier_id: 1, code: 'BULK-5' },
        { carrier_id: 1, code: 'bulk-1' },
      ],
    });
    expect(response.status).toBe(422);
    expect((response.body.row_errors as RowErrors)[0]).toEqual({
      index: 1,
      line: 3,
      errors: { code: { message: 'catalogue.courier_code_exists' } },
    });
    expect(await courierCount()).toBe(before);
  });

  it('refuses more than 5,000 rows', async () => {
    const data = Array.from({ length: 5001 }, (_, i) => ({ carrier_id: 1, code: `M-${i}` }));
    const response = await bulk(operator, { data });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      message: 'Maximum allowed row count is 5000',
      message_key: 'import.state.row_limit_exceeded',
      args: { count: 5000 },
    });
  });

  it('a carrier imports its own couriers only', async () => {
    const mine = await bulk(carrier, { data: [{ code: 'OWN-1' }, { code: 'OWN-2', carrier_id: 1 }] });
    expect(mine).toMatchObject({ status: 200, body: { imported: 2 } });
    const stored = await stack.db.query<{ carrier_id: string }>(
      `SELECT doc->>'carrier_id' AS carrier_id FROM records WHERE resource = 'couriers' AND doc->>'code' LIKE 'OWN-%'`,
    );
    expect(stored.rows).toEqual([{ carrier_id: '1' }, { carrier_id: '1' }]);
    const before = await courierCount();
    const foreign = await bulk(carrier, { data: [{ code: 'OWN-3' }, { code: 'OWN-4', carrier_id: 2 }] });
    expect(foreign.status).toBe(403);
    expect(await courierCount()).toBe(before);
  });

  it('answers 400 to malformed data and to an unknown opname', async () => {
    for (const data of [undefined, 'rows', { code: 'X' }, [], [1], [null], [['code']]]) {
      const response = await bulk(operator, { data });
      expect(response.status, JSON.stringify(data)).toBe(400);
    }
    const unknown = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { opname: 'bulk_delete', data: [] },
    });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Unknown opname: bulk_delete' } });
  });
});
