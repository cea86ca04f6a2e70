import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import { searchText } from '../../record-store.ts';
import { COMPARTMENTS, readDoc, refreshHardwareUnits } from './hardware-store.ts';
import { applyEvent, type CompartmentChange } from './piece-events.ts';
import { produceWebhookEvent } from '../integrations/webhooks.ts';
import { produceNotifications } from '../integrations/notifications.ts';
import { testAppUserOf } from '../integrations/test-app-users.ts';
import { PIECES } from './endpoints.ts';
export { END_USERS, PIECES } from './endpoints.ts';

/**
 * The piece store (issue 16): pieces are records of resource `shipments` (schemas/piece.schema.json);
 * their history is the `piece_events` table (migration 013). A piece's `state`, `tokens`, `active`,
 * `expiry_at`, `reserved_until`, `hardware_id` and `compartment_id` change ONLY by appending an event,
 * here, in the caller's transaction, together with the compartment occupancy of the hardware store
 * (a compartment's `piece_id` / `is_occupied` for a parcel in it, `next_piece_id` / `is_reserved` for
 * one on its way, `is_free`) and the derived fields of its hardware unit. What each event does is in
 * `piece-events.ts` (the pure model, `PieceEvent` the codes of spec 02 §4).
 *
 * - `createPiece(tx, piece, { event, actor, details, at })`: stores a new piece and its first event
 *   (101 HardReserved with `details.compartment_id` and `hardware_id`, or 102 SoftReserved); fills in
 *   `service_point_name`, `support_provider_id` (and `test_piece` when the service point is a test one) from
 *   the service point.
 * - `appendEvent(tx, pieceId, code, details, actor, at?)`: records an event and writes the piece's new
 *   derived fields (version + 1) and the compartments; returns the new piece.
 * - `recordEvent(tx, piece, code, details, actor, at?)`: the same without writing the piece record,
 *   for a write that goes through the write pipeline (`ctx.writes.change`: audited, versioned, 409 on
 *   a stale version), which writes the returned piece itself.
 * - `pieceEvents(tx, pieceId)`: the timeline, oldest first.
 * End users are records of `shipments/endusers` (schemas/end-user.schema.json); a piece names its
 * end user by `enduser_id`.
 */

const PIECE_SEARCH = { search: ['piece_id', 'piece_barcode'] };

export interface PieceEventRow {
  id: number;
  piece_id: string;
  event_code: number;
  at: string;
  actor: string | null;
  details: Record<string, unknown>;
}

const BLOCKING_FLAGS = ['is_occupied', 'is_reserved', 'is_disabled', 'is_faulty', 'is_inactive_comp', 'is_locked'];

/** A compartment is free when nothing is in it, on its way to it, or wrong with it. */
export function withFreeFlag(compartment: Compartment): Compartment {
  const record = compartment as unknown as Record<string, unknown>;
  return { ...compartment, is_free: !BLOCKING_FLAGS.some((flag) => record[flag] === true) };
}

async function changeCompartments(tx: Db, pieceId: string, change: CompartmentChange) {
  const touched = new Set<number>();
  const update = async (id: number, produce: (compartment: Compartment) => Compartment) => {
    const compartment = await readDoc<Compartment>(tx, COMPARTMENTS, id);
    if (!compartment) return;
    const next = withFreeFlag(produce(compartment));
    await tx.query(
      `UPDATE records SET doc = $3, version = version + 1, updated_at = now() WHERE resource = $1 AND key = $2`,
      [COMPARTMENTS, String(id), JSON.stringify(next)],
    );
    touched.add(compartment.hardware_id);
  };
  if (change.release !== undefined) {
    await update(change.release, (compartment) => ({
      ...compartment,
      ...(compartment.piece_id === pieceId ? { piece_id: null, is_occupied: false } : {}),
      ...(compartment.next_piece_id === pieceId ? { next_piece_id: null, is_reserved: false } : {}),
    }));
  }
  if (change.reserve !== undefined) {
    await update(change.reserve, (compartment) => ({ ...compartment, next_piece_id: pieceId, is_reserved: true }));
  }
  if (change.occupy !== undefined) {
    await update(change.occupy, (compartment) => ({
      ...compartment,
      piece_id: pieceId,
      is_occupied: true,
      ...(compartment.next_piece_id === pieceId ? { next_piece_id: null, is_reserved: false } : {}),
    }));
  }
  for (const hardwareId of touched) await refreshHardwareUnits(tx, { hardwareId });
}

/** Stores the event and moves the compartments; the piece record itself is left to the caller. */
export async function recordEvent(
  tx: Db,
  piece: Piece,
  code: number,
  details: Record<string, unknown>,
  actor: string | null,
  at = new Date(),
): Promise<Piece> {
  const count = await tx.query<{ n: string }>('SELECT count(*) AS n FROM piece_events WHERE piece_id = $1', [
    piece.piece_id,
  ]);
  const applied = applyEvent(piece, code, details, at, Number(count.rows[0].n));
  await tx.query('INSERT INTO piece_events (piece_id, event_code, at, actor, details) VALUES ($1, $2, $3, $4, $5)', [
    piece.piece_id,
    code,
    at.toISOString(),
    actor,
    JSON.stringify(details),
  ]);
  await changeCompartments(tx, piece.piece_id, applied.compartments);
  // The carrier's webhook event, when its settings subscribe to this event's type (issue 28).
  await produceWebhookEvent(tx, applied.piece, code, at);
  // What the end user and the courier are sent for it, in their language (issue 28.3).
  await produceNotifications(tx, applied.piece, code, details, at);
  return applied.piece;
}

export async function readPiece(tx: Db, pieceId: string) {
  return readDoc<Piece>(tx, PIECES, pieceId);
}

async function writePiece(tx: Db, piece: Piece, actor: string | null) {
  await tx.query(
    `UPDATE records SET doc = $3, search = $4, version = version + 1, updated_at = now(), updated_by = $5
     WHERE resource = $1 AND key = $2`,
    [PIECES, piece.piece_id, JSON.stringify(piece), searchText(PIECE_SEARCH, { ...piece }), actor],
  );
}

/** Appends one event to a stored piece and writes what follows from it; returns the new piece. */
export async function appendEvent(
  tx: Db,
  pieceId: string,
  code: number,
  details: Record<string, unknown>,
  actor: string | null,
  at = new Date(),
): Promise<Piece> {
  const piece = await readPiece(tx, pieceId);
  if (!piece) throw new Error(`No piece ${pieceId}`);
  const next = await recordEvent(tx, piece, code, details, actor, at);
  await writePiece(tx, next, actor);
  return next;
}

/** What a new piece takes from its service point: its name, support provider, and the test mark (spec 02 §4). */
export async function servicePointFacts(tx: Db, servicePointId: number) {
  const servicePoint = await readDoc<{ name?: string; support_provider_id?: number | null; test_sp?: boolean }>(
    tx,
    'service_points',
    servicePointId,
  );
  return {
    service_point_name: servicePoint?.name ?? null,
    support_provider_id: servicePoint?.support_provider_id ?? null,
    test_piece: servicePoint?.test_sp === true,
  };
}

/** Stores a new piece with its first event; returns the piece as stored. */
export async function createPiece(
  tx: Db,
  piece: Piece,
  options: { event: 101 | 102; actor: string | null; details?: Record<string, unknown>; at?: Date },
): Promise<Piece> {
  const at = options.at ?? new Date();
  const facts = await servicePointFacts(tx, piece.service_point_id);
  // A piece booked for an active infinity test app user is a test shipment (issue 28).
  const tester = await testAppUserOf(tx, piece);
  const fresh: Piece = {
    ...piece,
    ...facts,
    test_piece: piece.test_piece === true || facts.test_piece || tester !== undefined,
    tokens: [],
    notifications: piece.notifications ?? [],
    created_at: at.toISOString(),
    active: true,
  };
  await tx.query(
    `INSERT INTO records (resource, key, partner_type, partner_id, doc, search, created_by, updated_by)
     VALUES ($1, $2, 'carrier', $3, $4, $5, $6, $6)`,
    [
      PIECES,
      piece.piece_id,
      String(piece.carrier_id),
      JSON.stringify(fresh),
      searchText(PIECE_SEARCH, { ...fresh }),
      options.actor,
    ],
  );
  const next = await recordEvent(tx, fresh, options.event, options.details ?? {}, options.actor, at);
  await writePiece(tx, next, options.actor);
  return next;
}

/** A piece's events, oldest first. */
export async function pieceEvents(tx: Db, pieceId: string): Promise<PieceEventRow[]> {
  const found = await tx.query<PieceEventRow>(
    `SELECT id::int AS id, piece_id, event_code, at, actor, details FROM piece_events WHERE piece_id = $1 ORDER BY at, id`,
    [pieceId],
  );
  return found.rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
}
