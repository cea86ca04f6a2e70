import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { SearchItem, SearchKind, SearchResponse } from '../../src/contract/search.ts';
import { loadResources, loadSchemas } from '../../server/gateway/resource-registry.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * Issue 31.1: `GET webtool/search`, one query over every kind of record the caller may list, scoped as
 * the lists are. Each partner type finds a record exactly when its list shows it, built from the seed's
 * records; bad input is refused with a translated message.
 */

type Doc = Record<string, unknown>;
let stack: Stack;
const sessions = new Map<string, SigningSession>();
const USERS = ['operator', 'carrier', 'carrier2', 'support', 'maintenance', 'hardware', 'locationowner', 'scout'];
const resources = loadResources(loadSchemas());

beforeAll(async () => {
  stack = await startStack();
  for (const user of USERS) sessions.set(user, await stack.signIn(user));
}, 240_000);
afterAll(() => stack?.close());

const as = (user: string) => sessions.get(user)!;

async function search(user: string, q: string, extra: Record<string, string> = {}) {
  return stack.send(as(user), { method: 'GET', path: 'webtool/search', query: { q, limit: '20', ...extra } });
}

async function found(user: string, q: string, extra?: Record<string, string>): Promise<SearchResponse> {
  const answer = await search(user, q, extra);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as SearchResponse;
}

const itemsOf = (answer: SearchResponse, kind: SearchKind): SearchItem[] =>
  answer.groups.find((group) => group.kind === kind)?.items ?? [];
const idsOf = (answer: SearchResponse, kind: SearchKind) => itemsOf(answer, kind).map((item) => String(item.id));

async function one(sql: string, params: unknown[] = []): Promise<Doc> {
  const { rows } = await stack.db.query<{ doc: Doc }>(sql, params);
  expect(rows.length, sql).toBeGreaterThan(0);
  return rows[0].doc;
}

describe('each kind is found', () => {
  it('pieces by barcode, by the start of their id and by a pickup code', async () => {
    const piece = await one(
      `SELECT doc FROM records WHERE resource = 'shipments' AND doc->>'piece_barcode' IS NOT NULL ORDER BY key LIMIT 1`,
    );
    const byBarcode = await found('operator', String(piece.piece_barcode));
    expect(itemsOf(byBarcode, 'pieces')[0]).toMatchObject({
      id: piece.piece_id,
      route: `/shipments/${encodeURIComponent(String(piece.piece_id))}`,
    });
    const prefix = String(piece.piece_id).slice(0, 5).toLowerCase();
    expect(idsOf(await found('operator', prefix), 'pieces')).toContain(piece.piece_id);

    const withToken = await one(
      `SELECT doc FROM records WHERE resource = 'shipments'
         AND doc->'tokens' @> '[{"token_type": "end_user_pickup"}]' ORDER BY key LIMIT 1`,
    );
    const code = (withToken.tokens as Doc[]).find((token) => token.token_type === 'end_user_pickup')!.code as string;
    const byCode = itemsOf(await found('operator', code), 'pieces');
    expect(byCode.find((item) => item.id === withToken.piece_id)?.fields).toMatchObject({ pickup_code: code });
  });

  it('end users by phone in national and international forms, and by e-mail', async () => {
    const user = await one(
      `SELECT doc FROM records WHERE resource = 'shipments/endusers' AND doc->>'phone' LIKE '+48 %'
         AND doc->>'email' IS NOT NULL ORDER BY key LIMIT 1`,
    );
    const phone = String(user.phone);
    const national = phone.replace(/^\+48\s*/, '');
    for (const typed of [phone, phone.replace(/\s/g, ''), national, national.replace(/\s/g, '-'), `0048${national}`]) {
      const items = itemsOf(await found('operator', typed), 'end_users');
      expect(
        items.map((item) => String(item.id)),
        typed,
      ).toContain(String(user.enduser_id));
      expect(items[0].route).toBe(`/end-users/${user.enduser_id}/1`);
    }
    // A Danish number in national form, with the tool's country Poland: read in each country of the network.
    const dane = await one(
      `SELECT doc FROM records WHERE resource = 'shipments/endusers' AND doc->>'phone' LIKE '+45 %' ORDER BY key LIMIT 1`,
    );
    const danish = String(dane.phone).replace(/^\+45\s*/, '');
    expect(idsOf(await found('operator', danish), 'end_users')).toContain(String(dane.enduser_id));
    const email = String(user.email).toUpperCase();
    expect(idsOf(await found('operator', email), 'end_users')).toContain(String(user.enduser_id));
  });

  it('service points by id, name, address and city', async () => {
    const point = await one(
      `SELECT doc FROM records WHERE resource = 'service_points' AND doc->>'address' <> '' ORDER BY key LIMIT 1`,
    );
    const id = String(point.service_point_id);
    for (const q of [id, String(point.name), String(point.address).slice(0, 8), String(point.city)]) {
      const answer = await found('operator', q, { limit: q === point.city ? '20' : '5' });
      if (q === point.city) {
        expect(itemsOf(answer, 'service_points').every((item) => item.fields.city === point.city)).toBe(true);
      } else {
        expect(idsOf(answer, 'service_points'), q).toContain(id);
      }
    }
    expect(itemsOf(await found('operator', id), 'service_points')[0]).toMatchObject({
      id: point.service_point_id,
      label: point.name,
      route: `/service-points/${id}`,
    });
  });

  it('hardware units and PIN pads by id or name, tickets by id, couriers by code', async () => {
    const unit = await one(
      `SELECT doc FROM records WHERE resource = 'service_points/hardware_units' ORDER BY key LIMIT 1`,
    );
    expect(idsOf(await found('operator', String(unit.hardware_id)), 'hardware_units')).toContain(
      String(unit.hardware_id),
    );
    expect(idsOf(await found('operator', String(unit.name)), 'hardware_units')).toContain(String(unit.hardware_id));
    const pad = await one(`SELECT doc FROM records WHERE resource = 'service_points/pinpad' ORDER BY key LIMIT 1`);
    expect(idsOf(await found('operator', String(pad.pinpad_id)), 'pinpads')).toContain(String(pad.pinpad_id));
    expect(idsOf(await found('operator', String(pad.ble_chip_id)), 'pinpads')).toContain(String(pad.pinpad_id));
    const ticket = await one(`SELECT doc FROM records WHERE resource = 'maintenance/tickets' ORDER BY key LIMIT 1`);
    expect(idsOf(await found('operator', `#${ticket.ticket_id}`), 'tickets')).toEqual([String(ticket.ticket_id)]);
    const courier = await one(`SELECT doc FROM records WHERE resource = 'couriers' ORDER BY key LIMIT 1`);
    expect(idsOf(await found('operator', String(courier.code)), 'couriers')).toContain(String(courier.courier_id));
  });

  it('carriers and partners by name, webtool users by name or e-mail', async () => {
    const carrier = await one(`SELECT doc FROM records WHERE resource = 'partners/carrier' ORDER BY key LIMIT 1`);
    const name = String(carrier.name);
    expect(idsOf(await found('operator', name.slice(1, 5)), 'carriers')).toContain(String(carrier.carrier_id));
    const owner = await one(`SELECT doc FROM records WHERE resource = 'partners/location_owner' ORDER BY key LIMIT 1`);
    const partners = itemsOf(await found('operator', String(owner.name)), 'partners');
    expect(partners.find((item) => item.id === owner.location_owner_id)?.fields).toMatchObject({
      partner_type: 'location_owner',
    });
    const byEmail = itemsOf(await found('operator', 'carrier2@demo.locker'), 'webtool_users');
    expect(byEmail.map((item) => item.id)).toEqual(['carrier2']);
    expect(byEmail[0].route).toBe('/webtool-users/carrier2');
  });
});

/** One sample record per owner of each tenancy field of a resource, and one of no owner. */
async function samples(endpoint: string): Promise<Doc[]> {
  const resource = resources.get(endpoint)!;
  const fields = [...new Set(Object.values(resource.tenancy).filter((field) => field !== '*'))];
  // A scout's own service points: those whose scout contact is one.
  if (resource.scoutEndpoint) fields.push('scout_email');
  const docs = new Map<string, Doc>();
  for (const field of fields) {
    const { rows } = await stack.db.query<{ key: string; doc: Doc }>(
      `SELECT DISTINCT ON (doc->>'${field}') key, doc FROM records WHERE resource = $1 ORDER BY doc->>'${field}', key LIMIT 4`,
      [endpoint],
    );
    for (const row of rows) docs.set(row.key, row.doc);
  }
  return [...docs.values()];
}

/** The ids of `ids` that the caller's own list shows (the list's 403 shows none). */
async function listed(user: string, endpoint: string, ids: string[]): Promise<Set<string> | undefined> {
  const resource = resources.get(endpoint)!;
  // A scout's list of service points is its own endpoint (`x-resource.scoutEndpoint`).
  const path = user === 'scout' && resource.scoutEndpoint ? resource.scoutEndpoint : endpoint;
  const answer = await stack.send(as(user), {
    method: 'GET',
    path: `webtool/${path}`,
    query: { ids: ids.join(',') },
  });
  if (answer.status === 403) return undefined;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return new Set((answer.body.data as Doc[]).map((doc) => String(doc[resource.id])));
}

const SCOPED: { kind: SearchKind; endpoint: string; query: (doc: Doc) => string; id: string }[] = [
  { kind: 'pieces', endpoint: 'shipments', query: (doc) => String(doc.piece_barcode ?? doc.piece_id), id: 'piece_id' },
  {
    kind: 'service_points',
    endpoint: 'service_points',
    query: (doc) => String(doc.service_point_id),
    id: 'service_point_id',
  },
  { kind: 'tickets', endpoint: 'maintenance/tickets', query: (doc) => String(doc.ticket_id), id: 'ticket_id' },
  {
    kind: 'hardware_units',
    endpoint: 'service_points/hardware_units',
    query: (doc) => String(doc.hardware_id),
    id: 'hardware_id',
  },
  { kind: 'couriers', endpoint: 'couriers', query: (doc) => String(doc.code), id: 'courier_id' },
];

describe('scoped as the lists are, for every partner type', () => {
  for (const user of USERS) {
    it(`${user} finds a record exactly when its list shows it`, async () => {
      let hidden = 0;
      for (const scoped of SCOPED) {
        const docs = await samples(scoped.endpoint);
        expect(docs.length, scoped.endpoint).toBeGreaterThan(0);
        const ids = docs.map((doc) => String(doc[scoped.id]));
        const listable = await listed(user, scoped.endpoint, ids);
        const shown = listable ?? new Set<string>();
        for (const doc of docs) {
          const id = String(doc[scoped.id]);
          const answer = await search(user, scoped.query(doc));
          if (answer.status === 403) {
            expect(shown.has(id), `${user} lists ${scoped.endpoint} ${id} but may not search`).toBe(false);
            continue;
          }
          const result = answer.body as unknown as SearchResponse;
          expect(idsOf(result, scoped.kind).includes(id), `${user}: ${scoped.kind} ${id}`).toBe(shown.has(id));
          if (!shown.has(id)) hidden += 1;
          // A kind whose list the caller may not read is not searched at all.
          expect(result.searched.includes(scoped.kind), `${user} searches ${scoped.kind}`).toBe(listable !== undefined);
        }
      }
      // Every partner but the operator company has records it may not see among the samples.
      if (user !== 'operator') expect(hidden, `${user} is refused some record`).toBeGreaterThan(0);
    });
  }

  it("a carrier never finds another carrier's parcel, its end user nor its courier", async () => {
    const other = await one(
      `SELECT doc FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = '2'
         AND doc->>'piece_barcode' IS NOT NULL AND doc->>'enduser_id' IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM records p WHERE p.resource = 'shipments'
           AND p.doc->>'enduser_id' = records.doc->>'enduser_id' AND p.doc->>'carrier_id' = '1')
       ORDER BY key LIMIT 1`,
    );
    const barcode = String(other.piece_barcode);
    expect(itemsOf(await found('carrier', barcode), 'pieces')).toEqual([]);
    expect(idsOf(await found('carrier2', barcode), 'pieces')).toContain(other.piece_id);
    const endUser = await one(`SELECT doc FROM records WHERE resource = 'shipments/endusers' AND key = $1`, [
      String(other.enduser_id),
    ]);
    if (endUser.phone) {
      expect(itemsOf(await found('carrier', String(endUser.phone)), 'end_users')).toEqual([]);
      expect(idsOf(await found('carrier2', String(endUser.phone)), 'end_users')).toContain(String(endUser.enduser_id));
    }
    const courier = await one(
      `SELECT doc FROM records WHERE resource = 'couriers' AND doc->>'carrier_id' = '2' LIMIT 1`,
    );
    expect(itemsOf(await found('carrier', String(courier.code)), 'couriers').map((item) => item.id)).not.toContain(
      courier.courier_id,
    );
    // Webtool users: a carrier finds its own, never another partner's.
    expect(itemsOf(await found('carrier', 'carrier2@demo'), 'webtool_users')).toEqual([]);
    expect(idsOf(await found('carrier', 'carrier@demo'), 'webtool_users')).toContain('carrier');
  });
});

describe('bad input', () => {
  it('refuses an empty and a too long query with a translated message', async () => {
    for (const q of ['', '   ']) {
      const answer = await search('operator', q);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ message_key: 'gateway.search_query_empty' });
    }
    const long = await search('operator', 'x'.repeat(500));
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      message_key: 'gateway.search_query_too_long',
      message: expect.stringContaining('200'),
    });
    expect((await search('operator', 'x'.repeat(200))).status).toBe(200);
    expect((await search('operator', 'abc', { limit: '500' })).status).toBe(400);
    const noQ = await stack.send(as('operator'), { method: 'GET', path: 'webtool/search' });
    expect(noQ.status).toBe(400);
  });

  it('takes SQL, LIKE and regex metacharacters literally', async () => {
    const point = await one(`SELECT doc FROM records WHERE resource = 'service_points' ORDER BY key LIMIT 1`);
    for (const q of [
      '%',
      '%%%',
      '_',
      '___',
      '\\',
      "'",
      "' OR 1=1 --",
      '.*',
      '[a-z]+',
      '%' + String(point.name).slice(1),
    ]) {
      const answer = await found('operator', q);
      expect(
        answer.groups.flatMap((group) => group.items),
        q,
      ).toEqual([]);
    }
  });

  it('refuses a caller whose role may list none of the kinds, with a translated message', async () => {
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{permissions}', '[]'::jsonb)
       WHERE resource = 'identity_access/roles' AND key = 'location_owner_1_admin'`,
    );
    const answer = await search('locationowner', 'Coop');
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ message_key: 'gateway.search_nothing_searchable' });
  });

  it('refuses a request without credentials', async () => {
    const response = await stack.app.inject({ method: 'GET', url: '/webtool/search?q=abc' });
    expect(response.statusCode).toBe(401);
  });
});
