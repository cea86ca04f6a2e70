import type { Piece } from '../../../../src/types/generated/piece.ts';
import { PieceEvent, PieceType } from '../../../../src/types/generated/codes.ts';

/**
 * The event model of a piece (spec 02 §4), pure: what one event does to a piece's derived state,
 * tokens, `active` flag, expiry and compartment. `piece-store.ts` stores the event and applies this.
 *
 * Flows (piece type 1, delivery to an end user; type 3, an end user's drop-off or return):
 * - 101 HardReserved: a compartment is reserved (`details.compartment_id`, `hardware_id`); the courier
 *   gets a courier delivery token (type 3: the end user a drop-off token) valid `reservation_time` hours.
 *   102 SoftReserved: capacity is held without a compartment: a courier (type 3: end user) soft
 *   reservation token. 206/207 end a reservation nobody used: its token expires, the piece is done.
 * - 103 CourierDelivered (type 1): the parcel is in a compartment; the courier's token is used; the
 *   end user gets a pickup token valid until `expiry_at` = delivery + `expiry_days` (a `not_sent`
 *   token when `details.notify` is false). 1212 EndUserConnectedToHW with `details.drop_off` (type 3):
 *   the end user dropped the parcel; the courier gets a pickup token valid 7 days.
 * - 201 EnduserPickup, 202 CourierPickup, 203 ReturnPickup, 204 ExpiredPiecePickedUp,
 *   205 ParcelProcessedManually, 446 PieceCollectedByOperator: the compartment is empty again, the
 *   piece is done; the token that opened it is used, the others cancelled.
 * - 106 PieceExpired, 413 ForcedExpired: the pickup token expires, the courier gets a pickup token
 *   (7 days) to take the parcel back; the parcel still waits (active).
 * - 402 PieceExpiryUpdated `details.expiry_at`: the new expiry; an expired piece waits again for its
 *   end user (state back to 103, pickup token available, courier pickup token cancelled).
 * - 411 TokenSentToCourier `details.valid_until`: the courier's current token is issued again.
 * - 110 PieceCancelled: every open token is cancelled, the reservation released, the piece done.
 * - 445 PieceMoveToOtherHW `details.compartment_id`, `hardware_id`: the parcel is in another compartment.
 * - 408, 410, 437, 438, 439, 443, 444, 1201 (and 1212 without `drop_off`) are history only.
 */

export { PieceEvent };

export type PieceEventCode = (typeof PieceEvent)[keyof typeof PieceEvent];
export const PIECE_EVENT_CODES = Object.values(PieceEvent) as PieceEventCode[];

export type Token = NonNullable<Piece['tokens']>[number];
export type TokenType = Token['token_type'];

/** Hours a courier's token lasts when the parcel is to be taken back (spec 02 §4: 7 days). */
export const COURIER_TOKEN_HOURS = 7 * 24;
const HOUR_MS = 60 * 60 * 1000;

/** What an event does to the compartments: the piece leaves one, takes one, or reserves one. */
export interface CompartmentChange {
  release?: number;
  occupy?: number;
  reserve?: number;
}

export interface AppliedEvent {
  piece: Piece;
  compartments: CompartmentChange;
}

const COURIER_TOKENS: TokenType[] = ['courier_delivery', 'courier_soft_reservation', 'courier_pickup'];
const END_USER_PICKUP: TokenType[] = ['end_user_pickup', 'not_sent'];
const EXPIRED_STATES: number[] = [PieceEvent.PieceExpired, PieceEvent.ForcedExpired];

/** A token code as the locker keypad takes it: six digits, from the piece and the moment. */
export function tokenCode(pieceId: string, at: Date, salt = 0) {
  let hash = 2166136261 ^ salt;
  for (const char of `${pieceId}|${at.getTime()}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return String((hash >>> 0) % 1000000).padStart(6, '0');
}

const isOpen = (token: Token) => token.status === 'available' || token.status === 'expiry_pending';

function closeTokens(tokens: Token[], used: TokenType[]): Token[] {
  return tokens.map((token) =>
    isOpen(token) ? { ...token, status: used.includes(token.token_type) ? 'used' : 'cancelled' } : token,
  );
}

function newToken(pieceId: string, type: TokenType, at: Date, validUntil: Date | null, salt = 0): Token {
  return {
    token_type: type,
    status: 'available',
    code: tokenCode(pieceId, at, salt),
    valid_until: validUntil ? validUntil.toISOString() : null,
  };
}

const plusHours = (at: Date, hours: number) => new Date(at.getTime() + hours * HOUR_MS);

/** The newest token of one of the types, if any. */
export function latestToken(piece: Pick<Piece, 'tokens'>, types: TokenType[]) {
  return [...(piece.tokens ?? [])].reverse().find((token) => types.includes(token.token_type));
}

/** A token as a user sees it now: an open one past its time reads Expired, one within 24 h Expiry pending. */
export function tokenStatusNow(token: Token, now: Date): Token['status'] {
  if (!isOpen(token) || !token.valid_until) return token.status;
  const left = new Date(token.valid_until).getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left <= 24 * HOUR_MS ? 'expiry_pending' : 'available';
}

export const isExpiredState = (state: number | undefined) => state !== undefined && EXPIRED_STATES.includes(state);
/** The parcel is physically in a compartment. */
export const isInCompartment = (piece: Pick<Piece, 'state' | 'active'>) =>
  piece.active === true &&
  (piece.state === PieceEvent.CourierDelivered ||
    piece.state === PieceEvent.EndUserConnectedToHW ||
    isExpiredState(piece.state));

/** The piece after one event at `at`. Throws for a code outside spec 02 §4. */
export function applyEvent(
  piece: Piece,
  code: number,
  details: Record<string, unknown>,
  at: Date,
  salt = 0,
): AppliedEvent {
  if (!PIECE_EVENT_CODES.includes(code as PieceEventCode)) throw new Error(`Unknown piece event ${code}`);
  const tokens = [...(piece.tokens ?? [])];
  const compartmentId = typeof details.compartment_id === 'number' ? details.compartment_id : undefined;
  const hardwareId = typeof details.hardware_id === 'number' ? details.hardware_id : undefined;
  const done = (
    next: Partial<Piece>,
    used: TokenType[],
    compartments: CompartmentChange = {},
    expired: TokenType[] = [],
  ): AppliedEvent => ({
    piece: {
      ...piece,
      ...next,
      tokens: closeTokens(
        tokens.map((token) =>
          isOpen(token) && expired.includes(token.token_type) ? { ...token, status: 'expired' } : token,
        ),
        used,
      ),
      state: code as Piece['state'],
      active: false,
    },
    compartments,
  });
  const returning = piece.piece_type === PieceType.EndUserDropOff;
  switch (code) {
    case PieceEvent.HardReserved: {
      const until = plusHours(at, piece.reservation_time ?? 24);
      const compartment = compartmentId ?? piece.compartment_id ?? null;
      return {
        piece: {
          ...piece,
          reservation: 'hard',
          hardware_id: hardwareId ?? piece.hardware_id ?? null,
          compartment_id: compartment,
          reserved_until: until.toISOString(),
          tokens: [
            ...tokens,
            newToken(piece.piece_id, returning ? 'end_user_drop_off' : 'courier_delivery', at, until, salt),
          ],
          state: code,
          active: true,
        },
        compartments: compartment ? { reserve: compartment } : {},
      };
    }
    case PieceEvent.SoftReserved: {
      const until = plusHours(at, piece.reservation_time ?? 24);
      const type = returning ? 'end_user_soft_reservation' : 'courier_soft_reservation';
      return {
        piece: {
          ...piece,
          reservation: 'soft',
          reserved_until: until.toISOString(),
          tokens: [...tokens, newToken(piece.piece_id, type, at, until, salt)],
          state: code,
          active: true,
        },
        compartments: {},
      };
    }
    case PieceEvent.CourierDelivered:
    case PieceEvent.EndUserConnectedToHW: {
      if (code === PieceEvent.EndUserConnectedToHW && details.drop_off !== true) return { piece, compartments: {} };
      const compartment = compartmentId ?? piece.compartment_id ?? null;
      const previous = piece.compartment_id;
      const opened = closeTokens(tokens, [
        'courier_delivery',
        'courier_soft_reservation',
        'end_user_drop_off',
        'end_user_soft_reservation',
      ]);
      const delivery = code === PieceEvent.CourierDelivered;
      const expiry = delivery ? plusHours(at, 24 * (piece.expiry_days ?? 7)) : null;
      const next = delivery
        ? newToken(piece.piece_id, details.notify === false ? 'not_sent' : 'end_user_pickup', at, expiry, salt + 1)
        : newToken(piece.piece_id, 'courier_pickup', at, plusHours(at, COURIER_TOKEN_HOURS), salt + 1);
      return {
        piece: {
          ...piece,
          hardware_id: hardwareId ?? piece.hardware_id ?? null,
          compartment_id: compartment,
          reserved_until: null,
          expiry_at: expiry ? expiry.toISOString() : (piece.expiry_at ?? null),
          tokens: [...opened, next],
          state: code,
          active: true,
        },
        compartments: {
          ...(previous && previous !== compartment ? { release: previous } : {}),
          ...(compartment ? { occupy: compartment } : {}),
        },
      };
    }
    case PieceEvent.PieceExpired:
    case PieceEvent.ForcedExpired: {
      const expired = tokens.map((token) =>
        isOpen(token) && END_USER_PICKUP.includes(token.token_type) ? { ...token, status: 'expired' as const } : token,
      );
      return {
        piece: {
          ...piece,
          expiry_at: code === PieceEvent.ForcedExpired ? at.toISOString() : (piece.expiry_at ?? at.toISOString()),
          tokens: [
            ...expired,
            newToken(piece.piece_id, 'courier_pickup', at, plusHours(at, COURIER_TOKEN_HOURS), salt + 2),
          ],
          state: code,
          active: true,
        },
        compartments: {},
      };
    }
    case PieceEvent.EnduserPickup:
      return done({}, END_USER_PICKUP, piece.compartment_id ? { release: piece.compartment_id } : {});
    case PieceEvent.CourierPickup:
    case PieceEvent.ReturnPickup:
    case PieceEvent.ExpiredPiecePickedUp:
      return done({}, ['courier_pickup'], piece.compartment_id ? { release: piece.compartment_id } : {});
    case PieceEvent.ParcelProcessedManually:
    case PieceEvent.PieceCollectedByOperator:
      return done({}, [], piece.compartment_id ? { release: piece.compartment_id } : {});
    case PieceEvent.PieceCancelled:
      return done({ reserved_until: null }, [], piece.compartment_id ? { release: piece.compartment_id } : {});
    case PieceEvent.HardReservationExpired:
    case PieceEvent.SoftReservationExpired:
      return done({ reserved_until: null }, [], piece.compartment_id ? { release: piece.compartment_id } : {}, [
        'courier_delivery',
        'courier_soft_reservation',
        'end_user_drop_off',
        'end_user_soft_reservation',
      ]);
    case PieceEvent.PieceExpiryUpdated: {
      const expiry = String(details.expiry_at);
      const wasExpired = isExpiredState(piece.state);
      const pickup = latestToken(piece, END_USER_PICKUP);
      const updated = tokens.map((token) => {
        if (token === pickup) return { ...token, status: 'available' as const, valid_until: expiry };
        if (wasExpired && isOpen(token) && token.token_type === 'courier_pickup') {
          return { ...token, status: 'cancelled' as const };
        }
        return token;
      });
      return {
        piece: {
          ...piece,
          expiry_at: expiry,
          tokens: updated,
          state: wasExpired ? PieceEvent.CourierDelivered : piece.state,
        },
        compartments: {},
      };
    }
    case PieceEvent.TokenSentToCourier: {
      const current = latestToken(piece, COURIER_TOKENS);
      const validUntil = typeof details.valid_until === 'string' ? new Date(details.valid_until) : null;
      const type = current?.token_type ?? 'courier_pickup';
      const reissued = tokens.map((token) => (token === current ? { ...token, status: 'cancelled' as const } : token));
      return {
        piece: { ...piece, tokens: [...reissued, newToken(piece.piece_id, type, at, validUntil, salt + 3)] },
        compartments: {},
      };
    }
    case PieceEvent.PieceMoveToOtherHW: {
      const previous = piece.compartment_id;
      return {
        piece: { ...piece, hardware_id: hardwareId ?? piece.hardware_id, compartment_id: compartmentId ?? null },
        compartments: {
          ...(previous ? { release: previous } : {}),
          ...(compartmentId ? { occupy: compartmentId } : {}),
        },
      };
    }
    default:
      return { piece, compartments: {} };
  }
}
