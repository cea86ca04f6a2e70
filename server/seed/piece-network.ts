import type { Compartment } from '../../src/types/generated/compartment.ts';
import type { EndUser } from '../../src/types/generated/end-user.ts';
import type { Piece } from '../../src/types/generated/piece.ts';
import type { Db } from '../db/adapter.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { applyEvent, PieceEvent } from '../gateway/rules/shared/piece-events.ts';
import { carrierSetups, carriers } from './network-data.ts';
import { seededRandom } from './random.ts';
import { checkInternationalPhone } from '../../src/schema/validators/phone.ts';
import { PieceType } from '../../src/types/generated/codes.ts';

/**
 * The demo network's shipments (issue 16): pieces of every seeded carrier at the service points
 * with lockers over the last 90 days, each with the events of a realistic life (delivered and
 * picked up, expired and returned, cancelled, reservations that ran out, drop-offs), built with the
 * gateway's own event model (`applyEvent`) so that tokens and states are what the gateway would
 * derive. The compartments that hold a parcel or expect one get that parcel as a waiting piece;
 * the first service point of carrier 1 with support provider 1 gets the named troubleshooting
 * cases of the README. Pure and deterministic: its own seeded generator, times relative to `now`.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const HISTORY_DAYS = 90;
/** Finished pieces per service point with lockers, on average, and the end users they go to, by seed size. */
export const PIECE_VOLUME = {
  demo: { piecesPerLockerPoint: 20, endUsers: 4000 },
  test: { piecesPerLockerPoint: 10, endUsers: 600 },
} as const;

interface SeedServicePoint {
  service_point_id: number;
  name?: string;
  status: number;
  test_sp?: boolean;
  support_provider_id?: number | null;
  carriers_access?: number[];
}

export interface EventRow {
  piece_id: string;
  event_code: number;
  at: string;
  actor: string;
  details: Record<string, unknown>;
}

/** The named stuck cases (README "What to try"): carrier 1's, at a service point of support provider 1. */
export const DEMO_CASES = {
  expired: 'DEMO-EXPIRED-1',
  expiring: 'DEMO-EXPIRING-1',
  waiting: 'DEMO-WAITING-1',
  reserved: 'DEMO-RESERVED-1',
} as const;

const firstNames = ['Anna', 'Lars', 'Maja', 'Jonas', 'Sofia', 'Mikkel', 'Ida', 'Ole', 'Eva', 'Piotr', 'Aino', 'Elias'];
const lastNames = ['Hansen', 'Nielsen', 'Berg', 'Lind', 'Kowalski', 'Virtanen', 'Johansson', 'Dahl', 'Nowak', 'Laine'];
const countries = ['DK', 'NO', 'SE', 'PL', 'FI'] as const;

export function buildPieceNetwork(
  servicePoints: SeedServicePoint[],
  unitsAt: Map<number, number[]>,
  compartments: Compartment[],
  now: Date,
  volume: { piecesPerLockerPoint: number; endUsers: number } = PIECE_VOLUME.demo,
) {
  const random = seededRandom(20261216);
  const endUsers: EndUser[] = Array.from({ length: volume.endUsers }, (_, index) => {
    const country = countries[index % countries.length];
    const setup = Object.values(carrierSetups).find((candidate) => candidate.country === country);
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    return {
      enduser_id: index + 1,
      name: `${first} ${last}`,
      phone: `${setup?.dialCode ?? '+45'} ${random.int(20, 99)} ${random.int(10, 99)} ${random.int(10, 99)} ${String(index % 100).padStart(2, '0')}`,
      email: `${first}.${last}.${index + 1}@example.test`.toLowerCase(),
      country,
      marked_for_deletion: index % 97 === 0,
      // One end user in four reads their notifications in French (issue 28.3), not drawn: the seed's draws stay.
      language: index % 4 === 1 ? 'fr' : 'en',
      created_at: new Date(now.getTime() - (HISTORY_DAYS + 30 - (index % 120)) * DAY_MS).toISOString(),
    };
  });

  const pieces: Piece[] = [];
  const events: EventRow[] = [];
  const byCompartment = new Map<number, Compartment[]>();
  for (const compartment of compartments) {
    byCompartment.set(compartment.hardware_id, [...(byCompartment.get(compartment.hardware_id) ?? []), compartment]);
  }
  let serial = 0;
  const newPieceId = () => {
    serial += 1;
    return `37052${String(serial * 7907 + random.int(0, 7906)).padStart(12, '0')}`;
  };

  /** Plays a piece's events through the gateway's model and keeps the rows. */
  function play(base: Piece, steps: [number, Date, Record<string, unknown>, string][]) {
    let piece = base;
    steps.forEach(([code, at, details, actor], index) => {
      piece = applyEvent(piece, code, details, at, index).piece;
      events.push({ piece_id: piece.piece_id, event_code: code, at: at.toISOString(), actor, details });
    });
    pieces.push(piece);
    return piece;
  }

  function basePiece(
    pieceId: string,
    servicePoint: SeedServicePoint,
    createdAt: Date,
    type: 1 | 3,
    carrierId?: number,
  ): Piece {
    const carrier = carrierId ?? random.pick(servicePoint.carriers_access?.length ? servicePoint.carriers_access : [1]);
    const endUser = random.pick(endUsers);
    const sender = { name: carriers.find((c) => c.id === carrier)!.name, phone: null, email: null };
    const recipient = { name: endUser.name, phone: endUser.phone ?? null, email: endUser.email ?? null };
    const [from, to] =
      type === PieceType.Delivery ? [sender, recipient] : [recipient, { name: sender.name, phone: null, email: null }];
    return {
      piece_id: pieceId,
      parcel_id: `P${pieceId.slice(-10)}`,
      // Numbered pieces share a shipment with their neighbours; a named demo piece is a shipment of its own
      // (its id whole: 'SWAITING-' was a cut id, issue 24).
      shipment_id: /^\d{9}$/.test(pieceId.slice(-9)) ? `S${pieceId.slice(-9, -1)}` : `S-${pieceId}`,
      piece_barcode: `JJD${pieceId.slice(-14)}`,
      test_piece: servicePoint.test_sp === true,
      state: 101,
      piece_type: type,
      carrier_id: carrier,
      service_point_id: servicePoint.service_point_id,
      service_point_name: servicePoint.name ?? null,
      support_provider_id: servicePoint.support_provider_id ?? null,
      hardware_id: null,
      compartment_id: null,
      courier_id: (carrier - 1) * 8 + random.int(1, 8),
      allocation_type: random.chance(0.8) ? 1 : 2,
      parcel_type: random.pick(['small', 'small', 'medium', 'large'] as const),
      height: random.int(5, 40),
      width: random.int(10, 43),
      depth: random.int(10, 58),
      sender_name: from.name,
      sender_phone: from.phone,
      sender_email: from.email,
      recipient_name: to.name,
      recipient_phone: to.phone,
      recipient_email: to.email,
      end_user_phone: endUser.phone ?? null,
      end_user_email: endUser.email ?? null,
      enduser_id: endUser.enduser_id,
      reference: random.chance(0.5) ? `ORD-${random.int(100000, 999999)}` : null,
      reservation: 'hard',
      reservation_time: random.pick([24, 48, 72]),
      reserved_until: null,
      expiry_days: random.pick([3, 5, 7, 7, 10]),
      expiry_at: null,
      tokens: [],
      notifications: [],
      created_at: createdAt.toISOString(),
      active: true,
    };
  }

  const later = (at: Date, minHours: number, maxHours: number) =>
    new Date(at.getTime() + (minHours + random.next() * (maxHours - minHours)) * HOUR_MS);
  const courier = (piece: Piece) => `courier:${piece.courier_id}`;
  /** A finished piece of the last 90 days at a service point with lockers. */
  function history(servicePoint: SeedServicePoint, compartmentsThere: Compartment[]) {
    const createdAt = new Date(now.getTime() - (3 + random.next() * (HISTORY_DAYS - 3)) * DAY_MS);
    const type = random.chance(0.15) ? 3 : 1;
    const piece = basePiece(newPieceId(), servicePoint, createdAt, type);
    const compartment = random.pick(compartmentsThere);
    const place = { compartment_id: compartment.compartment_id, hardware_id: compartment.hardware_id };
    const soft = random.chance(0.2);
    const reserve: [number, Date, Record<string, unknown>, string] = soft
      ? [PieceEvent.SoftReserved, createdAt, {}, 'booking']
      : [PieceEvent.HardReserved, createdAt, place, 'booking'];
    const roll = random.next();
    if (roll < 0.05) {
      const expiredAt = new Date(createdAt.getTime() + piece.reservation_time! * HOUR_MS);
      const code = soft ? PieceEvent.SoftReservationExpired : PieceEvent.HardReservationExpired;
      return play(piece, [reserve, [code, expiredAt, {}, 'system']]);
    }
    if (roll < 0.09) {
      return play(piece, [reserve, [PieceEvent.PieceCancelled, later(createdAt, 1, 20), {}, 'booking']]);
    }
    const arrived = later(createdAt, 2, 30);
    if (type === PieceType.EndUserDropOff) {
      const picked = later(arrived, 4, 60);
      return play(piece, [
        reserve,
        [PieceEvent.EndUserConnectedToHW, arrived, { ...place, drop_off: true }, 'end_user'],
        [PieceEvent.ReturnPickup, picked, {}, courier(piece)],
      ]);
    }
    const expiry = new Date(arrived.getTime() + piece.expiry_days! * DAY_MS);
    const steps: [number, Date, Record<string, unknown>, string][] = [
      reserve,
      [PieceEvent.CourierDelivered, arrived, place, courier(piece)],
    ];
    if (roll < 0.17) {
      steps.push([PieceEvent.PieceExpired, expiry, {}, 'system']);
      steps.push([PieceEvent.ExpiredPiecePickedUp, later(expiry, 2, 72), {}, courier(piece)]);
    } else if (roll < 0.18) {
      steps.push([PieceEvent.ParcelProcessedManually, later(arrived, 24, 72), {}, 'operator']);
    } else {
      const pickedUp = new Date(arrived.getTime() + random.next() * (expiry.getTime() - arrived.getTime()) * 0.9);
      steps.push([PieceEvent.EnduserPickup, pickedUp, {}, 'end_user']);
      if (random.chance(0.3)) {
        steps.push([PieceEvent.EnduserRated, later(pickedUp, 0.1, 5), { rating: random.int(2, 5) }, 'end_user']);
      }
    }
    return play(piece, steps);
  }

  /** The parcel a seeded compartment holds (or expects), waiting now. */
  function waiting(
    servicePoint: SeedServicePoint,
    compartment: Compartment,
    pieceId: string,
    reserved: boolean,
    named?: { hoursAgo: number; carrierId: number },
  ) {
    const hoursAgo = named?.hoursAgo ?? 1 + random.next() * 24 * 9;
    const createdAt = new Date(now.getTime() - (hoursAgo + (reserved ? 0 : random.next() * 20 + 2)) * HOUR_MS);
    const drawn = basePiece(pieceId, servicePoint, createdAt, 1, named?.carrierId);
    // A named case expires in seven days, so that its times are the README's.
    const piece = named ? { ...drawn, expiry_days: 7 } : drawn;
    const place = { compartment_id: compartment.compartment_id, hardware_id: compartment.hardware_id };
    if (reserved) {
      return play({ ...piece, reservation_time: 168 }, [[PieceEvent.HardReserved, createdAt, place, 'booking']]);
    }
    const arrived = new Date(now.getTime() - hoursAgo * HOUR_MS);
    const steps: [number, Date, Record<string, unknown>, string][] = [
      [PieceEvent.HardReserved, createdAt, place, 'booking'],
      [PieceEvent.CourierDelivered, arrived, place, courier(piece)],
    ];
    const expiry = new Date(arrived.getTime() + piece.expiry_days! * DAY_MS);
    if (expiry < now) steps.push([PieceEvent.PieceExpired, expiry, {}, 'system']);
    return play(piece, steps);
  }

  const lockerPoints = servicePoints.filter((sp) => (unitsAt.get(sp.service_point_id) ?? []).length > 0);
  // The named cases: the first locker point of carrier 1 and support provider 1 with four parcels in it.
  const demoPoint = lockerPoints.find(
    (sp) =>
      sp.carriers_access?.includes(1) &&
      sp.support_provider_id === 1 &&
      !sp.test_sp &&
      (unitsAt.get(sp.service_point_id) ?? []).flatMap((id) => byCompartment.get(id) ?? []).filter((c) => c.piece_id)
        .length >= 4,
  );
  const renamed = new Map<string, string>();
  if (demoPoint) {
    const held = (unitsAt.get(demoPoint.service_point_id) ?? [])
      .flatMap((id) => byCompartment.get(id) ?? [])
      .filter((c) => c.piece_id);
    const cases: [string, number][] = [
      [DEMO_CASES.expired, 24 * 12],
      [DEMO_CASES.expiring, 24 * 7 - 10],
      [DEMO_CASES.waiting, 24 * 3],
    ];
    cases.forEach(([pieceId, hours], index) => {
      const compartment = held[index];
      renamed.set(compartment.piece_id!, pieceId);
      compartment.piece_id = pieceId;
      waiting(demoPoint, compartment, pieceId, false, { hoursAgo: hours, carrierId: 1 });
    });
    const reservedSlot = held[3];
    renamed.set(reservedSlot.piece_id!, DEMO_CASES.reserved);
    reservedSlot.piece_id = null;
    reservedSlot.is_occupied = false;
    reservedSlot.next_piece_id = DEMO_CASES.reserved;
    reservedSlot.is_reserved = true;
    waiting(demoPoint, reservedSlot, DEMO_CASES.reserved, true, { hoursAgo: 2, carrierId: 1 });
  }

  for (const servicePoint of lockerPoints) {
    const there = (unitsAt.get(servicePoint.service_point_id) ?? []).flatMap((id) => byCompartment.get(id) ?? []);
    for (const compartment of there) {
      if (
        compartment.piece_id &&
        !renamed.has(compartment.piece_id) &&
        !Object.values(DEMO_CASES).includes(compartment.piece_id as never)
      ) {
        waiting(servicePoint, compartment, compartment.piece_id, false);
      }
      if (compartment.next_piece_id && compartment.next_piece_id !== DEMO_CASES.reserved) {
        waiting(servicePoint, compartment, compartment.next_piece_id, true);
      }
    }
    const count = Math.round(volume.piecesPerLockerPoint * (servicePoint.test_sp ? 0.3 : 0.5 + random.next()));
    for (let n = 0; n < count; n += 1) history(servicePoint, there);
  }
  // The named cases expire seven days after delivery: delivered 12 days ago is 5 days past expiry,
  // 7 days less 10 hours ago leaves 10 hours, 3 days ago leaves 4 days.
  return { pieces, events, endUsers, demoServicePoint: demoPoint?.service_point_id };
}

/** The pieces as records, owned by their carrier. */
export function pieceRecords(pieces: Piece[]): NewRecord[] {
  return pieces.map((piece) => ({
    key: piece.piece_id,
    partnerType: 'carrier',
    partnerId: String(piece.carrier_id),
    doc: { ...piece },
  }));
}

export function endUserRecords(endUsers: EndUser[]): NewRecord[] {
  return endUsers.map((endUser) => ({ key: String(endUser.enduser_id), doc: { ...endUser } }));
}

/**
 * The events in one statement of one array per column per chunk (as the address index is written). Each
 * chunk's statement trigger refreshes the dashboard rollups of its pieces (migration 047) by reading their
 * events: the planner is told what the chunks before it wrote first, else on a fresh PostgreSQL database it
 * plans for empty tables and reads every event once per piece (a load run's seed stuck for minutes).
 */
export async function insertPieceEvents(db: Db, events: EventRow[], chunk = 25000) {
  await db.query('ANALYZE records');
  for (let i = 0; i < events.length; i += chunk) {
    if (i > 0) await db.query('ANALYZE piece_events');
    const slice = events.slice(i, i + chunk);
    await db.query(
      `INSERT INTO piece_events (piece_id, event_code, at, actor, details)
       SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::text[], $5::jsonb[])`,
      [
        slice.map((event) => event.piece_id),
        slice.map((event) => event.event_code),
        slice.map((event) => event.at),
        slice.map((event) => event.actor),
        slice.map((event) => JSON.stringify(event.details)),
      ],
    );
  }
}

/** How far back the demo carriers' bookings go: the pieces booked in the last 30 days. */
const BOOKING_DAYS = 30;

/**
 * The bookings that created the recent pieces (webtool/booking): what the carrier sent, with the
 * compartment its hard reservation took (the piece's first event). A phone the country's numbering
 * plan refuses is left out (the recipient keeps the e-mail the schema then requires).
 */
export function bookingRecords(
  pieces: Piece[],
  events: EventRow[],
  endUsers: EndUser[],
  now: Date,
  /** Each compartment's unit name, column and position, as a booking names them (issue 24). */
  places: Map<number, { hardware_name: string | null; column: number; position: number }> = new Map(),
): NewRecord[] {
  const since = now.getTime() - BOOKING_DAYS * DAY_MS;
  const firstPlace = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    if (event.event_code === PieceEvent.HardReserved && !firstPlace.has(event.piece_id)) {
      firstPlace.set(event.piece_id, event.details);
    }
  }
  const countryOf = new Map(endUsers.map((endUser) => [endUser.enduser_id, endUser.country]));
  const booked = pieces
    .filter((piece) => Date.parse(piece.created_at!) >= since && piece.height! <= 49 && piece.width! <= 43)
    .sort((a, b) => a.created_at!.localeCompare(b.created_at!));
  return booked.map((piece, index) => {
    const country = countryOf.get(piece.enduser_id!) ?? 'DK';
    const phone = (value: string | null | undefined) =>
      value && !checkInternationalPhone(value, country) ? value : undefined;
    const place = firstPlace.get(piece.piece_id);
    const doc: Record<string, unknown> = {
      piece_uid: index + 1,
      piece_id: piece.piece_id,
      carrier_id: piece.carrier_id,
      service_point_id: piece.service_point_id,
      piece_type: piece.piece_type,
      allocation_type: piece.allocation_type,
      reservation: piece.reservation ?? 'hard',
      ...(piece.courier_id && { courier_id: piece.courier_id }),
      height: piece.height,
      width: piece.width,
      depth: Math.min(piece.depth!, 58),
      wheelchair_accessible: false,
      ...(piece.reference && { reference: piece.reference }),
      reservation_time: piece.reservation_time ?? 24,
      expiry_days: piece.expiry_days ?? 7,
      phone_country: country,
      ...(piece.recipient_name && { recipient_name: piece.recipient_name }),
      ...(phone(piece.recipient_phone) && { recipient_phone: piece.recipient_phone }),
      ...(piece.recipient_email && { recipient_email: piece.recipient_email }),
      ...(piece.sender_name && { sender_name: piece.sender_name }),
      ...(phone(piece.sender_phone) && { sender_phone: piece.sender_phone }),
      ...(piece.sender_email && { sender_email: piece.sender_email }),
      ...(typeof place?.hardware_id === 'number' && { hardware_id: place.hardware_id }),
      ...(typeof place?.compartment_id === 'number' && {
        compartment_id: place.compartment_id,
        hardware_name: places.get(place.compartment_id)?.hardware_name ?? null,
        compartment_column: places.get(place.compartment_id)?.column ?? null,
        compartment_position: places.get(place.compartment_id)?.position ?? null,
      }),
      test_piece: piece.test_piece === true,
      booked_at: piece.created_at,
    };
    return { key: String(index + 1), partnerType: 'carrier', partnerId: String(piece.carrier_id), doc };
  });
}
