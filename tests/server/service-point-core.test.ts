import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let analyst: SigningSession;
let scout: SigningSession;
/** An address of the address index, picked as the form's type-ahead does: a new service point needs one. */
let picked: Record<string, unknown>;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, analyst, scout } = await signInAll(stack, ['operator', 'analyst', 'scout']));
  const found = await stack.send(operator, {
    method: 'GET',
    path: 'webtool/service_points',
    query: { opname: 'address', text: 'Storgata 1 Bergen', boundary: 'NO' },
  });
  const [address] = found.body.data as Record<string, unknown>[];
  picked = {
    address: address.address,
    address_id: address.address_id,
    zip: address.postal_code,
    city: address.city,
    latitude: address.latitude,
    longitude: address.longitude,
  };
  // A copy of the seeded database and three sign-ins: minutes on a busy machine, not the 60 s default.
}, 240_000);
afterAll(() => stack.close());

const SCOUT_EMAIL = 'scout@demo.locker.test';

type Row = { doc: Record<string, unknown>; version: number; key: string };

async function stored(where: string, params: unknown[] = []): Promise<Row[]> {
  return (
    await stack.db.query<Row>(
      `SELECT key, doc, version FROM records WHERE resource = 'service_points' AND ${where}`,
      params,
    )
  ).rows;
}

async function one(key: string): Promise<Row> {
  return (await stored('key = $1', [key]))[0];
}

async function count() {
  return Number(
    (await stack.db.query<{ n: string }>(`SELECT count(*) AS n FROM records WHERE resource = 'service_points'`)).rows[0]
      .n,
  );
}

const newServicePoint = (overrides: Record<string, unknown> = {}) => ({
  name: 'Kiosk Bergen Torget',
  country: 'NO',
  status: 1,
  municipality: 'Bergen',
  ...picked,
  max_hardware_units: 2,
  ...overrides,
});

const send = (
  session: SigningSession,
  method: 'POST' | 'PATCH' | 'GET' | 'DELETE',
  body: object,
  path = 'service_points',
) =>
  method === 'GET'
    ? stack.send(session, { method, path: `webtool/${path}`, query: body as Record<string, string> })
    : stack.send(session, { method, path: `webtool/${path}`, body });

let plainTaken = 0;

/** A service point no other test used, that holds nothing that would block a test of another rule. */
async function plainServicePoint(): Promise<Row> {
  const [row] = await stored(
    `NOT coalesce((doc->>'parked')::boolean, false) AND NOT coalesce((doc->>'test_sp')::boolean, false)
     AND NOT coalesce((doc->>'is_terminated')::boolean, false) AND doc->>'status' = '3'
     AND key NOT IN (SELECT doc->>'service_point_id' FROM records
                     WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' IS NOT NULL)
     ORDER BY key::int OFFSET $1 LIMIT 1`,
    [plainTaken],
  );
  plainTaken += 1;
  return row;
}

describe('creating a service point (POST webtool/service_points)', () => {
  it('creates one for the operator, New by default, with its derived fields', async () => {
    const before = await count();
    const { status: _status, ...withoutStatus } = newServicePoint();
    const created = await send(operator, 'POST', withoutStatus);
    expect(created.status).toBe(201);
    const data = created.body.data as Record<string, unknown>;
    expect(data).toMatchObject({ name: 'Kiosk Bergen Torget', status: 1, delivery_methods: [1], incomplete: true });
    expect(await count()).toBe(before + 1);
  });

  it.each([
    ['a name with a leading space', { name: ' Kiosk Bergen' }, 'name', 'validation.name_characters'],
    ['a name with a forbidden character', { name: 'Kiosk #1' }, 'name', 'validation.name_characters'],
    ['a zip of 3 characters', { zip: '501' }, 'zip', 'validation.min_length'],
    ['no delivery method', { delivery_methods: [] }, 'delivery_methods', 'validation.min_items'],
    ['max units 0', { max_hardware_units: 0 }, 'max_hardware_units', 'validation.min'],
    ['max units 8', { max_hardware_units: 8 }, 'max_hardware_units', 'validation.max'],
    ['no municipality (municipality required)', { municipality: undefined }, 'municipality', 'validation.required'],
    ['a test service point created live', { test_sp: true, status: 7 }, 'status', 'catalogue.test_sp_never_live'],
  ])('refuses %s on the field, writing nothing', async (_case, overrides, field, message) => {
    const before = await count();
    const refused = await send(operator, 'POST', newServicePoint(overrides));
    expect(refused.status).toBe(422);
    expect((refused.body.errors as Record<string, { message: string }>)[field].message).toBe(message);
    expect(await count()).toBe(before);
  });
});

describe('service point limits on edit', () => {
  it('refuses max hardware units below the units already added, and takes it at that number', async () => {
    const [equipped] = await stored(
      `key IN (SELECT doc->>'service_point_id' FROM records WHERE resource = 'service_points/hardware_units'
               GROUP BY 1 HAVING count(*) >= 2)
       AND NOT coalesce((doc->>'parked')::boolean, false) AND NOT coalesce((doc->>'test_sp')::boolean, false)
       ORDER BY key::int LIMIT 1`,
    );
    const units = Number(
      (
        await stack.db.query<{ n: string }>(
          `SELECT count(*) AS n FROM records WHERE resource = 'service_points/hardware_units'
           AND doc->>'service_point_id' = $1`,
          [equipped.key],
        )
      ).rows[0].n,
    );
    const below = await send(operator, 'PATCH', {
      service_point_id: equipped.doc.service_point_id,
      version: equipped.version,
      max_hardware_units: units - 1,
    });
    expect(below.status).toBe(422);
    expect(below.body.errors).toEqual({
      max_hardware_units: { message: 'validation.below_unit_count', args: { count: units } },
    });
    expect((await one(equipped.key)).version).toBe(equipped.version);
    const atCount = await send(operator, 'PATCH', {
      service_point_id: equipped.doc.service_point_id,
      version: equipped.version,
      max_hardware_units: units,
    });
    expect(atCount.status).toBe(200);
  });

  it('never lets a test service point become live: status Active or active on', async () => {
    const plain = await plainServicePoint();
    const made = await send(operator, 'PATCH', {
      opname: 'set_test_sp',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
    });
    expect(made.status).toBe(200);
    const test = await one(plain.key);
    expect(test.doc.test_sp).toBe(true);
    for (const change of [{ status: 7 }, { active: true }]) {
      const live = await send(operator, 'PATCH', {
        service_point_id: test.doc.service_point_id,
        version: test.version,
        ...change,
      });
      expect(live.status).toBe(422);
      expect(live.body.message).toBe('A test service point can never become live');
      expect(live.body.message_key).toBe('catalogue.test_sp_never_live');
    }
    expect((await one(plain.key)).version).toBe(test.version);
  });
});

describe('Terminated and Archived only through their own paths (issue 33)', () => {
  it('refuses status 9 or 0 in a PATCH body, from the operator and from a partner, writing nothing', async () => {
    const plain = await plainServicePoint();
    const carrier = await stack.signIn('carrier');
    for (const status of [9, 0]) {
      const refused = await send(operator, 'PATCH', {
        service_point_id: plain.doc.service_point_id,
        version: plain.version,
        status,
      });
      expect([refused.status, refused.body.message, refused.body.message_key]).toEqual([
        422,
        'Terminated and Archived are set by their own actions, not by the status',
        'catalogue.service_point_status_reserved',
      ]);
      expect(refused.body.errors).toEqual({ status: { message: 'catalogue.service_point_status_reserved' } });
      const partner = await send(carrier, 'PATCH', {
        service_point_id: plain.doc.service_point_id,
        version: plain.version,
        status,
      });
      expect(partner.status).toBe(403);
      expect(await one(plain.key)).toEqual(plain);
    }
    const created = await send(operator, 'POST', newServicePoint({ name: 'Kiosk Archived', status: 0 }));
    expect(created.body.message_key).toBe('catalogue.service_point_status_reserved');
  });

  it('takes status 9 with the termination flag only through the termination check', async () => {
    const [equipped] = await stored(
      `key IN (SELECT doc->>'service_point_id' FROM records WHERE resource = 'service_points/hardware_units')
       AND NOT coalesce((doc->>'is_terminated')::boolean, false) AND NOT coalesce((doc->>'parked')::boolean, false)
       LIMIT 1`,
    );
    const blocked = await send(operator, 'PATCH', {
      service_point_id: equipped.doc.service_point_id,
      version: equipped.version,
      status: 9,
      is_terminated: true,
    });
    expect([blocked.status, blocked.body.message]).toEqual([
      422,
      'Service point contains active shipments or installed hardware',
    ]);
    expect(await one(equipped.key)).toEqual(equipped);
  });
});

describe('the search helper (spec 02 §7, issue 33)', () => {
  it('filters by has_hardware and basic_sp_search, 20 a page, and names the point’s hardware unit', async () => {
    const page = await send(operator, 'GET', { has_hardware: 'true', basic_sp_search: 'true', limit: '20' });
    expect(page.status).toBe(200);
    const found = page.body.data as Record<string, unknown>[];
    expect(found.length).toBe(20);
    for (const point of found) {
      expect(point.has_hardware).toBe(true);
      expect(point.is_terminated).toBe(false);
      expect([0, 9]).not.toContain(point.status);
      const units = await stack.db.query<{ id: number }>(
        `SELECT (doc->>'hardware_id')::int AS id FROM records WHERE resource = 'service_points/hardware_units'
           AND doc->>'service_point_id' = $1 AND NOT (coalesce(doc->'badges_v2', '[]'::jsonb) ? 'is_terminated')`,
        [String(point.service_point_id)],
      );
      expect(point.service_point_hardware_unit_id).toBe(Math.min(...units.rows.map((row) => row.id)));
    }
    const bare = await send(operator, 'GET', { has_hardware: 'false', limit: '5' });
    expect((bare.body.data as Record<string, unknown>[]).every((point) => point.has_hardware === false)).toBe(true);
    const terminated = await send(operator, 'GET', { is_terminated: 'true', basic_sp_search: 'true' });
    expect(terminated.body).toMatchObject({ data: [], total: 0 });
  });
});

describe('the public description in several languages (issue 33)', () => {
  const LANGUAGE_OF: Record<string, string> = { DK: 'da', NO: 'nb', SE: 'sv', PL: 'pl', FI: 'fi' };

  it('refuses a list without the country’s language, then keeps the description as that translation', async () => {
    const plain = await plainServicePoint();
    const country = String(plain.doc.country);
    const language = LANGUAGE_OF[country];
    const english = { text: 'At the main entrance', language_code: 'en', country };
    const refused = await send(operator, 'PATCH', {
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      descriptions: [english],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ descriptions: { message: 'validation.default_description' } });
    expect(await one(plain.key)).toEqual(plain);

    const own = { text: 'Ved hovedinngangen', language_code: language, country };
    const saved = await send(operator, 'PATCH', {
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      descriptions: [english, own],
    });
    expect(saved.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({
      descriptions: [english, own],
      description: 'Ved hovedinngangen',
      description_language: language,
    });

    // A description given alone (the import, an older client) becomes its language's translation.
    const alone = await send(operator, 'PATCH', {
      service_point_id: plain.doc.service_point_id,
      version: (saved.body.data as { version: number }).version,
      description: 'Til venstre for kassene',
    });
    expect(alone.status).toBe(200);
    expect((await one(plain.key)).doc.descriptions).toEqual([
      { text: 'Til venstre for kassene', language_code: language, country },
      english,
    ]);
  });
});

describe('the dialogs of the edit page (PATCH opnames)', () => {
  it('terminates only a service point without installed hardware, for good', async () => {
    const [equipped] = await stored(
      `key IN (SELECT doc->>'service_point_id' FROM records WHERE resource = 'service_points/hardware_units')
       AND NOT coalesce((doc->>'is_terminated')::boolean, false) LIMIT 1`,
    );
    const blocked = await send(operator, 'PATCH', {
      opname: 'terminate',
      service_point_id: equipped.doc.service_point_id,
      version: equipped.version,
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body.message).toBe('Service point contains active shipments or installed hardware');
    expect((await one(equipped.key)).doc.is_terminated).toBe(false);

    const plain = await plainServicePoint();
    const done = await send(operator, 'PATCH', {
      opname: 'terminate',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
    });
    expect(done.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({ is_terminated: true, status: 9, active: false });
  });

  it('refuses a scout contact that is neither an e-mail nor a user_id, writing nothing', async () => {
    const plain = await plainServicePoint();
    const refused = await send(operator, 'PATCH', {
      opname: 'set_scout_contact',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      scout_contact: 'not a scout',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ scout_contact: { message: 'validation.scout_format' } });
    expect(await one(plain.key)).toEqual(plain);
  });

  it('names a scout by e-mail or by user_id, whose e-mail then scopes the scout’s list', async () => {
    const plain = await plainServicePoint();
    const userIds = Object.fromEntries(
      (
        await stack.db.query<{ username: string; user_id: number }>('SELECT username, user_id FROM identity_users')
      ).rows.map((row) => [row.username, row.user_id]),
    );
    const setContact = (session: SigningSession, scout_contact: string, version: number) =>
      send(session, 'PATCH', {
        opname: 'set_scout_contact',
        service_point_id: plain.doc.service_point_id,
        version,
        scout_contact,
      });
    // Not a scout of the operator's provider: an unknown e-mail, a user who is no scout, an unknown id,
    // a super admin (only a super admin may name one).
    for (const contact of [
      'Ola.Scout@Demo.Locker.Test',
      'operator@demo.locker.test',
      String(userIds.operator),
      '999999',
      'superadmin@demo.locker.test',
      String(userIds.superadmin),
    ]) {
      const refused = await setContact(operator, contact, plain.version);
      expect(refused.status, contact).toBe(422);
      expect(refused.body.errors).toEqual({ scout_contact: { message: 'validation.not_a_scout' } });
    }
    expect(await one(plain.key)).toEqual(plain);

    const byId = await setContact(operator, String(userIds.scout), plain.version);
    expect(byId.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({
      scout_contact: String(userIds.scout),
      scout_email: SCOUT_EMAIL,
    });
    const mine = await send(
      scout,
      'GET',
      { service_point_id: String(plain.doc.service_point_id) },
      'service_points/scouts',
    );
    expect((mine.body.data as unknown[]).length).toBe(1);

    const byEmail = await setContact(operator, 'Scout@Demo.Locker.Test', plain.version + 1);
    expect(byEmail.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({
      scout_contact: 'Scout@Demo.Locker.Test',
      scout_email: SCOUT_EMAIL,
    });
    const superAdmin = await stack.signIn('superadmin');
    const bySuperAdmin = await setContact(superAdmin, String(userIds.superadmin), plain.version + 2);
    expect(bySuperAdmin.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({ scout_email: 'superadmin@demo.locker.test' });
  });

  it('looks scouts up: the provider’s scout users, and for a super admin the super admin users too', async () => {
    const lookup = async (session: SigningSession) =>
      (await stack.send(session, { method: 'GET', path: 'webtool/lists', query: { type: 'scout' } })).body.data as {
        column_id: number;
        column_name: string;
        email: string;
      }[];
    const scoutId = (
      await stack.db.query<{ user_id: number }>(`SELECT user_id FROM identity_users WHERE username = 'scout'`)
    ).rows[0].user_id;
    expect(await lookup(operator)).toEqual([
      { column_id: scoutId, column_name: `scout (${SCOUT_EMAIL})`, email: SCOUT_EMAIL },
    ]);
    const forSuperAdmin = await lookup(await stack.signIn('superadmin'));
    expect(forSuperAdmin.map((item) => item.email).sort()).toEqual([SCOUT_EMAIL, 'superadmin@demo.locker.test']);
    expect(await lookup(await stack.signIn('carrier'))).toEqual([]);
  });

  it('sets the location owner and the group, whose name the service point then carries', async () => {
    const plain = await plainServicePoint();
    const unknownOwner = await send(operator, 'PATCH', {
      opname: 'set_location_owner',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      location_owner_id: 99999,
    });
    expect(unknownOwner.status).toBe(422);
    expect(unknownOwner.body.errors).toEqual({ location_owner_id: { message: 'validation.unknown_reference' } });
    const missingGroup = await send(operator, 'PATCH', {
      opname: 'set_service_point_group',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
    });
    expect(missingGroup.status).toBe(422);
    expect(missingGroup.body.errors).toEqual({ service_point_group_id: { message: 'validation.required' } });

    const [group] = (
      await stack.db.query<{ doc: { service_point_group_id: number; group_name: string } }>(
        `SELECT doc FROM records WHERE resource = 'service_points/service_point_groups' ORDER BY key::int LIMIT 1`,
      )
    ).rows;
    const grouped = await send(operator, 'PATCH', {
      opname: 'set_service_point_group',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      service_point_group_id: group.doc.service_point_group_id,
    });
    expect(grouped.status).toBe(200);
    expect((await one(plain.key)).doc).toMatchObject({
      service_point_group_id: group.doc.service_point_group_id,
      group_name: group.doc.group_name,
    });
  });

  it('refuses a stale version of a dialog with 409', async () => {
    const plain = await plainServicePoint();
    const stale = await send(operator, 'PATCH', {
      opname: 'set_location_owner',
      service_point_id: plain.doc.service_point_id,
      version: plain.version - 1,
      location_owner_id: 1,
    });
    expect(stale.status).toBe(409);
  });
});

describe('feature options (spec 01 §6)', () => {
  it('ignores region, sub-region and delivery methods from a caller whose options hide them', async () => {
    const plain = await plainServicePoint();
    const crafted = await send(analyst, 'PATCH', {
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      region_id: 4,
      sub_region_id: 9,
      delivery_methods: [2, 3],
      tag1: 'analyst',
    });
    expect(crafted.status).toBe(200);
    const after = (await one(plain.key)).doc;
    expect(after.tag1).toBe('analyst');
    expect(after.region_id).toBe(plain.doc.region_id);
    expect(after.sub_region_id).toBe(plain.doc.sub_region_id);
    expect(after.delivery_methods).toEqual(plain.doc.delivery_methods);
  });

  it('takes them from the operator, whose options show them', async () => {
    const plain = await plainServicePoint();
    const changed = await send(operator, 'PATCH', {
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
      delivery_methods: [2, 3],
    });
    expect(changed.status).toBe(200);
    expect((await one(plain.key)).doc.delivery_methods).toEqual([2, 3]);
  });

  it('requires a municipality of the operator only (municipality_required off for the analyst)', async () => {
    const { municipality: _municipality, ...withoutMunicipality } = newServicePoint({ name: 'Kiosk Analyst Made' });
    const byAnalyst = await send(analyst, 'POST', withoutMunicipality);
    expect(byAnalyst.status).toBe(201);
    const byOperator = await send(operator, 'POST', { ...withoutMunicipality, name: 'Kiosk Operator Made' });
    expect(byOperator.status).toBe(422);
    expect(byOperator.body.errors).toEqual({ municipality: { message: 'validation.required' } });
  });

  it('offers the test service point dialog only with the test shipment option', async () => {
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{permissions}', (
         SELECT jsonb_agg(CASE WHEN (p->>'feature_id')::int IN (187, 188, 240)
           THEN jsonb_set(p, '{configurations}', (SELECT coalesce(jsonb_agg(c), '[]') FROM jsonb_array_elements(p->'configurations') c
                                                  WHERE c->>'type' <> 'test_shipment'))
           ELSE p END) FROM jsonb_array_elements(doc->'permissions') p))
       WHERE resource = 'identity_access/roles' AND key = 'operator_infinity_analyst'`,
    );
    const plain = await plainServicePoint();
    const refused = await send(analyst, 'PATCH', {
      opname: 'set_test_sp',
      service_point_id: plain.doc.service_point_id,
      version: plain.version,
    });
    expect(refused.status).toBe(403);
    expect((await one(plain.key)).doc.test_sp).toBe(false);
  });
});

describe('the scout level (service_points/scouts)', () => {
  it('refuses the plain endpoint to a scout, and the scout path to everyone else', async () => {
    expect((await send(scout, 'GET', { offset: '0', limit: '15' })).status).toBe(403);
    expect((await send(operator, 'GET', { offset: '0', limit: '15' }, 'service_points/scouts')).status).toBe(403);
  });

  it("lists only the scout's own proposals", async () => {
    const page = await send(scout, 'GET', { offset: '0', limit: '50' }, 'service_points/scouts');
    expect(page.status).toBe(200);
    const rows = page.body.data as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((row) => row.scout_email === SCOUT_EMAIL)).toBe(true);
    const someoneElses = await stored(`coalesce(doc->>'scout_email', '') <> $1 LIMIT 1`, [SCOUT_EMAIL]);
    const hidden = await send(
      scout,
      'GET',
      { offset: '0', limit: '1', service_point_id: someoneElses[0].key },
      'service_points/scouts',
    );
    expect(hidden.body.data).toEqual([]);
  });

  it('creates a proposal New, with the scout as scout contact, whatever status was sent', async () => {
    const created = await send(
      scout,
      'POST',
      newServicePoint({ name: 'Scouted Kiosk Stavanger', status: 2, max_hardware_units: undefined }),
      'service_points/scouts',
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 1, scout_contact: SCOUT_EMAIL, scout_email: SCOUT_EMAIL });
  });

  it('refuses a field outside the location ones, a status beyond Qualified, and opnames', async () => {
    const [own] = await stored(`doc->>'scout_email' = $1 AND doc->>'status' IN ('1', '2') ORDER BY key::int LIMIT 1`, [
      SCOUT_EMAIL,
    ]);
    const base = { service_point_id: own.doc.service_point_id, version: own.version };
    const tag = await send(scout, 'PATCH', { ...base, max_hardware_units: 5 }, 'service_points/scouts');
    expect(tag.status).toBe(422);
    expect(tag.body.errors).toEqual({ max_hardware_units: { message: 'catalogue.scout_field_locked' } });
    const approved = await send(scout, 'PATCH', { ...base, status: 3 }, 'service_points/scouts');
    expect(approved.status).toBe(422);
    expect(approved.body.errors).toEqual({ status: { message: 'catalogue.scout_status' } });
    const terminate = await send(scout, 'PATCH', { ...base, opname: 'terminate' }, 'service_points/scouts');
    expect(terminate.status).toBe(403);
    const removal = await send(scout, 'DELETE', base, 'service_points/scouts');
    expect(removal.status).toBe(403);
    expect((await one(own.key)).version).toBe(own.version);

    const qualified = await send(
      scout,
      'PATCH',
      { ...base, status: 2, location_name: 'Behind the station' },
      'service_points/scouts',
    );
    expect(qualified.status).toBe(200);
    expect((await one(own.key)).doc).toMatchObject({ status: 2, location_name: 'Behind the station' });
  });

  it("refuses a change to the scout's own service point once it is past Qualified", async () => {
    const [own] = await stored(`doc->>'scout_email' = $1 ORDER BY key::int LIMIT 1`, [SCOUT_EMAIL]);
    const approved = await send(operator, 'PATCH', {
      service_point_id: own.doc.service_point_id,
      version: own.version,
      status: 3,
    });
    expect(approved.status).toBe(200);
    const locked = await one(own.key);
    const refused = await send(
      scout,
      'PATCH',
      { service_point_id: own.doc.service_point_id, version: locked.version, location_name: 'Too late' },
      'service_points/scouts',
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('A scout changes a service point only while it is New or Qualified');
  });
});
