import type { Db } from '../../../db/adapter.ts';
import type { Booking } from '../../../../src/types/generated/booking.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { HttpError, noPermission, notFound } from '../../http-error.ts';
import { asksForChange } from '../../resource-registry.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { scopeFor } from '../../tenancy.ts';
import {
  capacityFor,
  compartmentsAt,
  findServicePoint,
  fitsIn,
  type ParcelRequest,
  type ShipmentType,
} from './booking-capacity.ts';
import { featureOption } from '../../../../src/schema/permissions.ts';
import { isExpiredState } from '../shared/piece-events.ts';
import { HARDWARE_UNITS, readDoc, SERVICE_POINTS, type StoredUnit } from '../shared/hardware-store.ts';
import { createPiece, PIECES } from '../shared/piece-store.ts';
import { endUserOfBooking } from '../shipments/end-users.ts';
import { PieceType } from '../../../../src/types/generated/codes.ts';
import { CARRIERS, COURIERS, inStore } from '../shared/endpoints.ts';
import { bodyParams, queryParams, requiredText } from '../shared/params.ts';

/**
 * Bookings (spec 02 §3, §5, §7, `webtool/booking`): the capacity query, and a booking that creates
 * its piece through the piece store in the compartment the capacity query would offer.
 */

export const NO_CAPACITY = 'All compartments occupied or not available';

const refusal = (status: number, message: string, key: string, field?: string, args?: Record<string, unknown>) =>
  new HttpError(status, message, {
    message_key: `catalogue.${key}`,
    ...(field && { errors: { [field]: { message: `catalogue.${key}`, ...(args && { args }) } } }),
  });

/** Compartments holding a piece of each carrier (in it or on its way), by the piece's carrier. */
async function heldByCarrier(tx: Db, compartments: Compartment[]) {
  const pieceIds = compartments.flatMap((c) => [c.piece_id, c.next_piece_id]).filter((id): id is string => !!id);
  const held = new Map<number, number>();
  if (!pieceIds.length) return held;
  const found = await tx.query<{ carrier_id: string; n: string }>(
    `SELECT doc->>'carrier_id' AS carrier_id, count(*) AS n FROM records
     WHERE ${inStore(PIECES)} AND key = ANY($1::text[]) GROUP BY 1`,
    [pieceIds],
  );
  for (const row of found.rows) held.set(Number(row.carrier_id), Number(row.n));
  return held;
}

/** Soft reservations (102) still open at the service point: capacity held without a compartment. */
async function softHeldAt(tx: Db, servicePointId: number) {
  const found = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE ${inStore(PIECES)} AND doc->>'service_point_id' = $1
       AND (doc->>'state')::int = 102 AND (doc->>'active')::boolean`,
    [String(servicePointId)],
  );
  return Number(found.rows[0].n);
}

/** The double booking option of spec 01 §6, on the bookings feature. */
export const DOUBLE_BOOKING_OPTION = 'double_booking';

const OUT_OF_USE = ['is_disabled', 'is_faulty', 'is_locked', 'is_inactive_comp'] as const;
const SIZE_RANK: Record<Compartment['size'], number> = { small: 1, medium: 2, large: 3 };

/**
 * Double booking (spec 01 §6): with the option, a hard booking that finds no free compartment may take a
 * compartment that still holds one of the same carrier's expired parcels, waiting for its courier: the
 * compartment is booked twice (`piece_id` the expired parcel, `next_piece_id` the new one), and the courier
 * collects the expired parcel when delivering the new one. A compartment with a parcel of another
 * carrier, a parcel still waiting for its end user, or a parcel already on its way is never booked
 * twice; without the option, a full service point refuses the booking as before. A piece id stays
 * unique: a booking of a piece id that exists is refused with or without the option.
 */
async function doubleBookable(tx: Db, servicePointId: number, parcel: ParcelRequest) {
  const candidates = (await compartmentsAt(tx, servicePointId))
    .filter((c) => c.piece_id && !c.next_piece_id && !c.is_reserved && !OUT_OF_USE.some((flag) => c[flag] === true))
    .filter((c) => fitsIn(c, parcel))
    .sort((a, b) => SIZE_RANK[a.size] - SIZE_RANK[b.size]);
  for (const compartment of candidates) {
    const held = await readDoc<Piece>(tx, PIECES, compartment.piece_id);
    if (held && held.carrier_id === parcel.carrierId && isExpiredState(held.state)) return compartment;
  }
  return undefined;
}

async function capacityAt(tx: Db, servicePoint: ServicePoint | undefined, parcel: ParcelRequest) {
  const capacity = await capacityFor(tx, servicePoint, parcel, heldByCarrier);
  if (!servicePoint || capacity.unavailable) return capacity;
  const soft = await softHeldAt(tx, servicePoint.service_point_id!);
  const count = Math.max(0, capacity.free_capacity - soft);
  return { ...capacity, free_capacity: count, compartments: capacity.compartments.slice(0, count) };
}

/** The carrier named by the operator company, once read as a number. */
const carrierParams = bodyParams({
  carrier_id: { schema: { type: 'integer', minimum: 1 }, refusal: ['gateway.param_required', { name: 'carrier_id' }] },
});
const servicePointParams = queryParams({ sp_id: requiredText('sp_id') });
/** The shipment type, once read as a number (absent is a delivery). */
const shipmentTypeParams = bodyParams({
  shipment_type: {
    schema: { enum: [PieceType.Delivery, PieceType.EndUserDropOff] },
    refusal: ['gateway.one_of', { name: 'shipment_type', values: '1, 3' }],
  },
});
const centimetres = (name: 'height' | 'width' | 'depth') =>
  queryParams({
    [name]: { schema: { type: 'string', pattern: '^0*[1-9][0-9]*$' }, refusal: ['gateway.centimetres', { name }] },
  });
const DIMENSION_PARAMS = { height: centimetres('height'), width: centimetres('width'), depth: centimetres('depth') };

/** The carrier a caller books for: a carrier user its own, the operator company the one it names. */
function carrierOfCaller(ctx: Pick<OpnameContext, 'access' | 'resource'>, named: unknown): number {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  if (scope !== 'all') {
    if (named !== undefined && named !== '' && String(named) !== scope.value) throw noPermission();
    return Number(scope.value);
  }
  return carrierParams({ carrier_id: Number(named) }).carrier_id;
}

/** A whole number of centimetres from the capacity query, within the parcel's limits. */
function dimension(query: Record<string, string>, name: 'height' | 'width' | 'depth', max: number) {
  const value = Number(DIMENSION_PARAMS[name](query)[name]);
  // Not a shape: too large a parcel is a 422 of its own, before the next dimension is read.
  if (value > max) {
    throw new HttpError(422, `The parcel is at most 43 x 49 x 58 cm.`, {
      message_key: 'catalogue.booking_parcel_too_large',
      errors: { [name]: { message: 'validation.max', args: { max } } },
    });
  }
  return value;
}

/**
 * The answer of a booking's label print (spec 01 §3, "Booking label item"), with the names and the
 * phones' country the label needs besides (issue 24): the end user is the recipient of a delivery
 * (type 1) and the sender of a drop-off (type 3); the booking's other party, when the carrier
 * named one, is its contact at the carrier. A value the records lack is left out, not invented.
 */
async function labelItems(tx: Db, booking: Booking) {
  const carrier = await readDoc<Record<string, unknown>>(tx, CARRIERS, booking.carrier_id);
  const servicePoint = await readDoc<ServicePoint>(tx, SERVICE_POINTS, booking.service_point_id);
  const sender = { name: booking.sender_name, phone: booking.sender_phone, email: booking.sender_email };
  const recipient = { name: booking.recipient_name, phone: booking.recipient_phone, email: booking.recipient_email };
  const [endUser, carrierSide] =
    booking.piece_type === PieceType.EndUserDropOff ? [sender, recipient] : [recipient, sender];
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);
  return [
    {
      piece_type: booking.piece_type,
      piece_id: booking.piece_id,
      endUser_reference: booking.reference,
      endUserName: endUser.name,
      endUserPhone: endUser.phone,
      endUser_emailAddress: endUser.email,
      phoneCountry: booking.phone_country,
      carrier: {
        carrier_name: carrier?.name,
        carrier_address: carrier?.address,
        zip: carrier?.zip,
        city: carrier?.city,
        contact: text(carrierSide.name) ?? text(carrier?.contact_person),
        phone: text(carrierSide.phone) ?? text(carrier?.phone),
        emailAddress: text(carrierSide.email) ?? text(carrier?.email) ?? text(carrier?.invoicing_email),
      },
      sp: {
        name: servicePoint?.name,
        sp_id: servicePoint?.sp_id,
        sp_address: servicePoint?.address,
        zip: servicePoint?.zip,
        city: servicePoint?.city,
      },
    },
  ];
}

export const bookingRules = recordRules<Booking>({
  async beforeWrite(ctx, doc, existing) {
    const { tx } = ctx;
    // A booking is not changed: its piece lives on in the shipments (cancel, expiry, moves).
    if (existing) {
      // A PATCH that asks for nothing (its id and version only) changes nothing, as for any resource.
      if (!asksForChange(ctx.resource, ctx.input ?? {})) return existing.doc;
      throw noPermission();
    }
    const carrier = await readDoc(tx, CARRIERS, doc.carrier_id);
    if (!carrier) throw refusal(422, 'Unknown carrier.', 'booking_unknown_carrier', 'carrier_id');
    if (doc.courier_id !== undefined && doc.courier_id !== null) {
      const courier = await readDoc<{ carrier_id?: number }>(tx, COURIERS, doc.courier_id);
      if (!courier || courier.carrier_id !== doc.carrier_id) {
        throw refusal(422, 'The courier does not work for this carrier.', 'booking_courier_mismatch', 'courier_id');
      }
    }
    if (await readDoc(tx, PIECES, doc.piece_id)) {
      throw refusal(422, 'A piece with this id already exists.', 'booking_piece_exists', 'piece_id');
    }
    const servicePoint = await readDoc<ServicePoint>(tx, SERVICE_POINTS, doc.service_point_id);
    const capacity = await capacityAt(tx, servicePoint, {
      height: doc.height,
      width: doc.width,
      depth: doc.depth,
      wheelchairAccessible: doc.wheelchair_accessible === true,
      carrierId: doc.carrier_id,
      shipmentType: doc.piece_type as ShipmentType,
    });
    const doubleBooked =
      capacity.free_capacity < 1 &&
      !capacity.unavailable &&
      doc.reservation === 'hard' &&
      featureOption(ctx.access.permissions, ctx.resource.features, DOUBLE_BOOKING_OPTION)
        ? await doubleBookable(tx, doc.service_point_id, {
            height: doc.height,
            width: doc.width,
            depth: doc.depth,
            wheelchairAccessible: doc.wheelchair_accessible === true,
            carrierId: doc.carrier_id,
            shipmentType: doc.piece_type as ShipmentType,
          })
        : undefined;
    if (capacity.free_capacity < 1 && !doubleBooked) {
      throw new HttpError(409, NO_CAPACITY, {
        message_key: 'catalogue.booking_no_capacity',
        ...(capacity.unavailable && { reason: capacity.unavailable }),
      });
    }
    // A hard reservation takes the smallest free compartment the parcel fits in; a soft one holds capacity only.
    const compartment = doc.reservation === 'hard' ? (capacity.compartments[0] ?? doubleBooked) : undefined;
    const unit = compartment && (await readDoc<StoredUnit>(tx, HARDWARE_UNITS, compartment.hardware_id));
    return {
      ...doc,
      hardware_id: compartment?.hardware_id,
      compartment_id: compartment?.compartment_id,
      // The compartment in words on the booking's page: its unit's name, its column and position (issue 24).
      hardware_name: unit?.name ?? null,
      compartment_column: compartment?.column ?? null,
      compartment_position: compartment?.position ?? null,
      test_piece: servicePoint?.test_sp === true,
      booked_at: new Date().toISOString(),
    };
  },

  async beforeDelete() {
    throw noPermission();
  },

  async afterWrite({ tx, access }, booking, existing) {
    if (existing) return;
    const endUser = await endUserOfBooking(tx, booking);
    const compartment = booking.compartment_id
      ? await readDoc<Compartment>(tx, 'compartments', booking.compartment_id)
      : undefined;
    const piece: Piece = {
      piece_id: booking.piece_id,
      piece_barcode: booking.piece_id,
      piece_type: booking.piece_type as Piece['piece_type'],
      carrier_id: booking.carrier_id,
      service_point_id: booking.service_point_id,
      courier_id: booking.courier_id ?? null,
      allocation_type: booking.allocation_type as Piece['allocation_type'],
      ...(compartment && { parcel_type: compartment.size }),
      height: booking.height,
      width: booking.width,
      depth: booking.depth,
      sender_name: booking.sender_name ?? null,
      sender_phone: booking.sender_phone ?? null,
      sender_email: booking.sender_email ?? null,
      recipient_name: booking.recipient_name ?? null,
      recipient_phone: booking.recipient_phone ?? null,
      recipient_email: booking.recipient_email ?? null,
      end_user_phone: endUser.phone,
      end_user_email: endUser.email,
      enduser_id: endUser.enduser_id,
      reference: booking.reference ?? null,
      reservation: booking.reservation,
      reservation_time: booking.reservation_time ?? 24,
      expiry_days: booking.expiry_days,
      test_piece: booking.test_piece === true,
    } as Piece;
    const hard = booking.reservation === 'hard';
    await createPiece(tx, piece, {
      event: hard ? 101 : 102,
      actor: access.caller.username,
      details: hard
        ? { compartment_id: booking.compartment_id, hardware_id: booking.hardware_id, booking: booking.piece_uid }
        : { booking: booking.piece_uid },
    });
  },

  queries: {
    /**
     * `GET ?opname=get_capacity&sp_id&height&width&depth&wheelchair_accessible&carrier_id&shipment_type`:
     * `free_capacity`, the compartments the carrier could book now, and why none when the service
     * point offers none at all (`reason`).
     */
    async get_capacity(ctx, query) {
      const carrierId = carrierOfCaller(ctx, query.carrier_id);
      servicePointParams(query);
      const { shipment_type: shipmentType } = shipmentTypeParams({ shipment_type: Number(query.shipment_type ?? 1) });
      const parcel: ParcelRequest = {
        height: dimension(query, 'height', 49),
        width: dimension(query, 'width', 43),
        depth: dimension(query, 'depth', 58),
        wheelchairAccessible: query.wheelchair_accessible === 'true' || query.wheelchair_accessible === '1',
        carrierId,
        shipmentType,
      };
      const servicePoint = await findServicePoint(ctx.db, query.sp_id);
      if (!servicePoint) throw notFound();
      const capacity = await capacityAt(ctx.db, servicePoint, parcel);
      return {
        success: true,
        sp_id: servicePoint.sp_id,
        service_point_id: servicePoint.service_point_id,
        carrier_id: carrierId,
        free_capacity: capacity.free_capacity,
        ...(capacity.unavailable && { reason: capacity.unavailable }),
      };
    },

    /** `GET ?opname=labels&piece_uid=`: the booking's label items, for the print page's cache. */
    async labels(ctx, query) {
      const found = await ctx.db.query<{ doc: Booking }>(`SELECT doc FROM records WHERE resource = $1 AND key = $2`, [
        ctx.resource.endpoint,
        String(query.piece_uid ?? ''),
      ]);
      const booking = found.rows[0]?.doc;
      const scope = scopeFor(ctx.access, ctx.resource);
      if (!booking || scope === 'none' || (scope !== 'all' && String(booking.carrier_id) !== scope.value)) {
        throw notFound();
      }
      return { success: true, data: await labelItems(ctx.db, booking) };
    },
  },
});
