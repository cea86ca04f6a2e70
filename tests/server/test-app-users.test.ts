import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;
const PATH = 'webtool/testappusers';

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
  fingerprint = await recordsFingerprint(stack.db);
}, 120_000);
afterAll(() => stack?.close());

const create = (body: Record<string, unknown>) => stack.send(operator, { method: 'POST', path: PATH, body });

async function pieceDoc(pieceId: string) {
  const found = await stack.db.query<{ doc: Record<string, unknown> }>(
    `SELECT doc FROM records WHERE resource = 'shipments' AND key = $1`,
    [pieceId],
  );
  return found.rows[0]?.doc;
}

describe('infinity test app users (webtool/testappusers)', () => {
  it('lists the seeded ones, creates, edits and deletes one', async () => {
    const listed = await stack.send(operator, { method: 'GET', path: PATH, query: { offset: '0', limit: '20' } });
    expect(listed.status).toBe(200);
    expect((listed.body.data as { name: string }[]).map((user) => user.name)).toContain('QA phone Copenhagen');

    const created = await create({ name: 'QA tablet Aarhus', phone: '+45 20 00 00 55', carrier_id: 1 });
    expect(created.status).toBe(201);
    const user = created.body.data as { test_app_user_id: number; version: number; phone: string; test_pieces: number };
    expect(user).toMatchObject({ phone: '+45 20 00 00 55', test_pieces: 0, active: true });

    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: PATH,
      body: { test_app_user_id: user.test_app_user_id, version: user.version, email: 'QA.Aarhus@Example.com' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ email: 'qa.aarhus@example.com', phone: '+45 20 00 00 55' });

    const removed = await stack.send(operator, {
      method: 'DELETE',
      path: PATH,
      body: { test_app_user_id: user.test_app_user_id, version: (edited.body.data as { version: number }).version },
    });
    expect(removed.status).toBe(200);
  });

  it('refuses an account without phone or e-mail, a taken phone or e-mail and a malformed phone, writing nothing', async () => {
    const before = await fingerprint();
    const none = await create({ name: 'No contact', phone: '', email: null });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ errors: { phone: { message: 'validation.test_app_user_contact' } } });
    // The seeded '+45 20 00 00 01', typed another way.
    const takenPhone = await create({ name: 'Copy of Copenhagen', phone: '+4520000001' });
    expect(takenPhone.status).toBe(422);
    expect(takenPhone.body).toMatchObject({ errors: { phone: { message: 'validation.test_app_user_taken' } } });
    const takenEmail = await create({ name: 'Copy of release', email: 'RELEASE.CHECK@infinity.demo.locker.test' });
    expect(takenEmail.body).toMatchObject({ errors: { email: { message: 'validation.test_app_user_taken' } } });
    const malformed = await create({ name: 'Bad phone', phone: '12ab' });
    expect(malformed.body).toMatchObject({ errors: { phone: { message: 'validation.invalid_phone' } } });
    expect(await fingerprint()).toEqual(before);
  });

  it('is the operator company’s: a carrier is refused', async () => {
    expect((await stack.send(carrier, { method: 'GET', path: PATH, query: {} })).status).toBe(403);
    const before = await fingerprint();
    expect(
      (await stack.send(carrier, { method: 'POST', path: PATH, body: { name: 'Sneaky', phone: '+4520000077' } }))
        .status,
    ).toBe(403);
    expect(await fingerprint()).toEqual(before);
  });

  it('marks a piece booked for an active test app user as a test shipment, and counts it', async () => {
    const open = await stack.db.query<{ key: string }>(
      `SELECT s.key FROM records s WHERE s.resource = 'service_points' AND (s.doc->>'status')::int = 7
         AND s.doc->'carriers_access' @> '[1]' AND NOT coalesce((s.doc->>'parked')::boolean, false)
         AND NOT coalesce((s.doc->>'test_sp')::boolean, false)
         AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(s.doc->'carrier_settings', '[]')) c
                         WHERE (c->>'carrier_id')::int = 1 AND (c->>'first_mile' = 'false' OR c->>'last_mile' = 'false'))
         AND (SELECT count(*) FROM records c JOIN records u ON u.resource = 'service_points/hardware_units'
                AND u.key = c.doc->>'hardware_id' AND u.doc->>'service_point_id' = s.key
              WHERE c.resource = 'compartments' AND (c.doc->>'is_free')::boolean AND c.doc->>'size' = 'large') >= 2
       ORDER BY (s.key)::int LIMIT 1`,
    );
    const book = (pieceId: string, phone: string) =>
      stack.send(carrier, {
        method: 'POST',
        path: 'webtool/booking',
        body: {
          piece_id: pieceId,
          service_point_id: Number(open.rows[0].key),
          allocation_type: 1,
          reservation: 'hard',
          piece_type: 1,
          height: 40,
          width: 40,
          depth: 50,
          expiry_days: 5,
          phone_country: 'DK',
          recipient_name: 'QA',
          recipient_phone: phone,
        },
      });
    expect((await book('TESTAPPUSER01', '+45 20 00 00 01')).status).toBe(201);
    expect(await pieceDoc('TESTAPPUSER01')).toMatchObject({ test_piece: true });
    // The inactive one and anyone else: a live shipment.
    expect((await book('TESTAPPUSER02', '+45 20 00 00 09')).status).toBe(201);
    expect(await pieceDoc('TESTAPPUSER02')).toMatchObject({ test_piece: false });
    const counted = await stack.db.query<{ n: number }>(
      `SELECT (doc->>'test_pieces')::int AS n FROM records WHERE resource = 'testappusers' AND doc->>'name' = 'QA phone Copenhagen'`,
    );
    expect(counted.rows[0].n).toBe(1);
  });
});
