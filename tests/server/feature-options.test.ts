import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { Compartment } from '../../src/types/generated/compartment.ts';
import { pieceEvents } from '../../server/gateway/rules/shared/piece-store.ts';
import { startStack, type Stack } from './support/stack.ts';
import { refusalChecks, type ExpectRefused } from './support/refusals.ts';
import { signInAll } from './support/sessions.ts';
import { readRecord } from './support/seed-finders.ts';

/**
 * The feature options of spec 01 §6 that tickets, bookings and shipments read (src/schema/ticket-options.ts,
 * server/gateway/rules/booking/bookings.ts, web-app-link.ts), through the gateway: a caller without the option is
 * refused (or sees a field it cannot see kept as stored), one with it succeeds. The demo roles: the
 * operator administrator has every ticket option but the parcel move, the analyst none,
 * the maintenance provider the parcel move (server/seed/demo-network.ts).
 */

type Doc = Record<string, unknown>;
const TICKETS = 'webtool/maintenance/tickets';

let stack: Stack;
let expectRefused: ExpectRefused;
let sessions: Record<string, SigningSession>;

beforeAll(async () => {
  stack = await startStack();
  ({ expectRefused } = await refusalChecks(stack.db));
  sessions = await signInAll(stack, ['operator', 'analyst', 'maintenance']);
}, 240_000);
afterAll(() => stack?.close());

const send = (user: string, method: 'GET' | 'POST' | 'PATCH', path: string, body: Doc) =>
  method === 'GET'
    ? stack.send(sessions[user], { method, path, query: body as Record<string, string> })
    : stack.send(sessions[user], { method, path, body });

const stored = <T = Doc>(resource: string, key: unknown) => readRecord<T>(stack.db, resource, String(key));

/** An installed unit of an unparked service point of maintenance provider 1, without parcels or tickets. */
async function emptyUnit() {
  const found = await stack.db.query<{ hardware_id: number; sp: number }>(
    `SELECT (u.doc->>'hardware_id')::int AS hardware_id, (u.doc->>'service_point_id')::int AS sp
     FROM records u JOIN records s ON s.resource = 'service_points' AND s.key = u.doc->>'service_point_id'
     WHERE u.resource = 'service_points/hardware_units' AND (u.doc->>'status')::int IN (3, 4)
       AND NOT coalesce((s.doc->>'parked')::boolean, false) AND (s.doc->>'maintenance_provider_id')::int = 1
       AND NOT EXISTS (SELECT 1 FROM records t WHERE t.resource = 'maintenance/tickets'
                       AND t.doc->>'hardware_unit_id' = u.doc->>'hardware_id')
       AND NOT EXISTS (SELECT 1 FROM records c WHERE c.resource = 'compartments' AND c.doc->>'hardware_id' = u.key
                       AND coalesce(c.doc->>'piece_id', '') <> '')
     ORDER BY 1 LIMIT 1`,
  );
  return { hardware_unit_id: found.rows[0].hardware_id, sp_id: found.rows[0].sp };
}

describe('ticket kinds: courier, service, compartment inspection', () => {
  let at: { hardware_unit_id: number; sp_id: number };
  const ticket = (overrides: Doc) => ({ ticket_type: 3, event_type: 620, description: 'Options', ...at, ...overrides });
  beforeAll(async () => {
    at = await emptyUnit();
  });

  it('refuses each kind to the analyst, whose role lacks its option, and lets the administrator create it', async () => {
    const cases: [Doc, string, string][] = [
      [{ ticket_type: 4 }, 'ticket_courier_option', 'ticket_type'],
      [{ event_type: 630, regeneration_months: 3 }, 'ticket_service_option', 'event_type'],
      [{ job_type: 2 }, 'ticket_inspection_option', 'job_type'],
    ];
    for (const [kind, key, field] of cases) {
      const refused = await expectRefused(() => send('analyst', 'POST', TICKETS, ticket(kind)), 403, {
        key: `catalogue.${key}`,
      });
      expect(Object.keys(refused.errors as Doc)).toEqual([field]);
      const created = await send('operator', 'POST', TICKETS, ticket(kind));
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject(kind);
    }
    // Any other kind stays open to the analyst.
    expect((await send('analyst', 'POST', TICKETS, ticket({ job_type: 1 }))).status).toBe(201);
  });

  it('lets the analyst edit a service ticket that stays one, but not turn a ticket into one', async () => {
    const service = await send('operator', 'POST', TICKETS, ticket({ event_type: 630 }));
    const saved = service.body.data as Doc & { ticket_id: number; version: number };
    const edited = await send('analyst', 'PATCH', TICKETS, {
      ticket_id: saved.ticket_id,
      version: saved.version,
      description: 'Edited by the analyst',
    });
    expect(edited.status).toBe(200);
    const plain = (await send('operator', 'POST', TICKETS, ticket({}))).body.data as Doc & {
      ticket_id: number;
      version: number;
    };
    await expectRefused(
      () => send('analyst', 'PATCH', TICKETS, { ticket_id: plain.ticket_id, version: plain.version, event_type: 630 }),
      403,
      { key: 'catalogue.ticket_service_option' },
    );
    await expectRefused(
      () => send('analyst', 'PATCH', TICKETS, { ticket_id: plain.ticket_id, version: plain.version, job_type: 2 }),
      403,
      { key: 'catalogue.ticket_inspection_option' },
    );
  });
});

describe('a ticket error type and internal notes', () => {
  it('are kept as stored when the analyst (no option) writes them, and changed by the administrator', async () => {
    const at = await emptyUnit();
    const created = await send('operator', 'POST', TICKETS, {
      ticket_type: 3,
      event_type: 620,
      ...at,
      error_type: 1,
      internal_notes: 'First note',
    });
    expect(created.status).toBe(201);
    const id = (created.body.data as Doc).ticket_id;
    let current = await stored<Doc>('maintenance/tickets', id);
    const analystWrite = await send('analyst', 'PATCH', TICKETS, {
      ticket_id: id,
      version: current.version,
      error_type: 2,
      internal_notes: 'Overwritten by the analyst',
    });
    expect(analystWrite.status).toBe(200);
    current = await stored<Doc>('maintenance/tickets', id);
    expect(current.doc).toMatchObject({ error_type: 1, internal_notes: 'First note' });
    const adminWrite = await send('operator', 'PATCH', TICKETS, {
      ticket_id: id,
      version: current.version,
      error_type: 2,
      internal_notes: 'Second note',
    });
    expect(adminWrite.status).toBe(200);
    expect((await stored<Doc>('maintenance/tickets', id)).doc).toMatchObject({
      error_type: 2,
      internal_notes: 'Second note',
    });
  });
});

describe('periodic tickets switch (PATCH partners/maintenance_provider update_mps_periodic_tickets)', () => {
  it('is refused to the analyst and done by the administrator', async () => {
    const body = { opname: 'update_mps_periodic_tickets', mp_id: 2, action_type: 1 };
    await expectRefused(() => send('analyst', 'PATCH', 'webtool/partners/maintenance_provider', body), 403, {
      key: 'catalogue.ticket_periodic_option',
    });
    const done = await send('operator', 'PATCH', 'webtool/partners/maintenance_provider', body);
    expect(done.status).toBe(200);
    expect((await stored<Doc>('partners/maintenance_provider', 2)).doc.periodic_tickets).toBe(true);
  });
});

describe('uninstall with parcel move', () => {
  /** An installed unit holding parcels, at a service point of provider 1 whose other units have room for them. */
  async function loadedUnit(withRoom: boolean) {
    const found = await stack.db.query<{ hardware_id: number; sp: number }>(
      `WITH held AS (
         SELECT u.key, u.doc->>'service_point_id' AS sp, count(c.key) AS n FROM records u
         JOIN records c ON c.resource = 'compartments' AND c.doc->>'hardware_id' = u.key
           AND coalesce(c.doc->>'piece_id', '') <> ''
         WHERE u.resource = 'service_points/hardware_units' AND (u.doc->>'status')::int IN (3, 4)
         GROUP BY u.key, u.doc->>'service_point_id'),
       room AS (
         SELECT u.doc->>'service_point_id' AS sp, u.key, count(c.key) AS n FROM records u
         JOIN records c ON c.resource = 'compartments' AND c.doc->>'hardware_id' = u.key
           AND (c.doc->>'is_free')::boolean AND c.doc->>'size' = 'large'
         WHERE u.resource = 'service_points/hardware_units' AND (u.doc->>'status')::int IN (3, 4)
         GROUP BY u.doc->>'service_point_id', u.key)
       SELECT held.key::int AS hardware_id, held.sp::int AS sp FROM held
       JOIN records s ON s.resource = 'service_points' AND s.key = held.sp
       WHERE NOT coalesce((s.doc->>'parked')::boolean, false) AND (s.doc->>'maintenance_provider_id')::int = 1
         AND NOT EXISTS (SELECT 1 FROM records t WHERE t.resource = 'maintenance/tickets'
                         AND t.doc->>'hardware_unit_id' = held.key AND (t.doc->>'status')::int <> 2)
         AND ${
           withRoom
             ? 'EXISTS (SELECT 1 FROM room WHERE room.sp = held.sp AND room.key <> held.key AND room.n >= held.n)'
             : `NOT EXISTS (SELECT 1 FROM records o WHERE o.resource = 'service_points/hardware_units'
                  AND o.doc->>'service_point_id' = held.sp AND o.key <> held.key AND (o.doc->>'status')::int IN (3, 4))`
         }
       ORDER BY 1 LIMIT 1`,
    );
    expect(found.rows.length).toBe(1);
    return { hardware_unit_id: found.rows[0].hardware_id, sp_id: found.rows[0].sp };
  }

  const heldPieces = async (hardwareId: number) =>
    (
      await stack.db.query<{ doc: Compartment }>(
        `SELECT doc FROM records WHERE resource = 'compartments' AND doc->>'hardware_id' = $1
           AND coalesce(doc->>'piece_id', '') <> ''`,
        [String(hardwareId)],
      )
    ).rows.map((row) => row.doc.piece_id!);

  it('refuses the administrator (no option) and moves the parcels for the maintenance provider (option)', async () => {
    const at = await loadedUnit(true);
    const pieces = await heldPieces(at.hardware_unit_id);
    const created = await send('operator', 'POST', TICKETS, { ticket_type: 2, ...at });
    expect(created.status).toBe(201);
    const ticket = created.body.data as Doc & { ticket_id: number; version: number };
    const close = (user: string) =>
      send(user, 'PATCH', TICKETS, { ticket_id: ticket.ticket_id, version: ticket.version, status: 2 });
    await expectRefused(() => close('operator'), 409, { key: 'catalogue.hw_contains_parcels' });

    const closed = await close('maintenance');
    expect(closed.status).toBe(200);
    const unit = await stored<Doc>('service_points/hardware_units', at.hardware_unit_id);
    expect(unit.doc.service_point_id ?? null).toBeNull();
    for (const pieceId of pieces) {
      const piece = (await stored<Doc>('shipments', pieceId)).doc;
      expect(piece.hardware_id).not.toBe(at.hardware_unit_id);
      const compartment = (await stored<Compartment>('compartments', piece.compartment_id)).doc;
      expect(compartment).toMatchObject({ piece_id: pieceId, is_occupied: true });
      const other = (await stored<Doc>('service_points/hardware_units', compartment.hardware_id)).doc;
      expect(other.service_point_id).toBe(at.sp_id);
      const codes = (await pieceEvents(stack.db, pieceId)).map((event) => event.event_code);
      expect(codes.slice(-2)).toEqual([444, 445]);
    }
    expect(await heldPieces(at.hardware_unit_id)).toEqual([]);
  });

  it('refuses to close, moving nothing, when no other unit of the service point has room', async () => {
    const at = await loadedUnit(false);
    const created = await send('operator', 'POST', TICKETS, { ticket_type: 2, ...at });
    const ticket = created.body.data as Doc & { ticket_id: number; version: number };
    await expectRefused(
      () => send('maintenance', 'PATCH', TICKETS, { ticket_id: ticket.ticket_id, version: ticket.version, status: 2 }),
      409,
      { key: 'catalogue.hw_parcels_no_room' },
    );
  });
});

describe('double booking', () => {
  it('books a compartment holding an expired parcel of the carrier only for a role with the option', async () => {
    // An active service point of carrier 1 whose compartments are all out of use but one, which holds
    // an expired parcel of carrier 1 waiting for its courier.
    const open = await stack.db.query<{ key: string }>(
      `SELECT s.key FROM records s WHERE s.resource = 'service_points' AND (s.doc->>'status')::int = 7
         AND s.doc->'carriers_access' @> '[1]' AND NOT coalesce((s.doc->>'parked')::boolean, false)
         AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(s.doc->'carrier_settings', '[]')) c
                         WHERE c->>'first_mile' = 'false' OR c->>'last_mile' = 'false'
                           OR coalesce((c->>'reserved_compartments')::int, 0) > 0)
         AND EXISTS (SELECT 1 FROM records u WHERE u.resource = 'service_points/hardware_units'
                     AND u.doc->>'service_point_id' = s.key AND (u.doc->>'status')::int IN (3, 4))
       ORDER BY (s.key)::int LIMIT 1`,
    );
    const spId = Number(open.rows[0].key);
    const units = `SELECT key FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' = $1`;
    const all = await stack.db.query<{ doc: Compartment }>(
      `SELECT doc FROM records WHERE resource = 'compartments' AND doc->>'hardware_id' IN (${units})
       ORDER BY (doc->>'compartment_id')::int`,
      [String(spId)],
    );
    const target = all.rows.find((row) => row.doc.size === 'large')!.doc;
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_disabled": true, "is_free": false}'::jsonb
       WHERE resource = 'compartments' AND doc->>'hardware_id' IN (${units}) AND key <> $2`,
      [String(spId), String(target.compartment_id)],
    );
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_occupied": true, "is_free": false, "piece_id": "EXPIRED-DOUBLE-1",
         "next_piece_id": null, "is_reserved": false, "is_disabled": false, "is_faulty": false, "is_locked": false,
         "is_inactive_comp": false}'::jsonb
       WHERE resource = 'compartments' AND key = $1`,
      [String(target.compartment_id)],
    );
    await stack.db.query(
      `INSERT INTO records (resource, key, partner_type, partner_id, doc) VALUES ('shipments', 'EXPIRED-DOUBLE-1', 'carrier', '1', $1)`,
      [
        JSON.stringify({
          piece_id: 'EXPIRED-DOUBLE-1',
          carrier_id: 1,
          service_point_id: spId,
          hardware_id: target.hardware_id,
          compartment_id: target.compartment_id,
          state: 106,
          active: true,
        }),
      ],
    );
    const booking = (pieceId: string) => ({
      carrier_id: 1,
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
      piece_id: pieceId,
    });
    const refused = await expectRefused(
      () => send('analyst', 'POST', 'webtool/booking', booking('DOUBLE-NO-OPTION')),
      409,
      { key: 'catalogue.booking_no_capacity' },
    );
    expect(refused.message).toBe('All compartments occupied or not available');
    const created = await send('operator', 'POST', 'webtool/booking', booking('DOUBLE-WITH-OPTION'));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ compartment_id: target.compartment_id });
    expect((await stored<Compartment>('compartments', target.compartment_id)).doc).toMatchObject({
      piece_id: 'EXPIRED-DOUBLE-1',
      next_piece_id: 'DOUBLE-WITH-OPTION',
      is_reserved: true,
    });
    // One compartment is booked twice at most.
    await expectRefused(() => send('operator', 'POST', 'webtool/booking', booking('DOUBLE-SECOND')), 409, {
      key: 'catalogue.booking_no_capacity',
    });
  });
});

describe('web app link', () => {
  it('is in the piece detail for the administrator (option) and not for the analyst', async () => {
    const pieceId = 'DEMO-WAITING-1';
    const detail = async (user: string) =>
      (await send(user, 'GET', 'webtool/shipments', { opname: 'get_piece_detail', piece_id: pieceId })).body
        .data as Doc;
    expect((await detail('operator')).web_app_link).toBe(
      `https://webapp.locker.test/parcels/${encodeURIComponent(pieceId)}`,
    );
    expect((await detail('analyst')).web_app_link).toBeNull();
  });
});
