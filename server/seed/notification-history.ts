import type { Carrier } from '../../src/types/generated/carrier.ts';
import type { Courier } from '../../src/types/generated/courier.ts';
import type { EndUser } from '../../src/types/generated/end-user.ts';
import type { Notification } from '../../src/types/generated/notification.ts';
import type { Piece } from '../../src/types/generated/piece.ts';
import { PieceEvent } from '../../src/types/generated/codes.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import {
  notificationRecord,
  notificationRow,
  notificationsForEvent,
  reminderFor,
  type Draft,
  type NotificationFacts,
} from '../gateway/rules/integrations/notifications.ts';
import { applyEvent } from '../gateway/rules/shared/piece-events.ts';
import type { EventRow } from './piece-network.ts';

const MINUTE_MS = 60_000;
/** Events that take the parcel out of its compartment: a reminder after one of them is not sent. */
const LEAVING: number[] = [
  PieceEvent.EnduserPickup,
  PieceEvent.CourierPickup,
  PieceEvent.ReturnPickup,
  PieceEvent.ExpiredPiecePickedUp,
  PieceEvent.ParcelProcessedManually,
  PieceEvent.PieceCollectedByOperator,
  PieceEvent.PieceExpired,
  PieceEvent.ForcedExpired,
  PieceEvent.PieceCancelled,
];

/**
 * How the channel answered, as its provider would report it: delivered, now and then failed (an unreachable
 * number or a full mailbox, about one in forty, by the notification's id), still only sent in the last minutes.
 */
function seededStatus(id: number, at: string, now: Date): Notification['status'] {
  if (now.getTime() - new Date(at).getTime() < 10 * MINUTE_MS) return 'sent';
  return Math.imul(id, 2654435761) >>> 0 < 0xffffffff / 40 ? 'failed' : 'delivered';
}

/**
 * The notifications of the seeded pieces (issue 28.5): each piece's events played again through the piece
 * model (the same tokens as the seed's, the same salt) and the gateway's notification rule run on each, with
 * the reminders the carrier's setting asks for. Only what has happened by `now` is kept.
 */
export function demoNotifications(
  carriers: { id: number; doc: Carrier }[],
  couriers: Courier[],
  endUsers: EndUser[],
  pieces: Piece[],
  events: EventRow[],
  now: Date,
): NewRecord[] {
  const carrierOf = new Map(carriers.map((carrier) => [carrier.id, carrier.doc]));
  const courierOf = new Map(couriers.map((courier) => [courier.courier_id, courier]));
  const endUserOf = new Map(endUsers.map((endUser) => [endUser.enduser_id, endUser]));
  const eventsOf = new Map<string, EventRow[]>();
  for (const event of events) eventsOf.set(event.piece_id, [...(eventsOf.get(event.piece_id) ?? []), event]);
  const made: { draft: Draft; piece: Piece }[] = [];
  for (const final of pieces) {
    const facts: NotificationFacts = {
      carrier: carrierOf.get(final.carrier_id),
      endUser: final.enduser_id ? endUserOf.get(final.enduser_id) : undefined,
      courier: final.courier_id ? courierOf.get(final.courier_id) : undefined,
    };
    let piece: Piece = { ...final, tokens: [], active: true, expiry_at: null, reserved_until: null };
    const played = (eventsOf.get(final.piece_id) ?? []).filter((event) => new Date(event.at) <= now);
    played.forEach((event, index) => {
      const at = new Date(event.at);
      piece = applyEvent(piece, event.event_code, event.details, at, index).piece;
      for (const draft of notificationsForEvent(piece, event.event_code, event.details, at, facts)) {
        made.push({ draft, piece });
      }
      if (event.event_code === PieceEvent.CourierDelivered) {
        const left = played.slice(index + 1).find((next) => LEAVING.includes(next.event_code));
        for (const draft of reminderFor(piece, at, left ? new Date(left.at) : now, facts)) {
          made.push({ draft, piece });
        }
      }
    });
  }
  made.sort((a, b) => a.draft.at.localeCompare(b.draft.at));
  return made.map(({ draft, piece }, index) => {
    const id = index + 1;
    const row = notificationRow(notificationRecord(id, draft, piece, seededStatus(id, draft.at, now)));
    return { key: row.key, partnerType: row.partnerType, partnerId: row.partnerId, doc: { ...row.doc } };
  });
}
