import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from './support/cognito-client.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { findRecord, readRecord } from './support/seed-finders.ts';

/**
 * The partner setups (issue 26, spec 02 §5, §6, §7, §8): `webtool/partners/{partner_type}` for location
 * owners, hardware owners, maintenance, support and hotline providers; each rule broken once (the
 * catalogue's message, nothing written); a partner page's administrator through the identity stand-in.
 */

type Doc = Record<string, unknown>;
let stack: Stack;
let operator: SigningSession;
let locationOwner: SigningSession;
let hardware: SigningSession;
let support: SigningSession;
let carrier: SigningSession;
let fingerprint: () => Promise<{ records: string; audit: string }>;

beforeAll(async () => {
  stack = await startStack();
  fingerprint = await recordsFingerprint(stack.db);
  ({
    operator,
    locationowner: locationOwner,
    hardware,
    support,
    carrier,
  } = await signInAll(stack, ['operator', 'locationowner', 'hardware', 'support', 'carrier']));
});
afterAll(() => stack?.close());

const list = (session: SigningSession, type: string, query: Record<string, string> = {}) =>
  stack.send(session, {
    method: 'GET',
    path: `webtool/partners/${type}`,
    query: { offset: '0', limit: '300', ...query },
  });
const rows = (answer: { body: Doc }) => answer.body.data as Doc[];
const send = (session: SigningSession, method: 'POST' | 'PATCH' | 'DELETE', type: string, body: Doc) =>
  stack.send(session, { method, path: `webtool/partners/${type}`, body });

const basics = {
  organization_number: 'SE 556677-8899',
  contact_person: 'Test Person',
  phone: '+46 70 123 45 67',
  email: 'owner@example.com',
  address: 'Testgatan 1',
  zip: '11122',
  city: 'Stockholm',
  country_code: 'SE',
};

/** Sends `request` and checks that it was refused with the message and wrote nothing. */
async function refused(request: () => Promise<{ status: number; body: Doc }>, status: number, message: string) {
  const snapshot = await fingerprint();
  const { status: got, body } = await request();
  expect(got, JSON.stringify(body)).toBe(status);
  expect(body.message ?? body).toBe(message);
  expect(await fingerprint()).toEqual(snapshot);
  return body;
}

describe('partner setups', () => {
  it('lists each partner type by name with the spec page size, and the lookup names them', async () => {
    for (const type of [
      'location_owner',
      'hardware_provider',
      'maintenance_provider',
      'support_provider',
      'hotline_provider',
    ]) {
      const answer = await list(operator, type);
      expect(answer.status, type).toBe(200);
      const names = rows(answer).map((row) => String(row.name));
      expect(names.length, type).toBeGreaterThan(1);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(rows(answer)[0]).toMatchObject({
        organization_number: expect.any(String),
        country_code: expect.any(String),
      });
    }
    const lookup = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/lists',
      query: { type: 'hotline_providers' },
    });
    expect((lookup.body.data as Doc[]).map((item) => item.column_name)).toContain('Paczkofon');
  });

  it('shows a partner only its own record and refuses other partner types (403)', async () => {
    const own = rows(await list(locationOwner, 'location_owner'));
    expect(own.map((row) => row.location_owner_id)).toEqual([1]);
    expect(rows(await list(hardware, 'hardware_provider')).map((row) => row.hardware_owner_id)).toEqual([1]);
    expect((await list(carrier, 'location_owner')).status).toBe(403);
    expect((await list(support, 'hotline_provider')).status).toBe(403);
    expect((await list(locationOwner, 'hardware_provider')).status).toBe(403);
  });

  it('creates a location owner and refuses a share over 30%, a negative one and a bad organization number', async () => {
    const created = await send(operator, 'POST', 'location_owner', {
      name: 'Harbour Kiosks',
      ...basics,
      earnings_share: 30,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Harbour Kiosks', earnings_share: 30, active: true });
    for (const [field, value] of [
      ['earnings_share', 30.5],
      ['earnings_share', -1],
      ['organization_number', 'SE#5566'],
    ] as const) {
      const body = await refused(
        () => send(operator, 'POST', 'location_owner', { name: 'Bad Owner', ...basics, [field]: value }),
        422,
        'Save failed, check the fields in error state',
      );
      expect(Object.keys(body.errors as Doc)).toEqual([field]);
    }
  });

  it('caps the hardware owner share at 40% and the maintenance provider share at 5%', async () => {
    const owners = rows(await list(operator, 'hardware_provider'));
    const providers = rows(await list(operator, 'maintenance_provider'));
    const version = (found: Doc[], field: string, id: number) => found.find((row) => row[field] === id)!.version;
    const hw = await refused(
      () =>
        send(operator, 'PATCH', 'hardware_provider', {
          hardware_owner_id: 2,
          version: version(owners, 'hardware_owner_id', 2),
          name: 'BoxTech',
          ...basics,
          earnings_share: 41,
        }),
      422,
      'Save failed, check the fields in error state',
    );
    expect(hw.errors).toMatchObject({ earnings_share: { message: 'validation.max' } });
    const mp = await refused(
      () =>
        send(operator, 'PATCH', 'maintenance_provider', {
          maintenance_provider_id: 2,
          version: version(providers, 'maintenance_provider_id', 2),
          name: 'Nordic Field Care',
          ...basics,
          earnings_share: 5.5,
        }),
      422,
      'Save failed, check the fields in error state',
    );
    expect(mp.errors).toMatchObject({ earnings_share: { message: 'validation.max' } });
    const ok = await send(operator, 'PATCH', 'hardware_provider', {
      hardware_owner_id: 3,
      version: version(owners, 'hardware_owner_id', 3),
      name: 'NordLock Systems',
      ...basics,
      earnings_share: 40,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses creating location owners without the rights, with the catalogue message in both languages', async () => {
    // The analyst holds every feature but the dashboard: give a role the basic location owner level only.
    const role = await readRecord(stack.db, 'identity_access/roles', 'operator_infinity_analyst');
    const permissions = (role.doc.permissions as { feature_id: number }[]).filter((p) => p.feature_id !== 217);
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{permissions}', $1::jsonb) WHERE resource = 'identity_access/roles' AND key = 'operator_infinity_analyst'`,
      [JSON.stringify(permissions)],
    );
    const weaker = await stack.signIn('analyst');
    const body = await refused(
      () => send(weaker, 'POST', 'location_owner', { name: 'No Rights Ltd', ...basics }),
      403,
      'You do not have sufficient rights to create location owners.',
    );
    expect(body.message_key).toBe('catalogue.location_owner_rights');
  });

  it('refuses deactivating a support provider linked to a service point, and allows an unlinked one', async () => {
    const linked = await findRecord(
      stack.db,
      'partners/support_provider',
      `key IN (SELECT doc->>'support_provider_id' FROM records WHERE resource = 'service_points')`,
    );
    const id = linked.doc.support_provider_id;
    const provider = rows(await list(operator, 'support_provider')).find((row) => row.support_provider_id === id)!;
    const body = await refused(
      () => send(operator, 'PATCH', 'support_provider', { ...provider, active: false }),
      409,
      'Cannot deactivate support provider, already linked to service point',
    );
    expect(body.message_key).toBe('catalogue.support_provider_linked');
    const created = await send(operator, 'POST', 'support_provider', { name: 'Spare Hotline', ...basics });
    expect(created.status).toBe(201);
    const off = await send(operator, 'PATCH', 'support_provider', { ...(created.body.data as Doc), active: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data).toMatchObject({ active: false });
  });

  it('keeps the default hardware owner and refuses removing one in use', async () => {
    const owners = rows(await list(operator, 'hardware_provider'));
    const byDefault = owners.find((owner) => owner.is_default === true)!;
    await refused(
      () => send(operator, 'PATCH', 'hardware_provider', { ...byDefault, is_default: false }),
      409,
      'The default hardware owner cannot be deselected or removed: make another owner the default.',
    );
    await refused(
      () => send(operator, 'DELETE', 'hardware_provider', { hardware_owner_id: byDefault.hardware_owner_id }),
      409,
      'The default hardware owner cannot be deselected or removed: make another owner the default.',
    );
    const inUse = await findRecord(
      stack.db,
      'partners/hardware_provider',
      `doc->>'is_default' <> 'true' AND key IN
         (SELECT doc->>'hardware_owner_id' FROM records WHERE resource = 'service_points/hardware_units')`,
    );
    await refused(
      () => send(operator, 'DELETE', 'hardware_provider', { hardware_owner_id: Number(inUse.key) }),

      409,
      'This hardware owner owns hardware units or PIN pads and cannot be removed.',
    );
    // Another owner made default takes the flag: still exactly one default.
    const other = owners.find((owner) => owner.is_default !== true)!;
    const moved = await send(operator, 'PATCH', 'hardware_provider', { ...other, is_default: true });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = rows(await list(operator, 'hardware_provider')).filter((owner) => owner.is_default === true);
    expect(after.map((owner) => owner.hardware_owner_id)).toEqual([other.hardware_owner_id]);
    // An unused, not default owner goes.
    const spare = await send(operator, 'POST', 'hardware_provider', { name: 'Spare Lockers', ...basics });
    expect(spare.status).toBe(201);
    const removed = await send(operator, 'DELETE', 'hardware_provider', {
      hardware_owner_id: (spare.body.data as Doc).hardware_owner_id,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  });

  it('refuses removing a location owner or maintenance provider still named by service points', async () => {
    await refused(
      () => send(operator, 'DELETE', 'location_owner', { location_owner_id: 1 }),
      409,
      'This partner is still linked to service points, hardware or tickets: deactivate it instead.',
    );
    await refused(
      () => send(operator, 'DELETE', 'maintenance_provider', { maintenance_provider_id: 1 }),
      409,
      'This partner is still linked to service points, hardware or tickets: deactivate it instead.',
    );
  });
});

describe("a partner page's administrator", () => {
  const NEW_PASSWORD = 'Harbour-Pass-42';

  it('onboards a new location owner with its administrator, who sets a password and sees only its own', async () => {
    const owner = await send(operator, 'POST', 'location_owner', { name: 'Quay Shops', ...basics });
    expect(owner.status).toBe(201);
    const ownerId = (owner.body.data as Doc).location_owner_id as number;
    const email = 'quay.admin@example.com';
    const created = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/identity_access/permissions',
      body: { partner_type: 'location_owner', location_owner_id: ownerId, name: 'Quay Admin', email },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ role_created: true, user: { email, partner: String(ownerId) } });
    const username = ((created.body.data as Doc).user as Doc).username as string;
    const mails = (await stack.identity.readOutbox()).filter((mail) => mail.to === email);
    expect(mails).toHaveLength(1);
    const cognito = cognitoClient(stack.app);
    const challenge = await cognito.passwordStep(username, mails[0].code!);
    expect(challenge.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const next = await cognito.respond('NEW_PASSWORD_REQUIRED', challenge.body.Session, {
      USERNAME: username,
      NEW_PASSWORD,
    });
    const codes = (await stack.identity.readOutbox()).filter((mail) => mail.to === email && mail.code);
    const done = await cognito.respond('CUSTOM_CHALLENGE', next.body.Session, {
      USERNAME: username,
      ANSWER: codes[codes.length - 1].code!,
    });
    expect(done.status).toBe(200);
    const { IdToken, AccessToken } = done.body.AuthenticationResult;
    const session: SigningSession = {
      region: 'eu-west-1',
      idToken: IdToken,
      accessToken: AccessToken,
      credentials: await cognito.credentials(IdToken),
    };
    expect(rows(await list(session, 'location_owner')).map((row) => row.location_owner_id)).toEqual([ownerId]);
    // A new owner has no service points yet: the administrator sees none of the others'.
    const points = await stack.send(session, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { offset: '0', limit: '20' },
    });
    expect(points.status).toBe(200);
    expect(points.body.total).toBe(0);
  });

  it('refuses an e-mail already registered, keyed, and writes nothing', async () => {
    const body = await refused(
      () =>
        stack.send(operator, {
          method: 'POST',
          path: 'webtool/identity_access/permissions',
          body: { partner_type: 'carrier', carrier_id: 2, name: 'Again', email: 'carrier@demo.locker.test' },
        }),
      409,
      'This email is already registered.',
    );
    expect(body.message_key).toBe('catalogue.email_registered');
  });

  it("lets a carrier create its own administrator but not another carrier's", async () => {
    const own = await stack.send(carrier, {
      method: 'POST',
      path: 'webtool/identity_access/permissions',
      body: { partner_type: 'carrier', carrier_id: 1, name: 'Second Admin', email: 'second.admin@example.com' },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data).toMatchObject({ role_created: false });
    const other = await stack.send(carrier, {
      method: 'POST',
      path: 'webtool/identity_access/permissions',
      body: { partner_type: 'carrier', carrier_id: 2, name: 'Not Mine', email: 'not.mine@example.com' },
    });
    expect(other.status).toBe(403);
  });
});
