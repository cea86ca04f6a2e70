import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { Db } from '../../../db/adapter.ts';
import type { Carrier } from '../../../../src/types/generated/carrier.ts';
import type { Courier } from '../../../../src/types/generated/courier.ts';
import type { EndUser } from '../../../../src/types/generated/end-user.ts';
import type { Notification } from '../../../../src/types/generated/notification.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import { PieceEvent, PieceType } from '../../../../src/types/generated/codes.ts';
import { comparablePhone, searchablePhone } from '../../../../src/schema/phone-search.ts';
import type { CallerAccess } from '../../caller-access.ts';
import { badRequest, noPermission } from '../../http-error.ts';
import { parseListQuery } from '../../list-query.ts';
import { listRecords, searchText, type ListCondition, type ListQuery } from '../../record-store.ts';
import type { JobWork } from '../../background-jobs.ts';
import type { OpnameContext, ResourceRules } from '../../resource-rules.ts';
import { readableDoc, scopeFor } from '../../tenancy.ts';
import { asksForChange } from '../../resource-registry.ts';
import { readDoc, reserveIds } from '../shared/hardware-store.ts';
import { latestToken, type Token } from '../shared/piece-events.ts';
import { inStore, NOTIFICATIONS, PIECES } from '../shared/endpoints.ts';
import { CARRIERS, COURIERS, END_USERS } from '../shared/endpoints.ts';
export { NOTIFICATIONS } from '../shared/endpoints.ts';

/**
 * Notifications (issue 28.3, `/notifications`, feature notifications 228/229): what end users and couriers
 * were sent for a piece, records of resource `shipments/notifications` (schemas/notification.schema.json).
 *
 * THE RULE (`notificationsForEvent`, pure): a piece event makes the notifications its recipients get, each
 * in the recipient's language (the end user's or courier's `language`, English when unset):
 * - 101/102 on a delivery: the booking notification to the end user, by the channels of the carrier's
 *   booking notification behaviour (e-mail, SMS, both, none), to the contacts the end user has;
 * - 101/102 on an end user's drop-off: the token message with their drop-off code;
 * - 103 CourierDelivered: the token message with the pickup code (none for a `not_sent` token), by SMS and
 *   e-mail to the contacts the end user has, and as a push to the carrier's own end-user app when it has one;
 * - 402 PieceExpiryUpdated of an end user's resend (`details.resend`): the resent token message, as 103;
 * - 106/413 expired: the expiry notice to the end user (SMS, else e-mail) and the pickup code to the courier;
 * - 411 TokenSentToCourier, 1212 drop-off: the courier's token by SMS;
 * - a reminder (`reminderFor`) 48 hours after delivery while the parcel still waits, for carriers whose
 *   `reminder` setting is on: SMS (else e-mail) and push, as the token message.
 * `recordEvent` (piece-store.ts) runs it in the event's transaction, so every piece event of the gateway (a
 * booking, a troubleshooting action, a resend) writes what it sent; the seed runs it over the seeded pieces'
 * events (server/seed/notification-history.ts); the scheduled job `notification_reminders` sends the reminders
 * that fall due.
 *
 * Reading (`list`): the generic list, filtered by piece, kind, channel, status, period and `phone` (any
 * spacing, read in E.164), with the recipient masked for a partner that may not see end users' and
 * couriers' contact data: the operator company and the piece's carrier (whose customers they are) read them,
 * a support provider reads `+48 *** *** 567` and `j***@example.test`.
 */

const NOTIFICATION_SEARCH = { search: ['piece_id'] };
const HOUR_MS = 60 * 60 * 1000;

/** A reminder goes this long after the parcel arrived, while it still waits (carriers with `reminder` on). */
export const REMINDER_AFTER_HOURS = 48;
/** The scheduled job that sends the reminders falling due. */
export const REMINDER_JOB = 'notification_reminders';

export type NotificationKind = NonNullable<Notification['kind']>;
export type NotificationLanguage = NonNullable<Notification['language']>;
/** A notification the rule makes, before it has an id and a status. */
export type Draft = Required<
  Pick<
    Notification,
    'piece_id' | 'kind' | 'audience' | 'channel' | 'recipient' | 'recipient_phone' | 'language' | 'text' | 'at'
  >
> &
  Pick<Notification, 'piece_event_code'>;

/** What the rule reads besides the piece: its carrier's settings and its recipients. */
export interface NotificationFacts {
  carrier: Pick<Carrier, 'name' | 'booking_notification_behaviour' | 'own_end_user_app' | 'reminder'> | undefined;
  endUser: Pick<EndUser, 'language'> | undefined;
  courier: Pick<Courier, 'phone' | 'language'> | undefined;
}

type Texts = Record<NotificationKind, string>;

/** The locale file's messages; read from the working folder where the module is not a file (a browser test). */
function loadTexts(file: string): Texts {
  const url = new URL(`../../../../locales/${file}`, import.meta.url);
  const text = readFileSync(url.protocol === 'file:' ? url : path.resolve('locales', file), 'utf8');
  return (JSON.parse(text) as { notifications: { texts: Texts } }).notifications.texts;
}

let texts: Record<NotificationLanguage, Texts> | undefined;

/** The messages in each recipient language, from the locales (`notifications.texts.<kind>`), read on first use. */
function textsIn(language: NotificationLanguage): Texts {
  texts ??= { en: loadTexts('en-US.json'), fr: loadTexts('fr-FR.json') };
  return texts[language];
}
const DATE_LOCALE: Record<NotificationLanguage, string> = { en: 'en-GB', fr: 'fr-FR' };

export const languageOf = (value: unknown): NotificationLanguage => (value === 'fr' ? 'fr' : 'en');

function dayOf(iso: string | null | undefined, language: NotificationLanguage) {
  if (!iso) return '-';
  return new Intl.DateTimeFormat(DATE_LOCALE[language], { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
}

/** The message of one kind in one language, its `%{name}` places filled in. */
export function notificationText(
  kind: NotificationKind,
  language: NotificationLanguage,
  values: { carrier: string; piece: string; service_point: string; code?: string; until?: string | null },
) {
  const filled: Record<string, string> = {
    carrier: values.carrier,
    piece: values.piece,
    service_point: values.service_point,
    code: values.code ?? '-',
    until: dayOf(values.until, language),
  };
  return textsIn(language)[kind].replace(/%\{(\w+)\}/g, (_, name: string) => filled[name] ?? '');
}

const e164 = (phone: string | null | undefined) => (phone ? comparablePhone(phone) : null);

/** The end user's channels: SMS to a phone, e-mail to an address, as the piece names them. */
function endUserContacts(piece: Piece, wanted: ('sms' | 'email')[]) {
  return [
    ...(wanted.includes('sms') && piece.end_user_phone
      ? [{ channel: 'sms' as const, recipient: piece.end_user_phone, recipient_phone: e164(piece.end_user_phone) }]
      : []),
    ...(wanted.includes('email') && piece.end_user_email
      ? [{ channel: 'email' as const, recipient: piece.end_user_email, recipient_phone: null }]
      : []),
  ];
}

/** A push to the carrier's own end-user app, whose account is the end user's phone. */
function appPush(piece: Piece, facts: NotificationFacts) {
  return facts.carrier?.own_end_user_app && piece.end_user_phone
    ? [{ channel: 'push' as const, recipient: piece.end_user_phone, recipient_phone: e164(piece.end_user_phone) }]
    : [];
}

const BEHAVIOUR_CHANNELS: Record<string, ('sms' | 'email')[]> = {
  email: ['email'],
  sms: ['sms'],
  email_and_sms: ['sms', 'email'],
  none: [],
};

/** The first contact only: SMS when the end user has a phone, else e-mail. */
const firstContact = (piece: Piece) => endUserContacts(piece, piece.end_user_phone ? ['sms'] : ['email']);

function drafts(
  piece: Piece,
  facts: NotificationFacts,
  kind: NotificationKind,
  audience: 'end_user' | 'courier',
  contacts: { channel: Draft['channel']; recipient: string; recipient_phone: string | null }[],
  at: Date,
  code: number | null,
  token?: Token,
): Draft[] {
  const language = languageOf(audience === 'courier' ? facts.courier?.language : facts.endUser?.language);
  const text = notificationText(kind, language, {
    carrier: facts.carrier?.name ?? '',
    piece: piece.piece_barcode ?? piece.piece_id,
    service_point: piece.service_point_name ?? String(piece.service_point_id),
    code: token?.code,
    until: token?.valid_until,
  });
  return contacts.map((contact) => ({
    ...contact,
    piece_id: piece.piece_id,
    kind,
    audience,
    language,
    text,
    at: at.toISOString(),
    piece_event_code: code,
  }));
}

const courierContact = (facts: NotificationFacts) =>
  facts.courier?.phone
    ? [{ channel: 'sms' as const, recipient: facts.courier.phone, recipient_phone: e164(facts.courier.phone) }]
    : [];

/** The notifications one piece event makes; `piece` is the piece after the event (its new tokens). */
export function notificationsForEvent(
  piece: Piece,
  code: number,
  details: Record<string, unknown>,
  at: Date,
  facts: NotificationFacts,
): Draft[] {
  const endUserToken = (types: Token['token_type'][]) => latestToken(piece, types);
  switch (code) {
    case PieceEvent.HardReserved:
    case PieceEvent.SoftReserved: {
      if (piece.piece_type === PieceType.EndUserDropOff) {
        const token = endUserToken(['end_user_drop_off', 'end_user_soft_reservation']);
        const contacts = endUserContacts(piece, ['sms', 'email']);
        return token ? drafts(piece, facts, 'token_message', 'end_user', contacts, at, code, token) : [];
      }
      const channels = BEHAVIOUR_CHANNELS[facts.carrier?.booking_notification_behaviour ?? 'email'] ?? [];
      return drafts(piece, facts, 'booking_notification', 'end_user', endUserContacts(piece, channels), at, code);
    }
    case PieceEvent.CourierDelivered:
    case PieceEvent.PieceExpiryUpdated: {
      if (code === PieceEvent.PieceExpiryUpdated && details.resend !== 'end_user') return [];
      const token = endUserToken(['end_user_pickup', 'not_sent']);
      if (!token || token.token_type === 'not_sent') return [];
      const contacts = [...endUserContacts(piece, ['sms', 'email']), ...appPush(piece, facts)];
      const kind = code === PieceEvent.CourierDelivered ? 'token_message' : 'token_resent';
      return drafts(piece, facts, kind, 'end_user', contacts, at, code, token);
    }
    case PieceEvent.PieceExpired:
    case PieceEvent.ForcedExpired: {
      const courierToken = endUserToken(['courier_pickup']);
      return [
        ...drafts(piece, facts, 'expiry_notice', 'end_user', firstContact(piece), at, code),
        ...drafts(piece, facts, 'courier_token', 'courier', courierContact(facts), at, code, courierToken),
      ];
    }
    case PieceEvent.TokenSentToCourier:
    case PieceEvent.EndUserConnectedToHW: {
      if (code === PieceEvent.EndUserConnectedToHW && details.drop_off !== true) return [];
      const token = endUserToken(['courier_delivery', 'courier_soft_reservation', 'courier_pickup']);
      return drafts(piece, facts, 'courier_token', 'courier', courierContact(facts), at, code, token);
    }
    default:
      return [];
  }
}

/**
 * The reminder of a parcel delivered at `deliveredAt`, if it is due by `until` (now, or the time it left the
 * compartment): 48 hours after delivery, for a carrier whose `reminder` setting is on.
 */
export function reminderFor(piece: Piece, deliveredAt: Date, until: Date, facts: NotificationFacts): Draft[] {
  if (!facts.carrier?.reminder || piece.piece_type !== PieceType.Delivery) return [];
  const due = new Date(deliveredAt.getTime() + REMINDER_AFTER_HOURS * HOUR_MS);
  if (due >= until) return [];
  const token = latestToken(piece, ['end_user_pickup']);
  if (!token) return [];
  return drafts(
    piece,
    facts,
    'reminder',
    'end_user',
    [...firstContact(piece), ...appPush(piece, facts)],
    due,
    null,
    token,
  );
}

/** A notification record as stored, from its draft. */
export function notificationRecord(
  id: number,
  draft: Draft,
  piece: Pick<Piece, 'carrier_id' | 'support_provider_id'>,
  status: Notification['status'],
): Notification {
  return {
    notification_id: id,
    ...draft,
    status,
    carrier_id: piece.carrier_id,
    support_provider_id: piece.support_provider_id ?? null,
  };
}

/** The records rows of notifications, as the gateway and the seed write them. */
export function notificationRow(notification: Notification) {
  return {
    key: String(notification.notification_id),
    partnerType: 'carrier',
    partnerId: String(notification.carrier_id),
    doc: notification,
    search: searchText(NOTIFICATION_SEARCH, { ...notification }),
  };
}

/** The facts of the rule for one piece, read from the store. */
export async function notificationFacts(tx: Db, piece: Piece): Promise<NotificationFacts> {
  return {
    carrier: await readDoc<Carrier>(tx, CARRIERS, piece.carrier_id),
    endUser: piece.enduser_id ? await readDoc<EndUser>(tx, END_USERS, piece.enduser_id) : undefined,
    courier: piece.courier_id ? await readDoc<Courier>(tx, COURIERS, piece.courier_id) : undefined,
  };
}

/** Stores the drafts as sent (handed to their channel now); answers the records. */
export async function storeNotifications(tx: Db, piece: Piece, made: Draft[]) {
  if (!made.length) return [];
  const first = await reserveIds(tx, NOTIFICATIONS, made.length);
  const stored = made.map((draft, index) => notificationRecord(first + index, draft, piece, 'sent'));
  for (const notification of stored) {
    const row = notificationRow(notification);
    await tx.query(
      `INSERT INTO records (resource, key, partner_type, partner_id, doc, search, created_by, updated_by)
       VALUES ($1, $2, 'carrier', $3, $4, $5, 'notifications', 'notifications')`,
      [NOTIFICATIONS, row.key, row.partnerId, JSON.stringify(row.doc), row.search],
    );
  }
  return stored;
}

/** Called for every piece event, in its transaction (piece-store.ts `recordEvent`). */
export async function produceNotifications(
  tx: Db,
  piece: Piece,
  code: number,
  details: Record<string, unknown>,
  at: Date,
) {
  const facts = await notificationFacts(tx, piece);
  return storeNotifications(tx, piece, notificationsForEvent(piece, code, details, at, facts));
}

/** The reminders due by `now`: parcels waiting since 48 hours or more with no reminder yet. */
export async function sendDueReminders(db: Db, now: Date) {
  const due = await db.query<{ key: string; delivered: string }>(
    `SELECT p.key, max(e.at) AS delivered FROM records p
     JOIN piece_events e ON e.piece_id = p.key AND e.event_code = ${PieceEvent.CourierDelivered}
     WHERE ${inStore(PIECES, 'p')} AND p.doc->>'state' = '${PieceEvent.CourierDelivered}'
       AND coalesce((p.doc->>'active')::boolean, false)
       AND NOT EXISTS (SELECT 1 FROM records n WHERE ${inStore(NOTIFICATIONS, 'n')}
         AND n.doc->>'piece_id' = p.key AND n.doc->>'kind' = 'reminder')
     GROUP BY p.key HAVING max(e.at) <= $1`,
    [new Date(now.getTime() - REMINDER_AFTER_HOURS * HOUR_MS).toISOString()],
  );
  let sent = 0;
  for (const row of due.rows) {
    sent += await db.transaction(async (tx) => {
      const piece = await readDoc<Piece>(tx, 'shipments', row.key);
      if (!piece) return 0;
      const facts = await notificationFacts(tx, piece);
      return (await storeNotifications(tx, piece, reminderFor(piece, new Date(row.delivered), now, facts))).length;
    });
  }
  return sent;
}

export const reminderWork =
  (db: Db, now: () => Date = () => new Date()): JobWork =>
  async () => ({ sent: await sendDueReminders(db, now()) });

/** The operator company and the piece's carrier read recipients in full; other partners masked. */
export const seesContacts = (access: CallerAccess) => access.seesAll || access.partnerType === 'carrier';

/** `+48 51 23 45 67` as `+48 *** *** 567`; `jan.kowalski@example.test` as `j***@example.test`. */
export function maskedRecipient(recipient: string) {
  if (recipient.includes('@')) {
    const [name, domain] = recipient.split('@');
    return `${name.slice(0, 1)}***@${domain}`;
  }
  const digits = recipient.replace(/[^0-9]/g, '');
  const country = parsePhoneNumberFromString(comparablePhone(recipient))?.countryCallingCode;
  return `${country ? `+${country} ` : ''}*** *** ${digits.slice(-3)}`;
}

/** A notification as the caller may read it. */
export function asSeenBy<T extends Pick<Notification, 'recipient' | 'recipient_phone'>>(
  access: CallerAccess,
  notification: T,
): T {
  if (seesContacts(access)) return notification;
  return { ...notification, recipient: maskedRecipient(notification.recipient ?? ''), recipient_phone: null };
}

/** The `phone` filter: the number in E.164 (read in the piece's country when it has no +), or a 422. */
function phoneCondition(query: ListQuery): ListCondition[] {
  const typed = query.queryFilters?.phone;
  if (typed === undefined || typed === '') return [];
  const text = String(typed);
  const found = searchablePhone(text.startsWith('+') || text.startsWith('00') ? text : `+${text}`, 'PL');
  // Not a shape: a phone number is read by libphonenumber, not matched by a pattern.
  if (!found) throw badRequest('validation.invalid_phone');
  return [{ field: 'recipient_phone', op: 'in', value: [found] }];
}

async function list(ctx: OpnameContext, query: Record<string, string>) {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  const listQuery = parseListQuery(ctx.resource, query);
  if (scope !== 'all') listQuery.scope = scope;
  listQuery.conditions = [...(listQuery.conditions ?? []), ...phoneCondition(listQuery)];
  const { data, total } = await listRecords(ctx.db, ctx.resource, listQuery);
  return {
    success: true,
    data: data.map((doc) =>
      asSeenBy(ctx.access, readableDoc(ctx.access, ctx.resource, doc) as unknown as Notification),
    ),
    total,
  };
}

/** The notifications of one piece, oldest first, as the caller may read them (the piece page). */
export async function pieceNotifications(db: Db, access: CallerAccess, pieceId: string) {
  const found = await db.query<{ doc: Notification }>(
    `SELECT doc FROM records WHERE ${inStore(NOTIFICATIONS)} AND doc->>'piece_id' = $1
     ORDER BY doc->>'at', (key)::bigint LIMIT 500`,
    [pieceId],
  );
  return found.rows.map((row) => asSeenBy(access, row.doc));
}

export const notificationRules: ResourceRules = {
  // Notifications are the gateway's: made by the rule above from piece events, never by a client's write. A PATCH
  // that asks for nothing (its id and version only) changes nothing, as for any resource.
  async beforeWrite(ctx, _doc, existing) {
    if (existing && ctx.input !== undefined && !asksForChange(ctx.resource, ctx.input)) return existing.doc;
    throw noPermission();
  },
  async beforeDelete() {
    throw noPermission();
  },
  list,
};
