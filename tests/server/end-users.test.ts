import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * Issue 16: end users (`webtool/shipments/endusers`, spec 02 §4, §7): searched by phone (read in the
 * request's country, PL by default) or e-mail, read with their pieces and events, marked for
 * deletion, within the pieces' tenancy.
 */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;
let support: SigningSession;
let locationOwner: SigningSession;

type Doc = Record<string, unknown>;
const PATH = 'webtool/shipments/endusers';

beforeAll(async () => {
  stack = await startStack();
  [operator, carrier, carrier2, support, locationOwner] = await Promise.all(
    ['operator', 'carrier', 'carrier2', 'support', 'locationowner'].map((user) => stack.signIn(user)),
  );
});
afterAll(() => stack?.close());

const search = (session: SigningSession, query: Record<string, string>) =>
  stack.send(session, { method: 'GET', path: PATH, query });
const userEvents = (session: SigningSession, enduserId: unknown) =>
  stack.send(session, {
    method: 'GET',
    path: PATH,
    query: { opname: 'get_user_events', enduser_id: String(enduserId) },
  });
const remove = (session: SigningSession, enduserId: unknown) =>
  stack.send(session, { method: 'DELETE', path: PATH, body: { enduser_id: enduserId } });

interface SeededEndUser {
  key: string;
  phone: string;
  email: string;
  mine: number;
  others: number;
  active: number;
}

/** Seeded end users (not marked) with how many pieces carrier 1 and the other carriers have, and how many wait. */
async function endUsers(where: string) {
  const found = await stack.db.query<SeededEndUser>(
    `SELECT * FROM (SELECT e.key, e.doc->>'phone' AS phone, e.doc->>'email' AS email,
       (SELECT count(*)::int FROM records p WHERE p.resource = 'shipments' AND p.doc->>'enduser_id' = e.key
          AND p.doc->>'carrier_id' = '1') AS mine,
       (SELECT count(*)::int FROM records p WHERE p.resource = 'shipments' AND p.doc->>'enduser_id' = e.key
          AND p.doc->>'carrier_id' <> '1') AS others,
       (SELECT count(*)::int FROM records p WHERE p.resource = 'shipments' AND p.doc->>'enduser_id' = e.key
          AND coalesce((p.doc->>'active')::boolean, false)) AS active
     FROM records e WHERE e.resource = 'shipments/endusers'
       AND NOT coalesce((e.doc->>'marked_for_deletion')::boolean, false)) counted
     WHERE ${where} ORDER BY (key)::int LIMIT 1`,
  );
  expect(found.rows.length, `a seeded end user with ${where}`).toBe(1);
  return found.rows[0];
}

const ids = (body: Doc) => (body.data as Doc[]).map((row) => String(row.enduser_id));

describe('search by phone or e-mail', () => {
  it('finds an end user by phone, typed with spaces, without its prefix when it is of the country', async () => {
    const user = await endUsers(`phone LIKE '+48 %'`);
    const national = user.phone.replace(/^\+48\s*/, '');
    for (const [value, country] of [
      [user.phone, 'PL'],
      [user.phone.replace(/\s/g, ''), 'DK'],
      [national, 'PL'],
    ]) {
      const found = await search(operator, { filter_type: 'phone', filter_value: value, country });
      expect(found.status).toBe(200);
      expect(ids(found.body)).toEqual([user.key]);
      expect(found.body.total).toBe(1);
    }
    // The same national digits read in another country are another number.
    const elsewhere = await search(operator, { filter_type: 'phone', filter_value: national, country: 'SE' });
    expect(ids(elsewhere.body)).not.toContain(user.key);
  });

  it('finds an end user by e-mail, whatever its case', async () => {
    const user = await endUsers('true');
    const found = await search(operator, { filter_type: 'email', filter_value: user.email.toUpperCase() });
    expect(found.status).toBe(200);
    expect(ids(found.body)).toEqual([user.key]);
    expect((found.body.data as Doc[])[0]).toMatchObject({ email: user.email, active_pieces: user.active });
  });

  it('refuses a malformed phone number with its translated message on the field', async () => {
    for (const value of ['12ab', '12', '+48 51a 345 678']) {
      const refused = await search(operator, { filter_type: 'phone', filter_value: value });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        message: 'Invalid phone number format',
        message_key: 'validation.invalid_phone',
        errors: { filter_value: { message: 'validation.invalid_phone' } },
      });
    }
  });

  it('refuses a search with neither phone nor e-mail, or of another kind', async () => {
    const empty = await search(operator, { filter_type: 'email', filter_value: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('filter_value is required.');
    const other = await search(operator, { filter_type: 'name', filter_value: 'Anna' });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      message: 'filter_type must be one of: phone, email.',
      message_key: 'gateway.one_of',
    });
    const noType = await search(operator, { filter_value: 'anna@example.test' });
    expect(noType.status).toBe(400);
  });
});

describe('tenancy', () => {
  it("shows a carrier only the end users of its own pieces, with its own pieces' events", async () => {
    const others = await endUsers('mine = 0 AND others > 0');
    const hidden = await search(carrier, { filter_type: 'email', filter_value: others.email });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ data: [], total: 0 });
    expect(ids((await search(operator, { filter_type: 'email', filter_value: others.email })).body)).toEqual([
      others.key,
    ]);
    const notMine = await userEvents(carrier, others.key);
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe('Record not found.');
    expect((await remove(carrier, others.key)).status).toBe(404);

    const shared = await endUsers('mine > 0 AND others > 0');
    const mine = await userEvents(carrier, shared.key);
    expect(mine.status).toBe(200);
    const pieces = mine.body.data as Doc[];
    expect(pieces.length).toBe(shared.mine);
    expect(pieces.every((piece) => piece.carrier_id === 1)).toBe(true);
    const all = await userEvents(operator, shared.key);
    expect((all.body.data as Doc[]).length).toBe(shared.mine + shared.others);
    const theirs = await userEvents(carrier2, shared.key);
    if (theirs.status === 200) expect((theirs.body.data as Doc[]).every((piece) => piece.carrier_id !== 1)).toBe(true);
    else expect(theirs.status).toBe(404);
  });

  it('shows a support provider the end users of the pieces at its service points; a location owner none', async () => {
    const found = await stack.db.query<{ enduser_id: string; n: number }>(
      `SELECT doc->>'enduser_id' AS enduser_id, count(*)::int AS n FROM records WHERE resource = 'shipments'
         AND doc->>'support_provider_id' = '1' AND doc->>'enduser_id' IS NOT NULL
       GROUP BY 1 ORDER BY 1 LIMIT 1`,
    );
    const { enduser_id: id, n } = found.rows[0];
    const events = await userEvents(support, id);
    expect(events.status).toBe(200);
    expect((events.body.data as Doc[]).length).toBe(n);
    expect((events.body.data as Doc[]).every((piece) => piece.support_provider_id === 1)).toBe(true);
    expect((await search(locationOwner, { filter_type: 'email', filter_value: 'a@example.test' })).status).toBe(403);
    expect((await userEvents(locationOwner, id)).status).toBe(403);
  });
});

describe('get_user_events', () => {
  it('answers the end user, each of their pieces with its events in order, and how many still wait', async () => {
    // An end user none of whose parcels was rated: a rating (1201) follows the pickup and leaves the piece's
    // state at the pickup (rules/piece-events.ts), so a rated piece's last event is not its state.
    const user = await endUsers(`active > 0 AND mine > 0 AND NOT EXISTS (SELECT 1 FROM records p
      JOIN piece_events ev ON ev.piece_id = p.doc->>'piece_id'
      WHERE p.resource = 'shipments' AND p.doc->>'enduser_id' = counted.key AND ev.event_code = 1201)`);
    const answer = await userEvents(operator, user.key);
    expect(answer.status).toBe(200);
    expect(answer.body.enduser).toMatchObject({ enduser_id: Number(user.key), active_pieces: user.active });
    const pieces = answer.body.data as (Doc & { events: { event_code: number; at: string }[] })[];
    expect(pieces.length).toBe(user.mine + user.others);
    for (const piece of pieces) {
      expect(piece.enduser_id).toBe(Number(user.key));
      expect(piece.events.length).toBeGreaterThan(0);
      const times = piece.events.map((event) => Date.parse(event.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // The piece's state is its last event.
      expect(piece.events[piece.events.length - 1].event_code).toBe(piece.state);
    }
    const missing = await userEvents(operator, 'abc');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('enduser_id is required.');
  });
});

describe('DELETE (mark for deletion)', () => {
  it('marks an end user with waiting shipments and says how many; deletes them when the last one is done', async () => {
    const user = await endUsers('active > 0 AND mine > 0 AND others = 0');
    const marked = await remove(carrier, Number(user.key));
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({
      success: true,
      deleted: false,
      marked_for_deletion: true,
      active_pieces: user.active,
    });
    const read = await search(carrier, { filter_type: 'email', filter_value: user.email });
    expect((read.body.data as Doc[])[0]).toMatchObject({ marked_for_deletion: true, active_pieces: user.active });
    // Marking again changes nothing and says the same.
    expect((await remove(carrier, Number(user.key))).body).toMatchObject({
      deleted: false,
      active_pieces: user.active,
    });

    // Their last shipments finish: the next read deletes the end user and their personal data on the pieces.
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"active": false}'::jsonb WHERE resource = 'shipments' AND doc->>'enduser_id' = $1`,
      [user.key],
    );
    const gone = await search(carrier, { filter_type: 'email', filter_value: user.email });
    expect(gone.body.data).toEqual([]);
    expect((await userEvents(operator, user.key)).status).toBe(404);
    const left = await stack.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM records WHERE resource = 'shipments'
         AND (doc->>'enduser_id' = $1 OR doc->>'end_user_email' = $2)`,
      [user.key, user.email],
    );
    expect(left.rows[0].n).toBe(0);
  });

  it('deletes an end user at once when none of their shipments waits', async () => {
    const user = await endUsers('active = 0 AND mine > 0');
    const deleted = await remove(carrier, Number(user.key));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, active_pieces: 0 });
    expect((await search(operator, { filter_type: 'email', filter_value: user.email })).body.data).toEqual([]);
    const audit = await stack.db.query<{ action: string; username: string }>(
      `SELECT action, username FROM audit_log WHERE resource = 'shipments/endusers' AND key = $1`,
      [user.key],
    );
    expect(audit.rows).toEqual([{ action: 'delete', username: 'carrier' }]);
  });

  it('refuses a deletion without an end user id', async () => {
    const refused = await stack.send(carrier, { method: 'DELETE', path: PATH, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('enduser_id is required.');
  });
});

describe('PATCH (end-user edit, spec 02 §5)', () => {
  const ALL_TICKED = ['name', 'recent_parcel', 'service_point'];
  const stored = async (key: string) =>
    (
      await stack.db.query<{ doc: Doc; version: number }>(
        `SELECT doc, version FROM records WHERE resource = 'shipments/endusers' AND key = $1`,
        [key],
      )
    ).rows[0];
  const auditCount = async () =>
    Number((await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log')).rows[0].n);
  const edit = (session: SigningSession, body: Doc) => stack.send(session, { method: 'PATCH', path: PATH, body });

  it('changes the phone or e-mail only with every security question ticked, and writes nothing else', async () => {
    const someone = await endUsers('mine > 0');
    const before = await stored(someone.key);
    const audits = await auditCount();
    for (const change of [{ phone: '+48 600 100 200' }, { email: 'new.address@example.test' }]) {
      const refused = await edit(carrier, {
        enduser_id: Number(someone.key),
        version: before.version,
        ...change,
        security_questions: ['name', 'recent_parcel'],
      });
      expect([refused.status, refused.body.message, refused.body.message_key]).toEqual([
        422,
        'Every security question must be ticked to change the phone or e-mail',
        'catalogue.end_user_security_questions',
      ]);
      expect(refused.body.errors).toEqual({
        security_questions: { message: 'catalogue.end_user_security_questions' },
      });
    }
    expect(await stored(someone.key)).toEqual(before);
    expect(await auditCount()).toBe(audits);

    // A name alone needs no question; the questions are never stored.
    const renamed = await edit(carrier, {
      enduser_id: Number(someone.key),
      version: before.version,
      name: 'Anna Berg',
    });
    expect(renamed.status).toBe(200);
    const changed = await edit(carrier, {
      enduser_id: Number(someone.key),
      version: (renamed.body.data as Doc).version,
      phone: '600 100 200',
      country: 'PL',
      security_questions: ALL_TICKED,
    });
    expect(changed.status).toBe(200);
    const after = (await stored(someone.key)).doc;
    expect(after).toMatchObject({ name: 'Anna Berg', phone: '+48 600 100 200' });
    expect(after.security_questions).toBeUndefined();
  });

  it('refuses a malformed phone and an end user the caller does not see', async () => {
    const someone = await endUsers('mine > 0');
    const before = await stored(someone.key);
    const malformed = await edit(operator, {
      enduser_id: Number(someone.key),
      version: before.version,
      phone: '12ab',
      security_questions: ALL_TICKED,
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual({ phone: { message: 'validation.invalid_phone' } });
    const others = await endUsers('mine = 0 AND others > 0');
    const hidden = await stored(others.key);
    const notMine = await edit(carrier, { enduser_id: Number(others.key), version: hidden.version, name: 'X' });
    expect(notMine.status).toBe(404);
    expect(await stored(others.key)).toEqual(hidden);
    expect((await edit(locationOwner, { enduser_id: Number(others.key), name: 'X' })).status).toBe(403);
  });
});
