import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { DEMO_CASES } from '../../server/seed/piece-network.ts';
import { startStack, type Stack } from './support/stack.ts';
import { countRecords, readRecord } from './support/seed-finders.ts';

/** Issue 16: the piece store, shipment search and detail, troubleshooting actions and tenancy. */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;
let support: SigningSession;
let locationOwner: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  [operator, carrier, carrier2, support, locationOwner] = await Promise.all(
    ['operator', 'carrier', 'carrier2', 'support', 'locationowner'].map((user) => stack.signIn(user)),
  );
}, 120_000);
afterAll(() => stack?.close());

type Doc = Record<string, unknown>;

const get = (session: SigningSession, query: Record<string, string>, path = 'webtool/shipments') =>
  stack.send(session, { method: 'GET', path, query });
const patch = (session: SigningSession, body: Doc) =>
  stack.send(session, { method: 'PATCH', path: 'webtool/shipments', body });

const stored = (pieceId: string) => readRecord(stack.db, 'shipments', pieceId);
async function eventCodes(pieceId: string) {
  const found = await stack.db.query<{ event_code: number }>(
    'SELECT event_code FROM piece_events WHERE piece_id = $1 ORDER BY at, id',
    [pieceId],
  );
  return found.rows.map((row) => row.event_code);
}
const compartment = async (id: unknown) => (await readRecord(stack.db, 'compartments', String(id))).doc;

describe('seeded pieces', () => {
  it('match the compartments that hold them, with a consistent history', async () => {
    // More than a page of 500 of one carrier's (see the page size test below).
    expect(await countRecords(stack.db, 'shipments')).toBeGreaterThan(2000);
    const mismatched = await stack.db.query(
      `SELECT c.key FROM records c LEFT JOIN records p ON p.resource = 'shipments' AND p.key = c.doc->>'piece_id'
       WHERE c.resource = 'compartments' AND c.doc->>'piece_id' IS NOT NULL
         AND (p.key IS NULL OR NOT (p.doc->>'active')::boolean OR p.doc->>'compartment_id' <> c.key)`,
    );
    expect(mismatched.rows).toEqual([]);
    const withoutEvents = await stack.db.query(
      `SELECT p.key FROM records p WHERE p.resource = 'shipments'
       AND NOT EXISTS (SELECT 1 FROM piece_events e WHERE e.piece_id = p.key) LIMIT 1`,
    );
    expect(withoutEvents.rows).toEqual([]);
    expect(await countRecords(stack.db, 'shipments', { test_piece: true })).toBeGreaterThan(0);
  });
});

describe('GET webtool/shipments (search)', () => {
  it('finds a piece by barcode for its carrier, at page size 500', async () => {
    const piece = (await stored(DEMO_CASES.waiting)).doc;
    const found = await get(carrier, { piece_barcode: String(piece.piece_barcode), limit: '500' });
    expect(found.status).toBe(200);
    expect((found.body.data as Doc[]).map((row) => row.piece_id)).toEqual([DEMO_CASES.waiting]);
    const page = await get(carrier, { limit: '500' });
    expect((page.body.data as Doc[]).length).toBe(500);
    expect((page.body.data as Doc[]).every((row) => row.carrier_id === 1)).toBe(true);
  });

  it('refuses a 31-character piece id and a date range that ends before it starts', async () => {
    const long = await get(operator, { piece_id: '1'.repeat(31) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('piece_id must be at most 30 characters.');
    const range = await get(operator, { from_date: '2026-05-10', to_date: '2026-05-01' });
    expect(range.status).toBe(400);
    expect(range.body.message).toBe('The end date must not be before the start date.');
  });

  it('keeps the pieces created within a date range', async () => {
    const day = new Date(Date.now() - 10 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const found = await get(operator, { from_date: day, to_date: day, limit: '500' });
    expect(found.status).toBe(200);
    const rows = found.body.data as Doc[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => String(row.created_at).slice(0, 10) === day)).toBe(true);
  });
});

describe('tenancy', () => {
  it('shows a carrier only its own pieces and a support provider those of its service points', async () => {
    expect((await get(carrier2, { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting })).status).toBe(404);
    expect((await get(support, { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting })).status).toBe(200);
    const page = await get(support, { limit: '100' });
    expect((page.body.data as Doc[]).every((row) => row.support_provider_id === 1)).toBe(true);
    expect((await get(locationOwner, {})).status).toBe(403);
    expect((await get(locationOwner, { piece_id: DEMO_CASES.waiting }, 'webtool/shipments/piece_logs')).status).toBe(
      403,
    );
  });

  it('refuses the piece logs, on both routes, to a caller without the shipment logs option', async () => {
    const analyst = await stack.signIn('analyst');
    // The analyst reads the shipments (the detail answers) but has not the option (spec 01 §6).
    expect((await get(analyst, { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting })).status).toBe(200);
    for (const answer of [
      await get(analyst, { piece_id: DEMO_CASES.waiting }, 'webtool/shipments/piece_logs'),
      await get(analyst, { opname: 'piece_logs', piece_id: DEMO_CASES.waiting }),
    ]) {
      expect([answer.status, answer.body.message, answer.body.message_key]).toEqual([
        403,
        'Your access does not include the shipment logs',
        'catalogue.shipment_logs_option',
      ]);
    }
    expect((await get(operator, { opname: 'piece_logs', piece_id: DEMO_CASES.waiting })).status).toBe(200);
  });

  it('refuses a plain edit of a piece: it changes only by its actions', async () => {
    const before = await stored(DEMO_CASES.waiting);
    const answer = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/shipments',
      body: { piece_id: DEMO_CASES.waiting, version: before.version, reference: 'changed' },
    });
    expect(answer.status).toBe(409);
    expect((await stored(DEMO_CASES.waiting)).version).toBe(before.version);
  });
});

describe('piece detail and logs', () => {
  it('answers the events, tokens and compartment with names', async () => {
    const answer = await get(carrier, { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting });
    const data = answer.body.data as { piece: Doc; events: Doc[]; compartment: Doc };
    expect(data.events.map((event) => event.event_code)).toEqual([101, 103]);
    expect(data.piece.state).toBe(103);
    expect((data.piece.tokens as Doc[]).map((token) => [token.token_type, token.status])).toEqual([
      ['courier_delivery', 'used'],
      ['end_user_pickup', 'available'],
    ]);
    expect(data.compartment.service_point_name).toEqual(expect.any(String));
    expect(data.compartment.hardware_name).toEqual(expect.any(String));
    const logs = await get(carrier, { piece_id: DEMO_CASES.waiting }, 'webtool/shipments/piece_logs');
    expect(logs.status).toBe(200);
    expect((logs.body.data as { lines: Doc[] }).lines.length).toBeGreaterThanOrEqual(2);
  });
});

describe('troubleshooting actions', () => {
  it('validates the actions of a waiting piece: cancel refused once delivered, the rest allowed', async () => {
    const answer = await get(carrier, { opname: 'validate_troubleshoot_actions', piece_id: DEMO_CASES.waiting });
    const actions = (answer.body.data as { actions: Record<string, Doc> }).actions;
    expect(actions.cancel).toMatchObject({
      allowed: false,
      reason: 'The shipment cannot be cancelled once it is delivered',
    });
    expect(actions.process_manually.allowed).toBe(true);
    expect(actions.extend_expiry.allowed).toBe(true);
    const notes = await get(carrier, { opname: 'validate_send_notifications', piece_id: DEMO_CASES.waiting });
    const notifications = (notes.body.data as { notifications: Record<string, Doc> }).notifications;
    expect(notifications.end_user.allowed).toBe(true);
    expect(notifications.courier).toMatchObject({
      allowed: false,
      reason: 'Token cannot be resent: the compartment is occupied',
    });
  });

  it('refuses each forbidden action with its catalogue text and writes nothing', async () => {
    const refusals: [string, Doc, string][] = [
      [DEMO_CASES.waiting, { opname: 'cancel_piece' }, 'The shipment cannot be cancelled once it is delivered'],
      [
        DEMO_CASES.reserved,
        { opname: 'process_manually' },
        'The parcel cannot be processed manually before it is delivered',
      ],
      [
        DEMO_CASES.expiring,
        { opname: 'update_expiry', change: 'extend_24' },
        'Expiry cannot be changed in the next 24 hours',
      ],
      [
        DEMO_CASES.expiring,
        { opname: 'update_expiry', change: 'force' },
        'Expiry cannot be changed in the next 24 hours',
      ],
      // Issue 33: a resend moves the expiry 24 hours later, so the expiry rule refuses it as an extension.
      [
        DEMO_CASES.expiring,
        { opname: 'resend_token', target: 'end_user' },
        'Expiry cannot be changed in the next 24 hours',
      ],
      [
        DEMO_CASES.expired,
        { opname: 'resend_token', target: 'end_user' },
        'Token cannot be resent: the token is expired',
      ],
      [
        DEMO_CASES.reserved,
        { opname: 'resend_token', target: 'end_user' },
        'Token cannot be resent: there is no end-user pickup event',
      ],
      [
        DEMO_CASES.waiting,
        { opname: 'resend_token', target: 'courier' },
        'Token cannot be resent: the compartment is occupied',
      ],
    ];
    for (const [pieceId, body, message] of refusals) {
      const before = await stored(pieceId);
      const events = await eventCodes(pieceId);
      const answer = await patch(support, { piece_id: pieceId, ...body });
      expect([answer.status, answer.body.message]).toEqual([409, message]);
      expect((await stored(pieceId)).version).toBe(before.version);
      expect(await eventCodes(pieceId)).toEqual(events);
    }
  });

  it('refuses a resend of a used token and a comment without enough characters', async () => {
    const picked = await stack.db.query<{ key: string }>(
      `SELECT key FROM records WHERE resource = 'shipments' AND (doc->>'state')::int = 201 AND (doc->>'carrier_id')::int = 1 LIMIT 1`,
    );
    const used = await patch(carrier, { opname: 'resend_token', target: 'end_user', piece_id: picked.rows[0].key });
    expect([used.status, used.body.message]).toEqual([409, 'Token cannot be resent: the token is not used']);
    const short = await patch(carrier, { opname: 'add_comment', piece_id: DEMO_CASES.waiting, comment: '  a  b ' });
    expect(short.status).toBe(422);
    expect((short.body.errors as Record<string, Doc>).comment.message).toBe('validation.min_non_space');
    const long = await patch(carrier, {
      opname: 'add_comment',
      piece_id: DEMO_CASES.waiting,
      comment: 'x'.repeat(501),
    });
    expect(long.status).toBe(422);
  });

  it('extends an expired piece, which waits for its end user again, and logs it', async () => {
    const before = await stored(DEMO_CASES.expired);
    expect(before.doc.state).toBe(106);
    const answer = await patch(support, {
      opname: 'update_expiry',
      change: 'extend_48',
      piece_id: DEMO_CASES.expired,
      version: before.version,
    });
    expect(answer.status).toBe(200);
    const after = await stored(DEMO_CASES.expired);
    expect(after.doc.state).toBe(103);
    expect(new Date(String(after.doc.expiry_at)).getTime()).toBeGreaterThan(Date.now() + 47 * 3600 * 1000);
    expect((await eventCodes(DEMO_CASES.expired)).slice(-1)).toEqual([402]);
    const stale = await patch(support, {
      opname: 'update_expiry',
      change: 'extend_24',
      piece_id: DEMO_CASES.expired,
      version: before.version,
    });
    expect(stale.status).toBe(409);
    // Now within 48 h of its new expiry: no more change inside the next 24 h is still possible? 48 h left: allowed once more.
    const audit = await stack.db.query(`SELECT 1 FROM audit_log WHERE resource = 'shipments' AND key = $1`, [
      DEMO_CASES.expired,
    ]);
    expect(audit.rows.length).toBe(1);
  });

  it('cancels a reserved piece and frees its compartment; resends to the end user add 24 h', async () => {
    const reserved = await stored(DEMO_CASES.reserved);
    const slot = reserved.doc.compartment_id;
    expect(await compartment(slot)).toMatchObject({ next_piece_id: DEMO_CASES.reserved, is_reserved: true });
    const cancelled = await patch(carrier, { opname: 'cancel_piece', piece_id: DEMO_CASES.reserved });
    expect(cancelled.status).toBe(200);
    expect(await compartment(slot)).toMatchObject({ next_piece_id: null, is_reserved: false });
    expect((await stored(DEMO_CASES.reserved)).doc).toMatchObject({ state: 110, active: false });

    const waiting = await stored(DEMO_CASES.waiting);
    const resent = await patch(carrier, { opname: 'resend_token', target: 'end_user', piece_id: DEMO_CASES.waiting });
    expect(resent.status).toBe(200);
    const after = (await stored(DEMO_CASES.waiting)).doc;
    expect(new Date(String(after.expiry_at)).getTime() - new Date(String(waiting.doc.expiry_at)).getTime()).toBe(
      24 * 3600 * 1000,
    );
  });

  it('comments, moves the parcel to another unit, then processes it manually', async () => {
    const comment = await patch(carrier, {
      opname: 'add_comment',
      piece_id: DEMO_CASES.waiting,
      comment: 'End user called the hotline',
    });
    expect(comment.status).toBe(200);
    const before = (await stored(DEMO_CASES.waiting)).doc;
    const validation = await get(carrier, { opname: 'validate_troubleshoot_actions', piece_id: DEMO_CASES.waiting });
    const verdicts = validation.body.data as { actions: Record<string, Doc>; units: Doc[] };
    if (verdicts.actions.move.allowed) {
      const moved = await patch(carrier, { opname: 'move_piece', piece_id: DEMO_CASES.waiting });
      expect(moved.status).toBe(200);
      const after = (await stored(DEMO_CASES.waiting)).doc;
      expect(after.hardware_id).not.toBe(before.hardware_id);
      expect(await compartment(before.compartment_id)).toMatchObject({ piece_id: null, is_occupied: false });
      expect(await compartment(after.compartment_id)).toMatchObject({
        piece_id: DEMO_CASES.waiting,
        is_occupied: true,
      });
    } else {
      expect(verdicts.actions.move.reason).toBe('All compartments occupied or not available');
    }
    const processed = await patch(carrier, { opname: 'process_manually', piece_id: DEMO_CASES.waiting });
    expect(processed.status).toBe(200);
    expect((await stored(DEMO_CASES.waiting)).doc).toMatchObject({ state: 205, active: false });
    expect((await eventCodes(DEMO_CASES.waiting)).includes(410)).toBe(true);
  });

  it('refuses a move when every other unit of the service point is full', async () => {
    const piece = (await stored(DEMO_CASES.expiring)).doc;
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_free": false, "is_disabled": true}'::jsonb
       WHERE resource = 'compartments' AND doc->>'hardware_id' IN (
         SELECT key FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' = $1)
       AND doc->>'hardware_id' <> $2`,
      [String(piece.service_point_id), String(piece.hardware_id)],
    );
    const answer = await patch(carrier, { opname: 'move_piece', piece_id: DEMO_CASES.expiring });
    expect([answer.status, answer.body.message]).toEqual([409, 'All compartments occupied or not available']);
  });
});
