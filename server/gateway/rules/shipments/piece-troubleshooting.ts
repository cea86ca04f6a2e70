import type { Piece } from '../../../../src/types/generated/piece.ts';
import {
  COURIER_TOKEN_HOURS,
  isExpiredState,
  isInCompartment,
  latestToken,
  PieceEvent,
  tokenStatusNow,
} from '../shared/piece-events.ts';
import { PieceType } from '../../../../src/types/generated/codes.ts';

/**
 * Which troubleshooting actions a piece allows now, and why not (spec 02 §8, "Shipment actions").
 * Pure: the gateway's validation opnames answer it, and the write opnames refuse with the same text.
 *
 * Reading of the token resend refusals (spec 02 §8 names four without their exact conditions), in
 * the event model of piece-events.ts:
 * - to the end user (a new pickup code, expiry + 24 h): refused with 'no end-user pickup event'
 *   while the piece has no end-user pickup token, i.e. it never reached a compartment for its end
 *   user (reserved, or a drop-off); 'the token is expired' when its pickup token expired (extend the
 *   expiry instead); 'the token is not used' when the token is no longer in use (the parcel was
 *   picked up, or the piece is finished).
 * - to the courier (TokenSentToCourier 411, valid 7 days): refused with 'the compartment is
 *   occupied' while the parcel waits in its compartment for the end user (the courier has nothing to
 *   open); 'the token is expired' when the courier's reservation token ran out; 'the token is not
 *   used' when the courier has no token in use (used, cancelled, or none).
 */

export const SHIPMENT_MESSAGES = {
  compartmentOccupied: 'Token cannot be resent: the compartment is occupied',
  tokenNotUsed: 'Token cannot be resent: the token is not used',
  tokenExpired: 'Token cannot be resent: the token is expired',
  noPickupEvent: 'Token cannot be resent: there is no end-user pickup event',
  cancelDelivered: 'The shipment cannot be cancelled once it is delivered',
  manualBeforeDelivery: 'The parcel cannot be processed manually before it is delivered',
  noFreeCompartment: 'All compartments occupied or not available',
  expiryLocked: 'Expiry cannot be changed in the next 24 hours',
  notActive: 'The shipment is no longer active',
  notInCompartment: 'The parcel is not waiting in a compartment',
  alreadyExpired: 'The piece has already expired',
} as const;

export type ShipmentMessage = keyof typeof SHIPMENT_MESSAGES;

export interface Verdict {
  allowed: boolean;
  reason?: string;
  message_key?: string;
}

const yes: Verdict = { allowed: true };
const no = (key: ShipmentMessage): Verdict => ({
  allowed: false,
  reason: SHIPMENT_MESSAGES[key],
  message_key: `shipments.refusals.${key}`,
});

const HOUR_MS = 60 * 60 * 1000;
/** Spec 02 §4/§8: the expiry cannot change within 24 hours of it. */
export const EXPIRY_LOCK_HOURS = 24;
/** Spec 02 §4: an end user's resend adds 24 hours to the original expiry. */
export const END_USER_RESEND_HOURS = 24;
export { COURIER_TOKEN_HOURS };
/** A troubleshooting comment: at least this many characters that are not spaces, at most 500 (spec 02 §5, §9). */
export const COMMENT_MIN_CHARACTERS = 5;
export const COMMENT_MAX_LENGTH = 500;

const DELIVERED_CODES: number[] = [
  PieceEvent.CourierDelivered,
  PieceEvent.EndUserConnectedToHW,
  PieceEvent.EnduserPickup,
  PieceEvent.CourierPickup,
  PieceEvent.ReturnPickup,
  PieceEvent.ExpiredPiecePickedUp,
  PieceEvent.ParcelProcessedManually,
  PieceEvent.PieceCollectedByOperator,
  PieceEvent.PieceExpired,
  PieceEvent.ForcedExpired,
];

/** The parcel reached a compartment at some point (from the events, not only the state). */
export const wasDelivered = (eventCodes: number[]) => eventCodes.some((code) => DELIVERED_CODES.includes(code));

/**
 * Spec 02 §4/§8, the one rule of every path that moves an expiry (the extensions, the forced expiry and
 * an end user's resend, which adds 24 hours): not within the 24 hours before it. Without it, pressing
 * Resend again and again would keep a parcel in its locker for ever.
 */
export function expiryLocked(piece: Piece, now: Date): boolean {
  if (!piece.expiry_at) return false;
  const left = new Date(piece.expiry_at).getTime() - now.getTime();
  return left > 0 && left <= EXPIRY_LOCK_HOURS * HOUR_MS;
}

export function endUserResend(piece: Piece, now: Date): Verdict {
  const pickup = latestToken(piece, ['end_user_pickup', 'not_sent']);
  if (!pickup) return no('noPickupEvent');
  const status = tokenStatusNow(pickup, now);
  if (status === 'expired' || isExpiredState(piece.state)) return no('tokenExpired');
  if (status === 'used' || status === 'cancelled' || !piece.active) return no('tokenNotUsed');
  // The resend moves the expiry 24 hours later: the expiry rule decides as for an extension.
  if (expiryLocked(piece, now)) return no('expiryLocked');
  return yes;
}

export function courierResend(piece: Piece, now: Date): Verdict {
  if (piece.active && piece.state === PieceEvent.CourierDelivered) return no('compartmentOccupied');
  const token = latestToken(piece, ['courier_delivery', 'courier_soft_reservation', 'courier_pickup']);
  if (!token || !piece.active) return no('tokenNotUsed');
  const status = tokenStatusNow(token, now);
  if (status === 'expired') return no('tokenExpired');
  if (status === 'used' || status === 'cancelled') return no('tokenNotUsed');
  return yes;
}

export function cancelVerdict(piece: Piece, eventCodes: number[]): Verdict {
  if (wasDelivered(eventCodes)) return no('cancelDelivered');
  if (!piece.active) return no('notActive');
  return yes;
}

export function manualProcessingVerdict(piece: Piece, eventCodes: number[]): Verdict {
  if (!wasDelivered(eventCodes)) return no('manualBeforeDelivery');
  if (!piece.active) return no('notActive');
  return yes;
}

/** Extension by 24 or 48 hours, or forced expiry: only a delivered parcel waiting for its end user. */
export function expiryVerdict(piece: Piece, now: Date, kind: 'extend' | 'force'): Verdict {
  if (!piece.active) return no('notActive');
  if (!isInCompartment(piece) || piece.piece_type !== PieceType.Delivery || !piece.expiry_at)
    return no('notInCompartment');
  const left = new Date(piece.expiry_at).getTime() - now.getTime();
  const expired = isExpiredState(piece.state) || left <= 0;
  if (expired) return kind === 'force' ? no('alreadyExpired') : yes;
  if (expiryLocked(piece, now)) return no('expiryLocked');
  return yes;
}

/** The new expiry of an extension: from the current one, or from now when it has passed. */
export function extendedExpiry(piece: Piece, hours: number, now: Date) {
  const current = piece.expiry_at ? new Date(piece.expiry_at).getTime() : now.getTime();
  return new Date(Math.max(current, now.getTime()) + hours * HOUR_MS).toISOString();
}

export function moveVerdict(piece: Piece, freeElsewhere: number): Verdict {
  if (!piece.active) return no('notActive');
  if (!isInCompartment(piece)) return no('notInCompartment');
  if (freeElsewhere === 0) return no('noFreeCompartment');
  return yes;
}

/** The comment's own check: the message key of its field error, if any. */
export function commentError(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.replace(/\s/g, '').length < COMMENT_MIN_CHARACTERS) {
    return 'validation.min_non_space';
  }
  if (text.length > COMMENT_MAX_LENGTH) return 'validation.max_length';
  return undefined;
}
