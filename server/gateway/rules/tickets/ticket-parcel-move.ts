import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import { isBookable } from '../booking/booking-capacity.ts';

import { compartmentsOf, HARDWARE_UNITS, holdsParcel, readDoc, type StoredUnit } from '../shared/hardware-store.ts';
import { PieceEvent } from '../shared/piece-events.ts';
import { appendEvent, readPiece } from '../shared/piece-store.ts';
import { HardwareStatus } from '../../../../src/types/generated/codes.ts';

/**
 * Uninstall with parcel move (spec 01 §6, option `uninstall_with_parcel_move` of the tickets feature).
 * Without the option, an uninstall ticket of a unit that still holds parcels does not close ("The hardware
 * unit cannot be removed as it contains one or more parcels"). With it, closing the ticket moves each
 * parcel into a free compartment of another unit in use (installed or active) at the same service point,
 * as a staff member emptying the unit would: the parcel stays where its end user and courier expect it,
 * with its tokens, and its history shows 444 PieceMoveInitiated and 445 PieceMoveToOtherHW. A parcel
 * goes to the smallest free compartment at least as large as the one it leaves, the largest parcels
 * first. When the other units have no room for every parcel, nothing moves and the ticket does not close
 * ("hw_parcels_no_room"): a parcel is never left without a compartment, nor processed manually unasked.
 */

const SIZE_RANK: Record<Compartment['size'], number> = { small: 1, medium: 2, large: 3 };
const IN_USE: readonly number[] = [HardwareStatus.Installed, HardwareStatus.Active];

export interface ParcelMove {
  pieceId: string;
  from: Compartment;
  to: Compartment;
}

/** Free compartments of the service point's other units in use, smallest first. */
async function freeCompartmentsBeside(tx: Db, unit: StoredUnit): Promise<Compartment[]> {
  const others = await tx.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = $1 AND doc->>'service_point_id' = $2 AND key <> $3
       AND (doc->>'status')::int = ANY($4::int[]) ORDER BY (doc->>'hardware_id')::int`,
    [HARDWARE_UNITS, String(unit.service_point_id), String(unit.hardware_id), IN_USE],
  );
  const free: Compartment[] = [];
  for (const { key } of others.rows) free.push(...(await compartmentsOf(tx, key)).filter(isBookable));
  return free.sort((a, b) => SIZE_RANK[a.size] - SIZE_RANK[b.size]);
}

/**
 * Where each parcel of the unit would go: an empty list when it holds none, undefined when the service
 * point's other units have no room for all of them.
 */
export async function parcelMovePlan(tx: Db, hardwareId: unknown): Promise<ParcelMove[] | undefined> {
  const unit = await readDoc<StoredUnit>(tx, HARDWARE_UNITS, hardwareId);
  if (!unit) return [];
  const held = (await compartmentsOf(tx, String(hardwareId)))
    .filter((compartment) => holdsParcel(compartment) && compartment.piece_id)
    .sort((a, b) => SIZE_RANK[b.size] - SIZE_RANK[a.size]);
  if (!held.length) return [];
  if (unit.service_point_id === null || unit.service_point_id === undefined) return undefined;
  const free = await freeCompartmentsBeside(tx, unit);
  const moves: ParcelMove[] = [];
  for (const from of held) {
    const index = free.findIndex((compartment) => SIZE_RANK[compartment.size] >= SIZE_RANK[from.size]);
    if (index < 0) return undefined;
    moves.push({ pieceId: from.piece_id!, from, to: free[index] });
    free.splice(index, 1);
  }
  return moves;
}

/** Moves the parcels as planned, each through the piece store's events, in the ticket's transaction. */
export async function moveParcels(tx: Db, moves: ParcelMove[], actor: string | null, ticketId: unknown) {
  const now = new Date();
  for (const [index, move] of moves.entries()) {
    const piece = await readPiece(tx, move.pieceId);
    if (!piece) continue;
    const from = { hardware_id: move.from.hardware_id, compartment_id: move.from.compartment_id };
    const at = new Date(now.getTime() + index * 2);
    await appendEvent(
      tx,
      move.pieceId,
      PieceEvent.PieceMoveInitiated,
      { from, to_hardware_id: move.to.hardware_id, ticket_id: ticketId },
      actor,
      at,
    );
    await appendEvent(
      tx,
      move.pieceId,
      PieceEvent.PieceMoveToOtherHW,
      { hardware_id: move.to.hardware_id, compartment_id: move.to.compartment_id, from, ticket_id: ticketId },
      actor,
      new Date(at.getTime() + 1),
    );
  }
}
