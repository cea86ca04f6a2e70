import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { Compartment } from '../../src/types/generated/compartment.ts';
import { COMPARTMENT_SIZES, isBookable } from '../../server/gateway/rules/booking/booking-capacity.ts';
import { pieceEvents } from '../../server/gateway/rules/shared/piece-store.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { countRecords, findRecord, readRecord } from './support/seed-finders.ts';

let stack: Stack;
let carrier: SigningSession;
let carrier2: SigningSession;
let operator: SigningSession;

/** An Active service point giving carrier 1 access (both miles), with free compartments of every size. */
let spId: number;
/** An Active service point without access for carrier 1. */
let closedSpId: number;

beforeAll(async () => {
  stack = await startStack();
  ({ carrier, carrier2, operator } = await signInAll(stack, ['carrier', 'carrier2', 'operator']));
  const open = await stack.db.query<{ key: string }>(
    `SELECT s.key FROM records s WHERE s.resource = 'service_points' AND (s.doc->>'status')::int = 7
       AND s.doc->'carriers_access' @> '[1]' AND NOT coalesce((s.doc->>'parked')::boolean, false)
       AND NOT coalesce((s.doc->>'is_terminated')::boolean, false)
       AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(s.doc->'carrier_settings', '[]')) c
                       WHERE (c->>'carrier_id')::int = 1 AND (c->>'first_mile' = 'false' OR c->>'last_mile' = 'false'))
       AND (SELECT count(*) FROM records c JOIN records u ON u.resource = 'service_points/hardware_units'
              AND u.key = c.doc->>'hardware_id' AND u.doc->>'service_point_id' = s.key
            WHERE c.resource = 'compartments' AND (c.doc->>'is_free')::boolean AND c.doc->>'size' = 'large') >= 2
     ORDER BY (s.key)::int LIMIT 1`,
  );
  spId = Number(open.rows[0].key);
  const closed = await findRecord(
    stack.db,
    'service_points',
    `(doc->>'status')::int = 7 AND NOT doc->'carriers_access' @> '[1]'`,
    {
      orderBy: '(key)::int',
    },
  );
  closedSpId = Number(closed.key);
});
afterAll(() => stack.close());

const capacity = (session: SigningSession, params: Record<string, string>) =>
  stack.send(session, {
    method: 'GET',
    path: 'webtool/booking',
    query: { opname: 'get_capacity', height: '40', width: '40', depth: '50', shipment_type: '1', ...params },
  });

const book = (session: SigningSession, body: Record<string, unknown>) =>
  stack.send(session, {
    method: 'POST',
    path: 'webtool/booking',
    body: {
      service_point_id: spId,
      allocation_type: 1,
      reservation: 'hard',
      piece_type: 1,
      height: 40,
      width: 40,
      depth: 50,
      expiry_days: 5,
      phone_country: 'PL',
      recipient_name: 'Anna Nowak',
      recipient_phone: '+48 512 345 678',
      reference: 'ORDER-1',
      ...body,
    },
  });

async function compartmentsAt(servicePointId: number) {
  const found = await stack.db.query<{ doc: Compartment }>(
    `SELECT c.doc FROM records c JOIN records u ON u.resource = 'service_points/hardware_units'
       AND u.key = c.doc->>'hardware_id' AND u.doc->>'service_point_id' = $1 WHERE c.resource = 'compartments'`,
    [String(servicePointId)],
  );
  return found.rows.map((row) => row.doc);
}

async function writesSoFar() {
  return {
    bookings: await countRecords(stack.db, 'booking'),
    pieces: await countRecords(stack.db, 'shipments'),
    events: Number((await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM piece_events')).rows[0].n),
  };
}

describe('capacity query (GET webtool/booking?opname=get_capacity)', () => {
  it('counts the free compartments the parcel fits in, from the real grid', async () => {
    const grid = await compartmentsAt(spId);
    const large = grid.filter((c) => isBookable(c) && c.size === 'large').length;
    const any = grid.filter((c) => isBookable(c)).length;
    const big = await capacity(carrier, { sp_id: String(spId) });
    expect(big.status).toBe(200);
    expect(big.body.free_capacity).toBe(large);
    const small = await capacity(carrier, { sp_id: String(spId), height: String(COMPARTMENT_SIZES.small.height) });
    expect(small.body.free_capacity).toBe(any);
    expect(Number(small.body.free_capacity)).toBeGreaterThan(Number(big.body.free_capacity));
  });

  it('offers nothing where the service point gives the carrier no access, and refuses a parcel over 43 x 49 x 58', async () => {
    const closed = await capacity(carrier, { sp_id: String(closedSpId) });
    expect(closed.body).toMatchObject({ free_capacity: 0, reason: 'no_access' });
    const wide = await capacity(carrier, { sp_id: String(spId), width: '44', height: '49', depth: '58' });
    expect(wide.status).toBe(422);
    expect(wide.body.message).toBe('The parcel is at most 43 x 49 x 58 cm.');
  });

  it('refuses malformed parameters with their keyed 400, the first one wrong named, a too large parcel first', async () => {
    const refusal = async (params: Record<string, string>) => {
      const answer = await capacity(carrier, { sp_id: String(spId), ...params });
      return [answer.status, answer.body.message_key, answer.body.args];
    };
    expect(await refusal({ sp_id: '' })).toEqual([400, 'gateway.param_required', { name: 'sp_id' }]);
    expect(await refusal({ shipment_type: '2' })).toEqual([
      400,
      'gateway.one_of',
      { name: 'shipment_type', values: '1, 3' },
    ]);
    expect(await refusal({ shipment_type: '03' })).toEqual([200, undefined, undefined]);
    for (const height of ['0', '', 'x', '-1', '1.5']) {
      expect(await refusal({ height })).toEqual([400, 'gateway.centimetres', { name: 'height' }]);
    }
    expect(await refusal({ height: '050', width: '0' })).toEqual([
      422,
      'catalogue.booking_parcel_too_large',
      undefined,
    ]);
    expect(await refusal({ height: '049', width: '0' })).toEqual([400, 'gateway.centimetres', { name: 'width' }]);
  });

  it('keeps what another carrier reserved at the service point and does not use', async () => {
    const before = Number((await capacity(carrier, { sp_id: String(spId), height: '5' })).body.free_capacity);
    const { doc } = await readRecord(stack.db, 'service_points', spId);
    const others = (doc.carriers_access as number[]).filter((id) => id !== 1);
    const settings = [
      ...((doc.carrier_settings as { carrier_id: number }[]) ?? []).filter((s) => s.carrier_id !== 2),
      { carrier_id: 2, reserved_compartments: 3 },
    ];
    const access = [...new Set([...(doc.carriers_access as number[]), 2])];
    await stack.db.query(`UPDATE records SET doc = doc || $2::jsonb WHERE resource = 'service_points' AND key = $1`, [
      String(spId),
      JSON.stringify({ carrier_settings: settings, carriers_access: access }),
    ]);
    const held = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND p.doc->>'carrier_id' = '2'
         AND p.key IN (SELECT coalesce(c.doc->>'piece_id', c.doc->>'next_piece_id') FROM records c
           JOIN records u ON u.resource = 'service_points/hardware_units' AND u.key = c.doc->>'hardware_id'
           AND u.doc->>'service_point_id' = $1 WHERE c.resource = 'compartments')`,
      [String(spId)],
    );
    const kept = Math.max(0, 3 - Number(held.rows[0].n));
    const after = Number((await capacity(carrier, { sp_id: String(spId), height: '5' })).body.free_capacity);
    expect(after).toBe(Math.max(0, before - kept));
    // The reserving carrier's own reservation is free for it.
    const own = Number((await capacity(carrier2, { sp_id: String(spId), height: '5' })).body.free_capacity);
    expect(own).toBe(before);
    void others;
    await stack.db.query(`UPDATE records SET doc = $2::jsonb WHERE resource = 'service_points' AND key = $1`, [
      String(spId),
      JSON.stringify(doc),
    ]);
  });
});

describe('booking a parcel (POST webtool/booking)', () => {
  it('creates the piece with its HardReserved event in the smallest compartment it fits, and its labels', async () => {
    const before = Number((await capacity(carrier, { sp_id: String(spId) })).body.free_capacity);
    const created = await book(carrier, { piece_id: 'BOOKTEST0001' });
    expect(created.status).toBe(201);
    const booking = created.body.data as Record<string, unknown>;
    expect(booking).toMatchObject({ piece_id: 'BOOKTEST0001', carrier_id: 1 });
    expect(booking.compartment_id).toEqual(expect.any(Number));

    const compartment = (await readRecord<Compartment>(stack.db, 'compartments', String(booking.compartment_id))).doc;
    expect(compartment).toMatchObject({
      size: 'large',
      next_piece_id: 'BOOKTEST0001',
      is_reserved: true,
      is_free: false,
    });
    // The booking names that compartment as a person finds it: its unit, column and position (issue 24).
    const unitName = (await readRecord(stack.db, 'service_points/hardware_units', compartment.hardware_id)).doc.name;
    expect(booking).toMatchObject({
      hardware_name: unitName,
      compartment_column: compartment.column,
      compartment_position: compartment.position,
    });
    expect((await pieceEvents(stack.db, 'BOOKTEST0001')).map((e) => e.event_code)).toEqual([101]);
    expect(Number((await capacity(carrier, { sp_id: String(spId) })).body.free_capacity)).toBe(before - 1);

    const piece = (await readRecord(stack.db, 'shipments', 'BOOKTEST0001')).doc;

    expect(piece).toMatchObject({ carrier_id: 1, service_point_id: spId, end_user_phone: '+48 512 345 678' });
    expect(piece.enduser_id).toEqual(expect.any(Number));

    const labels = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/booking',
      query: { opname: 'labels', piece_uid: String(booking.piece_uid) },
    });
    expect(labels.status).toBe(200);
    expect(labels.body.data).toEqual([
      expect.objectContaining({
        piece_type: 1,
        piece_id: 'BOOKTEST0001',
        endUser_reference: 'ORDER-1',
        endUserPhone: '+48 512 345 678',
        // The recipient by name, and the phone's country for the label's international form (issue 24).
        endUserName: 'Anna Nowak',
        phoneCountry: 'PL',
        carrier: expect.objectContaining({ carrier_name: expect.any(String) }),
        sp: expect.objectContaining({ sp_id: expect.any(String), name: expect.any(String) }),
      }),
    ]);
    // The carrier's e-mail once, not again as its contact (issue 24: the label printed it twice).
    const carrierBlock = (labels.body.data as { carrier: Record<string, unknown> }[])[0].carrier;
    expect(carrierBlock.contact).not.toBe(carrierBlock.emailAddress);

    // The carrier finds it in its list and by piece_uid; another carrier does not.
    const list = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/booking',
      query: { search: 'BOOKTEST0001' },
    });
    expect((list.body.data as { piece_id: string }[]).map((row) => row.piece_id)).toEqual(['BOOKTEST0001']);
    const single = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/booking',
      query: { piece_uid: String(booking.piece_uid) },
    });
    expect(single.body.total).toBe(1);
    const other = await stack.send(carrier2, {
      method: 'GET',
      path: 'webtool/booking',
      query: { search: 'BOOKTEST0001' },
    });
    expect(other.body.total).toBe(0);
    const otherLabels = await stack.send(carrier2, {
      method: 'GET',
      path: 'webtool/booking',
      query: { opname: 'labels', piece_uid: String(booking.piece_uid) },
    });
    expect(otherLabels.status).toBe(404);
    // Not changed afterwards.
    const edit = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/booking',
      body: { piece_uid: booking.piece_uid, reference: 'OTHER', version: booking.version },
    });
    expect(edit.status).toBe(403);
  });

  it('holds capacity without a compartment on a soft reservation (SoftReserved)', async () => {
    const before = Number((await capacity(carrier, { sp_id: String(spId), height: '5' })).body.free_capacity);
    const created = await book(carrier, { piece_id: 'BOOKSOFT0001', reservation: 'soft', height: 5 });
    expect(created.status).toBe(201);
    expect((created.body.data as Record<string, unknown>).compartment_id).toBeUndefined();
    expect((await pieceEvents(stack.db, 'BOOKSOFT0001')).map((e) => e.event_code)).toEqual([102]);
    expect(Number((await capacity(carrier, { sp_id: String(spId), height: '5' })).body.free_capacity)).toBe(before - 1);
  });

  it.each([
    ['a 31-character piece id', { piece_id: 'P'.repeat(31) }, 'piece_id', 'validation.max_length'],
    [
      'a 44 x 49 x 58 parcel',
      { piece_id: 'BOOKWIDE0001', width: 44, height: 49, depth: 58 },
      'width',
      'validation.max',
    ],
    [
      'neither phone nor e-mail',
      { piece_id: 'BOOKNONE0001', recipient_phone: undefined, recipient_email: undefined },
      'recipient_phone',
      'validation.required',
    ],
    [
      'a malformed phone',
      { piece_id: 'BOOKPHON0001', recipient_phone: '12' },
      'recipient_phone',
      'validation.invalid_phone',
    ],
  ])('refuses %s on its field and writes nothing', async (_name, body, field, message) => {
    const before = await writesSoFar();
    const refused = await book(carrier, body);
    expect(refused.status).toBe(422);
    expect((refused.body.errors as Record<string, { message: string }>)[field].message).toBe(message);
    expect(await writesSoFar()).toEqual(before);
  });

  it('accepts an e-mail instead of a phone', async () => {
    const created = await book(carrier, {
      piece_id: 'BOOKMAIL0001',
      recipient_phone: undefined,
      recipient_email: 'anna@example.test',
      height: 5,
    });
    expect(created.status).toBe(201);
  });

  it("refuses a booking when all compartments are occupied: 'All compartments occupied or not available'", async () => {
    const grid = await compartmentsAt(spId);
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_occupied": true, "is_free": false}'::jsonb
       WHERE resource = 'compartments' AND key = ANY($1::text[])`,
      [grid.map((c) => String(c.compartment_id))],
    );
    const before = await writesSoFar();
    const refused = await book(carrier, { piece_id: 'BOOKFULL0001', height: 5 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('All compartments occupied or not available');
    expect(await writesSoFar()).toEqual(before);
    const full = await capacity(carrier, { sp_id: String(spId), height: '5' });
    expect(full.body.free_capacity).toBe(0);
    for (const compartment of grid) {
      await stack.db.query(`UPDATE records SET doc = $2::jsonb WHERE resource = 'compartments' AND key = $1`, [
        String(compartment.compartment_id),
        JSON.stringify(compartment),
      ]);
    }
  });

  it('refuses a piece id already in use, a service point without access, and another carrier named by a carrier', async () => {
    const again = await book(carrier, { piece_id: 'BOOKTEST0001' });
    expect(again.status).toBe(422);
    expect((again.body.errors as Record<string, { message: string }>).piece_id.message).toBe(
      'catalogue.booking_piece_exists',
    );
    const closed = await book(carrier, { piece_id: 'BOOKCLOS0001', service_point_id: closedSpId });
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ message: 'All compartments occupied or not available', reason: 'no_access' });
    const forOther = await book(carrier, { piece_id: 'BOOKOTHR0001', carrier_id: 2 });
    expect(forOther.status).toBe(403);
  });
});

describe('who may book', () => {
  it.each(['locationowner', 'maintenance', 'hardware'])('refuses %s with 403', async (username) => {
    const session = await stack.signIn(username);
    const list = await stack.send(session, { method: 'GET', path: 'webtool/booking' });
    expect(list.status).toBe(403);
    expect((await capacity(session, { sp_id: String(spId), carrier_id: '1' })).status).toBe(403);
    expect((await book(session, { piece_id: `BOOK${username.slice(0, 6).toUpperCase()}`, carrier_id: 1 })).status).toBe(
      403,
    );
  });

  it('lets the operator book for a carrier it names', async () => {
    const created = await book(operator, { piece_id: 'BOOKOPER0001', carrier_id: 1, height: 5 });
    expect(created.status).toBe(201);
    const forCarrier = await capacity(operator, { sp_id: String(spId), carrier_id: '1', height: '5' });
    expect(forCarrier.status).toBe(200);
    expect((await capacity(operator, { sp_id: String(spId) })).status).toBe(400);
  });
});
