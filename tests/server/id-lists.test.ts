import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { countRecords, findRecords } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
});
afterAll(() => stack.close());

type Row = Record<string, unknown>;

async function list(path: string, query: Record<string, string | number>, session = operator) {
  const { status, body } = await stack.send(session, { method: 'GET', path, query });
  return { status, body, rows: (body.data ?? []) as Row[], total: body.total as number };
}

/** Keys of stored records of a resource, picked by a condition on the document. */
async function keysWhere(resource: string, condition: string, limit: number) {
  return (await findRecords(stack.db, resource, condition, { limit })).map((row) => row.key);
}

describe('ids=: the records of a list of ids in one request', () => {
  it('answers exactly the named service points, each once, whatever the page size', async () => {
    const keys = await keysWhere('service_points', 'true', 3);
    expect(keys).toHaveLength(3);
    const { status, rows, total } = await list('webtool/service_points', {
      ids: ` ${keys[0]},${keys[1]} ,${keys[2]},${keys[0]}`,
      limit: 3,
    });
    expect(status).toBe(200);
    expect(total).toBe(3);
    expect(rows.map((row) => String(row.service_point_id)).sort()).toEqual([...keys].sort());
  });

  it('keeps the other filters and the tenancy scope', async () => {
    const terminated = await keysWhere('service_points', `doc->>'is_terminated' = 'true'`, 2);
    const active = await keysWhere('service_points', `doc->>'is_terminated' = 'false'`, 2);
    const both = await list('webtool/service_points', {
      ids: [...terminated, ...active].join(','),
      is_terminated: 'true',
    });
    expect(both.rows.map((row) => String(row.service_point_id)).sort()).toEqual([...terminated].sort());

    // A carrier's pieces: a carrier asking for its own and another carrier's gets only its own.
    const own = await keysWhere('shipments', `doc->>'carrier_id' = '1'`, 2);
    const other = await keysWhere('shipments', `doc->>'carrier_id' = '2'`, 2);
    expect(own).toHaveLength(2);
    expect(other).toHaveLength(2);
    const carrier = await stack.signIn('carrier');
    const pieces = await list('webtool/shipments', { ids: [...own, ...other].join(','), limit: 4 }, carrier);
    expect(pieces.status).toBe(200);
    expect(pieces.rows.map((row) => row.piece_id).sort()).toEqual([...own].sort());
    expect(pieces.total).toBe(2);
  });

  it('refuses ids that are not of the id type, none, or more than a page', async () => {
    const letters = await list('webtool/service_points', { ids: '1,abc' });
    expect(letters.status).toBe(400);
    expect(String(letters.body.message)).toContain('ids must be a number');
    expect((await list('webtool/service_points', { ids: ' , ' })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, index) => index + 1).join(',');
    expect((await list('webtool/service_points', { ids: many })).status).toBe(400);
    // An unknown id is no error: it is not among the rows.
    const unknown = await list('webtool/service_points', { ids: '999999999' });
    expect(unknown).toMatchObject({ status: 200, total: 0 });
  });
});

describe('default orders put the records that no longer matter last (x-resource.sort.last)', () => {
  const countWhere = (resource: string, condition: string) => countRecords(stack.db, resource, condition);

  it.each([
    ['webtool/service_points', 'service_points', `doc->>'is_terminated' = 'true'`, 'name', 'ASC'],
    ['webtool/service_points', 'service_points', `doc->>'is_terminated' = 'true'`, 'name', 'DESC'],
    [
      'webtool/service_points/hardware_units',
      'service_points/hardware_units',
      `doc->>'is_terminated' = 'true'`,
      'hardware_id',
      'DESC',
    ],
    ['webtool/service_points/pinpad', 'service_points/pinpad', `doc->>'status' = '5'`, 'pinpad_id', 'DESC'],
  ])('%s by %s: active first, then the terminated ones', async (path, resource, sinks, field, dir) => {
    const terminated = await countWhere(resource, sinks);
    const active = await countWhere(resource, `NOT (${sinks})`);
    expect(terminated).toBeGreaterThan(0);
    expect(active).toBeGreaterThan(1);
    const sunk = (row: Row) => (resource === 'service_points/pinpad' ? row.status === 5 : row.is_terminated === true);
    // The first page is active, and the boundary is where the active ones end.
    const first = await list(path, { order_by: field, order_by_dir: dir, limit: 20 });
    expect(first.status).toBe(200);
    expect(first.rows.filter(sunk)).toEqual([]);
    const boundary = await list(path, { order_by: field, order_by_dir: dir, offset: active - 1, limit: 2 });
    expect(boundary.rows.map(sunk)).toEqual([false, true]);
    // Within the active ones the field's order holds.
    const values = first.rows.map((row) => row[field] as string | number);
    const sorted = [...values].sort((a, b) =>
      typeof a === 'number' ? (a as number) - (b as number) : String(a).localeCompare(String(b), 'en'),
    );
    if (typeof values[0] === 'number') expect(values).toEqual(dir === 'ASC' ? sorted : sorted.reverse());
  });
});

describe('a piece found by the first characters of its id or barcode (x-filter.prefix)', () => {
  it('finds the pieces that start with 4 or more characters, in any case, within the tenancy', async () => {
    const stored = await stack.db.query<{ piece_id: string; barcode: string; carrier: string }>(
      `SELECT doc->>'piece_id' AS piece_id, doc->>'piece_barcode' AS barcode, doc->>'carrier_id' AS carrier
       FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = '1' ORDER BY key LIMIT 1`,
    );
    const piece = stored.rows[0];
    // Most of the id: a few pieces share it, the one itself among them.
    const start = piece.piece_id.slice(0, -2).toLowerCase();
    const all = await stack.db.query<{ piece_id: string; carrier: string }>(
      `SELECT doc->>'piece_id' AS piece_id, doc->>'carrier_id' AS carrier FROM records
       WHERE resource = 'shipments' AND lower(doc->>'piece_id') LIKE $1`,
      [`${start}%`],
    );
    const byId = await list('webtool/shipments', { piece_id_prefix: start, limit: 1000 });
    expect(byId.status).toBe(200);
    expect(byId.rows.map((row) => row.piece_id).sort()).toEqual(all.rows.map((row) => row.piece_id).sort());
    expect(byId.rows.map((row) => row.piece_id)).toContain(piece.piece_id);

    const carrier = await stack.signIn('carrier');
    const own = await list('webtool/shipments', { piece_id_prefix: start, limit: 1000 }, carrier);
    expect(own.rows.map((row) => row.piece_id).sort()).toEqual(
      all.rows
        .filter((row) => row.carrier === '1')
        .map((row) => row.piece_id)
        .sort(),
    );

    const barcode = await list('webtool/shipments', { piece_barcode_prefix: piece.barcode.slice(0, -2), limit: 1000 });
    expect(barcode.rows.map((row) => row.piece_barcode)).toContain(piece.barcode);
    expect(barcode.rows.every((row) => String(row.piece_barcode).startsWith(piece.barcode.slice(0, -2)))).toBe(true);
  });

  it('says how many characters it needs to shorter text, and takes the wildcards as text', async () => {
    const short = await list('webtool/shipments', { piece_id_prefix: 'ab' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ message_key: 'validation.prefix_min', args: { min: 4 } });
    const wildcards = await list('webtool/shipments', { piece_id_prefix: '%%%%' });
    expect(wildcards).toMatchObject({ status: 200, total: 0 });
    // A field without the hint takes no prefix.
    expect((await list('webtool/service_points', { name_prefix: 'Coop' })).status).toBe(400);
  });
});
