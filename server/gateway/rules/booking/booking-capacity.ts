import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { COMPARTMENTS, HARDWARE_UNITS, SERVICE_POINTS } from '../shared/hardware-store.ts';
import { PieceType } from '../../../../src/types/generated/codes.ts';
import { inStore } from '../shared/endpoints.ts';

/**
 * The free capacity of a service point for one carrier's parcel (spec 02 §3, "Capacity query"),
 * computed from the compartment grids of its hardware units. Booking a parcel takes one of the
 * same compartments, so the query and the booking cannot disagree.
 */

/** Inner size of a compartment, in cm: every door is 43 wide and 58 deep, the size sets its height. */
export const COMPARTMENT_SIZES: Record<Compartment['size'], { height: number; width: number; depth: number }> = {
  small: { height: 10, width: 43, depth: 58 },
  medium: { height: 23, width: 43, depth: 58 },
  large: { height: 49, width: 43, depth: 58 },
};

/** Sizes from the smallest: a parcel takes the smallest compartment it fits in. */
const SIZE_ORDER: Compartment['size'][] = ['small', 'medium', 'large'];

/** A locker stands on a plinth; a wheelchair user reaches a door whose top is at most this high (cm). */
const PLINTH_CM = 20;
const WHEELCHAIR_REACH_CM = 122;

/** Service point status Active (spec 02 §4): only there are parcels booked. */
const ACTIVE = 7;

/** Piece types (spec 01 §2.4): 1 the carrier delivers to an end user (last mile), 3 an end user sends (first mile). */
export type ShipmentType = 1 | 3;

export interface ParcelRequest {
  height: number;
  width: number;
  depth: number;
  wheelchairAccessible: boolean;
  carrierId: number;
  shipmentType: ShipmentType;
}

/** Why a service point offers no capacity at all to the carrier, before its compartments are looked at. */
export type Unavailable = 'not_found' | 'no_access' | 'not_active' | 'mile_not_offered' | 'not_wheelchair_accessible';

export interface Capacity {
  free_capacity: number;
  /** The compartments the carrier could book, smallest fitting first (the one a booking takes is the first). */
  compartments: Compartment[];
  unavailable?: Unavailable;
}

export const fitsIn = (compartment: Compartment, parcel: Pick<ParcelRequest, 'height' | 'width' | 'depth'>) => {
  const inner = COMPARTMENT_SIZES[compartment.size];
  return parcel.height <= inner.height && parcel.width <= inner.width && parcel.depth <= inner.depth;
};

/** Free for a new parcel: no parcel in it or on its way, and nothing keeps it out of use. */
export const isBookable = (compartment: Compartment) =>
  compartment.is_free !== false &&
  !compartment.is_occupied &&
  !compartment.is_reserved &&
  !compartment.is_disabled &&
  !compartment.is_inactive_comp &&
  !compartment.is_faulty &&
  !compartment.is_locked &&
  !compartment.piece_id &&
  !compartment.next_piece_id;

/** The compartments of each column whose top a wheelchair user reaches, counted up from the plinth. */
export function wheelchairReachable(compartments: Compartment[]): Set<number> {
  const reachable = new Set<number>();
  const columns = new Map<string, Compartment[]>();
  for (const compartment of compartments) {
    const key = `${compartment.hardware_id}:${compartment.column}`;
    columns.set(key, [...(columns.get(key) ?? []), compartment]);
  }
  for (const column of columns.values()) {
    let bottom = PLINTH_CM;
    for (const compartment of [...column].sort((a, b) => b.position - a.position)) {
      const top = bottom + COMPARTMENT_SIZES[compartment.size].height;
      if (top <= WHEELCHAIR_REACH_CM) reachable.add(compartment.compartment_id);
      bottom = top;
    }
  }
  return reachable;
}

/** A service point by its id, or by its `sp_id` (the id the labels print). */
export async function findServicePoint(tx: Db, spId: string): Promise<ServicePoint | undefined> {
  const found = await tx.query<{ doc: ServicePoint }>(
    `SELECT doc FROM records WHERE ${inStore(SERVICE_POINTS)} AND (key = $1 OR doc->>'sp_id' = $1) LIMIT 1`,
    [spId.trim()],
  );
  return found.rows[0]?.doc;
}

/** Every compartment of the units at a service point. */
export async function compartmentsAt(tx: Db, servicePointId: number): Promise<Compartment[]> {
  const found = await tx.query<{ doc: Compartment }>(
    `SELECT c.doc FROM records c WHERE ${inStore(COMPARTMENTS, 'c')} AND c.doc->>'hardware_id' IN (
       SELECT u.key FROM records u WHERE ${inStore(HARDWARE_UNITS, 'u')} AND u.doc->>'service_point_id' = $1)
     ORDER BY (c.doc->>'hardware_id')::int, (c.doc->>'column')::int, (c.doc->>'position')::int`,
    [String(servicePointId)],
  );
  return found.rows.map((row) => row.doc);
}

/**
 * How many compartments hold a parcel of each carrier, or are on hold for one: a compartment's
 * `piece_id` or `next_piece_id` names a piece, and the piece its carrier.
 */
export type HeldByCarrier = (tx: Db, compartments: Compartment[]) => Promise<Map<number, number>>;

/**
 * The carrier's capacity at the service point: the free compartments its parcel fits in, less
 * those the other carriers keep. A carrier setting's `reserved_compartments` keeps that many of
 * the service point's compartments for the carrier: what another carrier has reserved and does not
 * use yet is not free for this one, while its own reservation is.
 */
export async function capacityFor(
  tx: Db,
  servicePoint: ServicePoint | undefined,
  parcel: ParcelRequest,
  heldByCarrier: HeldByCarrier,
): Promise<Capacity> {
  const none = (unavailable: Unavailable): Capacity => ({ free_capacity: 0, compartments: [], unavailable });
  if (!servicePoint) return none('not_found');
  if (!(servicePoint.carriers_access ?? []).includes(parcel.carrierId)) return none('no_access');
  if (servicePoint.status !== ACTIVE || servicePoint.is_terminated || servicePoint.parked) return none('not_active');
  const setting = (servicePoint.carrier_settings ?? []).find((entry) => entry.carrier_id === parcel.carrierId);
  const mileOffered =
    parcel.shipmentType === PieceType.EndUserDropOff ? setting?.first_mile !== false : setting?.last_mile !== false;
  if (!mileOffered) return none('mile_not_offered');
  if (parcel.wheelchairAccessible && !servicePoint.wheelchair_accessible) return none('not_wheelchair_accessible');

  const all = await compartmentsAt(tx, servicePoint.service_point_id!);
  const free = all.filter(isBookable);
  const reachable = parcel.wheelchairAccessible ? wheelchairReachable(all) : undefined;
  const fitting = free
    .filter((compartment) => fitsIn(compartment, parcel) && (!reachable || reachable.has(compartment.compartment_id)))
    .sort((a, b) => SIZE_ORDER.indexOf(a.size) - SIZE_ORDER.indexOf(b.size));

  const reservations = (servicePoint.carrier_settings ?? []).filter(
    (entry) => entry.carrier_id !== parcel.carrierId && (entry.reserved_compartments ?? 0) > 0,
  );
  let keptForOthers = 0;
  if (reservations.length) {
    const held = await heldByCarrier(tx, all);
    for (const entry of reservations) {
      keptForOthers += Math.max(0, entry.reserved_compartments! - (held.get(entry.carrier_id) ?? 0));
    }
  }
  const count = Math.max(0, Math.min(fitting.length, free.length - keptForOthers));
  return { free_capacity: count, compartments: fitting.slice(0, count) };
}
