import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { Notification as StoredNotification } from '../../src/types/generated/notification.ts';

/** A notification as the gateway answers it: every field of the rule filled in. */
type Notification = StoredNotification & Required<Pick<StoredNotification, 'recipient' | 'at' | 'text' | 'kind'>>;
import type { Piece } from '../../src/types/generated/piece.ts';
import { PieceEvent } from '../../src/types/generated/codes.ts';
import { DEMO_CASES } from '../../server/seed/piece-network.ts';
import {
  maskedRecipient,
  notificationsForEvent,
  reminderFor,
  sendDueReminders,
  type NotificationFacts,
} from '../../server/gateway/rules/integrations/notifications.ts';
import { applyEvent } from '../../server/gateway/rules/shared/piece-events.ts';
import { startStack, type Stack } from './support/stack.ts';
import { partnerIdOf, readRecord } from './support/seed-finders.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';

/** Issue 28.3: notifications made from piece events, read masked per caller, searched, and written by a resend. */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;
let support: SigningSession;
let maintenance: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;
const PATH = 'webtool/shipments/notifications';

beforeAll(async () => {
  stack = await startStack();
  [operator, carrier, carrier2, support, maintenance] = await Promise.all(
    ['operator', 'carrier', 'carrier2', 'support', 'maintenance'].map((user) => stack.signIn(user)),
  );
  fingerprint = await recordsFingerprint(stack.db);
}, 120_000);
afterAll(() => stack?.close());

const list = async (session: SigningSession, query: Record<string, string>) => {
  const answer = await stack.send(session, {
    method: 'GET',
    path: PATH,
    query: { offset: '0', limit: '100', ...query },
  });
  return { status: answer.status, body: answer.body, rows: (answer.body.data ?? []) as Notification[] };
};

const HOUR = 3600_000;
const base: Piece = {
  piece_id: 'RULE-PIECE-1',
  piece_barcode: 'JJD000RULE1',
  carrier_id: 1,
  service_point_id: 7,
  service_point_name: 'Netto Nørrebro',
  piece_type: 1,
  end_user_phone: '+45 20 30 40 50',
  end_user_email: 'ida.holm@example.test',
  expiry_days: 7,
  tokens: [],
  active: true,
} as Piece;
const facts = (
  overrides: Partial<NonNullable<NotificationFacts['carrier']>> = {},
  language = 'en',
): NotificationFacts => ({
  carrier: {
    name: 'NordPost',
    booking_notification_behaviour: 'email',
    own_end_user_app: false,
    reminder: true,
    ...overrides,
  },
  endUser: { language: language as 'en' | 'fr' },
  courier: { phone: '+45 60 70 80 90', language: 'fr' },
});

describe('the notification rule', () => {
  it('follows the booking notification behaviour, sends the token with its code, in the recipient’s language', () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const reserved = applyEvent(base, PieceEvent.HardReserved, { compartment_id: 1, hardware_id: 1 }, at).piece;
    const channels = (behaviour: 'email' | 'sms' | 'email_and_sms' | 'none') =>
      notificationsForEvent(
        reserved,
        PieceEvent.HardReserved,
        {},
        at,
        facts({ booking_notification_behaviour: behaviour }),
      )
        .map((made) => `${made.kind}:${made.channel}`)
        .sort();
    expect(channels('email')).toEqual(['booking_notification:email']);
    expect(channels('sms')).toEqual(['booking_notification:sms']);
    expect(channels('email_and_sms')).toEqual(['booking_notification:email', 'booking_notification:sms']);
    expect(channels('none')).toEqual([]);

    const delivered = applyEvent(reserved, PieceEvent.CourierDelivered, { compartment_id: 1, hardware_id: 1 }, at, 1);
    const code = delivered.piece.tokens!.at(-1)!.code!;
    const tokenMessages = notificationsForEvent(
      delivered.piece,
      PieceEvent.CourierDelivered,
      {},
      at,
      facts({ own_end_user_app: true }, 'fr'),
    );
    expect(tokenMessages.map((made) => made.channel).sort()).toEqual(['email', 'push', 'sms']);
    for (const made of tokenMessages) {
      expect(made).toMatchObject({ kind: 'token_message', audience: 'end_user', language: 'fr' });
      expect(made.text).toContain(code);
      expect(made.text).toContain('vous attend au point Netto Nørrebro');
      expect(made.text).toContain('JJD000RULE1');
    }
    expect(tokenMessages.find((made) => made.channel === 'sms')!.recipient_phone).toBe('+4520304050');
    // A `not_sent` pickup token sends nothing.
    const silent = applyEvent(reserved, PieceEvent.CourierDelivered, { notify: false }, at, 1).piece;
    expect(notificationsForEvent(silent, PieceEvent.CourierDelivered, {}, at, facts())).toEqual([]);

    // The expiry: the end user's notice (SMS first) and the courier's code in the courier's language.
    const expired = applyEvent(delivered.piece, PieceEvent.PieceExpired, {}, new Date(at.getTime() + 8 * 24 * HOUR), 2);
    const onExpiry = notificationsForEvent(expired.piece, PieceEvent.PieceExpired, {}, at, facts());
    expect(onExpiry.map((made) => `${made.audience}:${made.kind}:${made.channel}:${made.language}`)).toEqual([
      'end_user:expiry_notice:sms:en',
      'courier:courier_token:sms:fr',
    ]);
    expect(onExpiry[1].recipient).toBe('+45 60 70 80 90');
    // History-only events send nothing.
    expect(notificationsForEvent(delivered.piece, PieceEvent.PieceCommentAdded, {}, at, facts())).toEqual([]);
  });

  it('reminds 48 hours after delivery while the parcel waits, only when the carrier’s reminder is on', () => {
    const at = new Date('2026-11-20T10:00:00Z');
    const reserved = applyEvent(base, PieceEvent.HardReserved, { compartment_id: 1, hardware_id: 1 }, at).piece;
    const delivered = applyEvent(
      reserved,
      PieceEvent.CourierDelivered,
      { compartment_id: 1, hardware_id: 1 },
      at,
      1,
    ).piece;
    const due = reminderFor(delivered, at, new Date(at.getTime() + 49 * HOUR), facts());
    expect(due.map((made) => [made.kind, made.channel, made.at])).toEqual([
      ['reminder', 'sms', new Date(at.getTime() + 48 * HOUR).toISOString()],
    ]);
    expect(reminderFor(delivered, at, new Date(at.getTime() + 47 * HOUR), facts())).toEqual([]);
    expect(reminderFor(delivered, at, new Date(at.getTime() + 49 * HOUR), facts({ reminder: false }))).toEqual([]);
  });

  it('masks phones and addresses', () => {
    expect(maskedRecipient('+48 51 23 45 67')).toBe('+48 *** *** 567');
    expect(maskedRecipient('jan.kowalski@example.test')).toBe('j***@example.test');
  });
});

describe('seeded notifications (webtool/shipments/notifications)', () => {
  it('come from the seeded pieces’ events: the waiting demo piece’s token message carries its pickup code', async () => {
    const piece = (await readRecord<Piece>(stack.db, 'shipments', DEMO_CASES.waiting)).doc;
    const { rows, status } = await list(operator, { piece_id: DEMO_CASES.waiting });
    expect(status).toBe(200);
    const token = rows.filter((row) => row.kind === 'token_message');
    expect(token.length).toBeGreaterThan(0);
    const pickup = piece.tokens!.filter((candidate) => candidate.token_type === 'end_user_pickup').at(-1)!;
    for (const row of token) expect(row.text).toContain(pickup.code);
    expect(token.map((row) => row.recipient)).toContain(piece.end_user_phone);
    // Every seeded notification names a piece that exists, of its own carrier.
    const orphans = await stack.db.query(
      `SELECT n.key FROM records n LEFT JOIN records p ON p.resource = 'shipments' AND p.key = n.doc->>'piece_id'
       WHERE n.resource = 'shipments/notifications'
         AND (p.key IS NULL OR (p.doc->>'carrier_id') <> (n.doc->>'carrier_id')) LIMIT 1`,
    );
    expect(orphans.rows).toEqual([]);
    // Every kind, channel, status and both languages are in the demo.
    const spread = await stack.db.query<{ kind: string; channel: string; status: string; language: string }>(
      `SELECT DISTINCT doc->>'kind' AS kind, doc->>'channel' AS channel, doc->>'status' AS status, doc->>'language' AS language
       FROM records WHERE resource = 'shipments/notifications'`,
    );
    const seen = (field: 'kind' | 'channel' | 'status' | 'language') => new Set(spread.rows.map((row) => row[field]));
    expect([...seen('kind')].sort()).toEqual(
      ['booking_notification', 'courier_token', 'expiry_notice', 'reminder', 'token_message'].sort(),
    );
    expect([...seen('channel')].sort()).toEqual(['email', 'push', 'sms']);
    expect([...seen('status')]).toEqual(expect.arrayContaining(['delivered', 'failed']));
    expect([...seen('language')].sort()).toEqual(['en', 'fr']);
  });

  it('shows recipients to the operator and the carrier, masked to the support provider; each partner its own', async () => {
    const asCarrier = await list(carrier, { piece_id: DEMO_CASES.waiting });
    expect(asCarrier.rows.length).toBeGreaterThan(0);
    expect(asCarrier.rows.every((row) => !row.recipient.includes('***') && row.recipient_phone !== undefined)).toBe(
      true,
    );
    const asSupport = await list(support, { piece_id: DEMO_CASES.waiting });
    expect(asSupport.rows.length).toBe(asCarrier.rows.length);
    for (const row of asSupport.rows) {
      expect(row.recipient).toMatch(/\*\*\*/);
      expect(row.recipient_phone ?? null).toBeNull();
    }
    // The piece page's notifications are masked the same way.
    const detail = await stack.send(support, {
      method: 'GET',
      path: 'webtool/shipments',
      query: { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting },
    });
    const shown = (detail.body.data as { notifications: Notification[] }).notifications;
    expect(shown.length).toBe(asCarrier.rows.length);
    expect(shown.every((row) => row.recipient.includes('***'))).toBe(true);

    const carrierPage = await list(carrier, {});
    expect(carrierPage.rows.every((row) => row.carrier_id === 1)).toBe(true);
    const supportPage = await list(support, {});
    expect(supportPage.rows.length).toBeGreaterThan(0);
    expect(supportPage.rows.every((row) => row.support_provider_id === 1)).toBe(true);
    // Carrier 2 does not see carrier 1's piece's notifications, nor its piece page.
    expect((await list(carrier2, { piece_id: DEMO_CASES.waiting })).rows).toEqual([]);
    const foreign = await stack.send(carrier2, {
      method: 'GET',
      path: 'webtool/shipments',
      query: { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting },
    });
    expect(foreign.status).toBe(404);
    // A partner type without the feature is refused.
    expect((await list(maintenance, {})).status).toBe(403);
  });

  it('searches by phone (any spacing), kind, status and period', async () => {
    const sample = (await list(operator, { kind: 'token_message', channel: 'sms' })).rows[0];
    const digits = sample.recipient_phone!;
    const spaced = `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
    const byPhone = await list(operator, { phone: spaced });
    expect(byPhone.rows.length).toBeGreaterThan(0);
    expect(byPhone.rows.every((row) => row.recipient_phone === digits)).toBe(true);
    // Without the +, as the country code and number.
    expect((await list(operator, { phone: digits.slice(1) })).body.total).toBe(byPhone.body.total);
    // The support provider searches by the number it was told, and reads it masked.
    const supportByPhone = await list(support, { phone: spaced });
    expect(supportByPhone.rows.every((row) => row.recipient.includes('***'))).toBe(true);
    const malformed = await list(operator, { phone: '12ab' });
    expect(malformed.status).toBe(400);

    const reminders = await list(operator, { kind: 'reminder' });
    expect(reminders.rows.length).toBeGreaterThan(0);
    expect(reminders.rows.every((row) => row.kind === 'reminder')).toBe(true);
    const failed = await list(operator, { status: 'failed' });
    expect(failed.rows.every((row) => row.status === 'failed')).toBe(true);

    const day = sample.at.slice(0, 10);
    const ofDay = await list(operator, { from_date: day, to_date: day });
    expect(ofDay.rows.length).toBeGreaterThan(0);
    expect(ofDay.rows.every((row) => row.at.slice(0, 10) === day)).toBe(true);
    const reversed = await list(operator, { from_date: day, to_date: '2000-01-01' });
    expect(reversed.status).toBe(400);
  });

  it('is never written by a client: create, edit and delete are refused, nothing written', async () => {
    const before = await fingerprint();
    const some = (await list(operator, {})).rows[0];
    for (const [method, body] of [
      ['POST', { ...some, notification_id: undefined }],
      ['PATCH', { notification_id: some.notification_id, text: 'changed', version: 1 }],
      ['DELETE', { notification_id: some.notification_id, version: 1 }],
    ] as const) {
      const answer = await stack.send(operator, { method, path: PATH, body });
      expect(answer.status).toBe(403);
    }
    expect(await fingerprint()).toEqual(before);
  });

  it('a token resend writes what it sent: on the piece page and in the list', async () => {
    const before = (await list(carrier, { piece_id: DEMO_CASES.waiting, kind: 'token_resent' })).rows.length;
    const resent = await stack.send(carrier, {
      method: 'PATCH',
      path: 'webtool/shipments',
      body: { opname: 'resend_token', target: 'end_user', piece_id: DEMO_CASES.waiting },
    });
    expect(resent.status).toBe(200);
    const piece = resent.body.data as Piece;
    const code = piece.tokens!.filter((token) => token.token_type === 'end_user_pickup').at(-1)!.code!;
    const after = (await list(carrier, { piece_id: DEMO_CASES.waiting, kind: 'token_resent' })).rows;
    // SMS and e-mail to the contacts the end user has, and a push when the carrier has its own app.
    const ownCarrier = await readRecord(stack.db, 'partners/carrier', await partnerIdOf(stack.db, 'carrier'));
    const ownApp = Boolean(ownCarrier.doc.own_end_user_app);

    const contacts = [piece.end_user_phone, piece.end_user_email, ownApp && piece.end_user_phone].filter(Boolean);
    expect(after.length).toBe(before + contacts.length);
    expect(after.every((row) => row.text.includes(code) && row.status === 'sent')).toBe(true);
    const detail = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/shipments',
      query: { opname: 'get_piece_detail', piece_id: DEMO_CASES.waiting },
    });
    const shown = (detail.body.data as { notifications: Notification[] }).notifications;
    expect(shown.filter((row) => row.kind === 'token_resent').length).toBe(after.length);

    // A refused resend (another carrier's piece) sends nothing.
    const fingerprintBefore = await fingerprint();
    const refused = await stack.send(carrier2, {
      method: 'PATCH',
      path: 'webtool/shipments',
      body: { opname: 'resend_token', target: 'end_user', piece_id: DEMO_CASES.waiting },
    });
    expect(refused.status).toBe(404);
    expect(await fingerprint()).toEqual(fingerprintBefore);
  });

  it('the reminder job sends each waiting parcel’s reminder once, for carriers with reminders on', async () => {
    const later = new Date(Date.now() + 3 * 24 * HOUR);
    const first = await sendDueReminders(stack.db, later);
    expect(first).toBeGreaterThan(0);
    expect(await sendDueReminders(stack.db, later)).toBe(0);
    const duplicates = await stack.db.query(
      `SELECT doc->>'piece_id', doc->>'channel' FROM records
       WHERE resource = 'shipments/notifications' AND doc->>'kind' = 'reminder'
       GROUP BY 1, 2 HAVING count(*) > 1 LIMIT 1`,
    );
    expect(duplicates.rows).toEqual([]);
  });
});
