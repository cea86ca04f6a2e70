import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayRequest, SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from './support/cognito-client.ts';
import { startStack, type Stack } from './support/stack.ts';

const USERS = 'webtool/identity_access/users';
const ROLES = 'webtool/identity_access/roles';
const PERMISSIONS = 'webtool/identity_access/permissions';
const PARTNERS = 'webtool/identity_access/partners';
const NEW_PASSWORD = 'Chosen-Pass-42';

let stack: Stack;
let superadmin: SigningSession;
let operator: SigningSession;
let carrier: SigningSession;
let locationOwner: SigningSession;
let scout: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  superadmin = await stack.signIn('superadmin');
  operator = await stack.signIn('operator');
  carrier = await stack.signIn('carrier');
  locationOwner = await stack.signIn('locationowner');
  scout = await stack.signIn('scout');
});
afterAll(() => stack.close());

type Body = Record<string, unknown>;
interface User {
  username: string;
  name: string;
  email: string;
  partner_type: string;
  partner: string;
  role_name: string;
  enabled: boolean;
  status: string;
}

const call = (session: SigningSession, method: GatewayRequest['method'], path: string, payload?: unknown) =>
  method === 'GET'
    ? stack.send(session, { method, path, query: payload as GatewayRequest['query'] })
    : stack.send(session, { method, path, body: payload });

async function mailsTo(email: string) {
  return (await stack.identity.readOutbox()).filter((mail) => mail.to === email);
}

async function lastMailTo(email: string) {
  const mails = await mailsTo(email);
  return mails[mails.length - 1];
}

async function auditRows(resource: string, key: string) {
  return (
    await stack.db.query<{ action: string; username: string; partner_type: string; changes: Body }>(
      'SELECT action, username, partner_type, changes FROM audit_log WHERE resource = $1 AND key = $2 ORDER BY id',
      [resource, key],
    )
  ).rows;
}

/** What a refused call must leave untouched. */
async function footprint() {
  const { rows } = await stack.db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM identity_users) AS users,
            (SELECT count(*) FROM records WHERE resource = 'identity_access/roles') AS roles,
            (SELECT count(*) FROM audit_log) AS audit,
            (SELECT count(*) FROM outbox) AS mails,
            (SELECT string_agg(username || ':' || enabled || ':' || family_name || ':' || (groups->>0), ',' ORDER BY username)
               FROM identity_users) AS state`,
  );
  return rows[0];
}

let created = 0;
/** A fresh e-mail for each user a test creates. */
const freshEmail = (local = 'person') => `${local}.${++created}@example.com`;

async function createUser(session: SigningSession, body: Body) {
  const response = await call(session, 'POST', USERS, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as User;
}

/** Signs a created user in the way the app does at first sign-in: temporary password, new password, code. */
async function firstSignIn(user: Pick<User, 'username' | 'email'>): Promise<SigningSession> {
  const cognito = cognitoClient(stack.app);
  const temporary = (await lastMailTo(user.email)).code!;
  const challenge = await cognito.passwordStep(user.username, temporary);
  expect(challenge.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  const next = await cognito.respond('NEW_PASSWORD_REQUIRED', challenge.body.Session, {
    USERNAME: user.username,
    NEW_PASSWORD,
  });
  expect(next.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  const done = await cognito.respond('CUSTOM_CHALLENGE', next.body.Session, {
    USERNAME: user.username,
    ANSWER: (await lastMailTo(user.email)).code!,
  });
  expect(done.status).toBe(200);
  const { IdToken, AccessToken } = done.body.AuthenticationResult;
  return {
    region: 'eu-west-1',
    idToken: IdToken,
    accessToken: AccessToken,
    credentials: await cognito.credentials(IdToken),
  };
}

describe('GET identity_access/users', () => {
  it('shows the operator company every user, shaped like the webtool-user schema', async () => {
    const { status, body } = await call(operator, 'GET', USERS, { limit: 100 });
    expect(status).toBe(200);
    const users = body.data as User[];
    const { rows } = await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM identity_users');
    expect(body.total).toBe(Number(rows[0].n));
    expect(users.map((u) => u.username)).toEqual(
      expect.arrayContaining(['superadmin', 'carrier', 'carrier2', 'scout']),
    );
    expect(users.find((u) => u.username === 'carrier2')).toEqual({
      username: 'carrier2',
      name: 'carrier',
      email: 'carrier2@demo.locker.test',
      partner_type: 'carrier',
      partner: '2',
      partner_name: 'FjordFrakt',
      role_name: 'carrier_2_admin',
      enabled: true,
      status: 'CONFIRMED',
    });
  });

  it('shows a carrier only the users of its own carrier', async () => {
    const { status, body } = await call(carrier, 'GET', USERS, { limit: 100 });
    expect(status).toBe(200);
    const users = body.data as User[];
    expect(users.map((u) => u.username)).toContain('carrier');
    expect(users.every((u) => u.partner_type === 'carrier' && u.partner === '1')).toBe(true);
    expect(body.total).toBe(users.length);
    const asked = await call(carrier, 'GET', USERS, { partner_id: '2' });
    expect(asked.body).toMatchObject({ data: [], total: 0 });
  });

  it('filters, searches, orders and pages', async () => {
    const carriers = await call(operator, 'GET', USERS, { partner_type: 'carrier', partner_id: '2' });
    expect((carriers.body.data as User[]).map((u) => u.username)).toEqual(['carrier2']);
    const byRole = await call(operator, 'GET', USERS, { role_name: 'operator_infinity_scout' });
    expect((byRole.body.data as User[]).map((u) => u.username)).toEqual(['scout']);
    const searched = await call(operator, 'GET', USERS, { search: 'SUPPORT@demo' });
    expect((searched.body.data as User[]).map((u) => u.username)).toEqual(['support']);
    const page = await call(operator, 'GET', USERS, {
      order_by: 'username',
      order_by_dir: 'desc',
      limit: 2,
      offset: 1,
    });
    const all = await call(operator, 'GET', USERS, { order_by: 'username', order_by_dir: 'desc', limit: 100 });
    expect(page.body.data).toEqual((all.body.data as User[]).slice(1, 3));
    expect(page.body.total).toBe(all.body.total);
  });

  it.each([
    [{ colour: 'red' }, 'Unknown filter: colour'],
    [{ limit: 'many' }, 'limit must be a whole number of 0 or more.'],
    [{ order_by: 'password' }, 'Unknown field: password'],
    [{ enabled: 'perhaps' }, 'enabled must be true or false.'],
  ])('refuses the list query %j with 400', async (query, message) => {
    const { status, body } = await call(operator, 'GET', USERS, query);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });
});

describe('POST identity_access/users', () => {
  it('creates the user with a temporary password e-mailed as a login e-mail; the user signs in with it', async () => {
    const email = freshEmail('Nora.Berg');
    const user = await createUser(operator, {
      name: 'Nora Berg',
      email,
      partner_type: 'carrier',
      partner: '1',
      role_name: 'carrier_1_admin',
    });
    expect(user).toEqual({
      username: expect.stringMatching(/^nora\.berg\.\d+$/),
      name: 'Nora Berg',
      email,
      partner_type: 'carrier',
      partner: '1',
      role_name: 'carrier_1_admin',
      enabled: true,
      status: 'FORCE_CHANGE_PASSWORD',
    });
    const mail = await lastMailTo(email);
    expect(mail.subject).toBe('Your webtool login');
    expect(mail.body).toContain(user.username);
    expect(mail.body).toContain(mail.code);

    const session = await firstSignIn(user);
    const nav = await call(session, 'GET', 'webtool/identity_access/nav_drawer', { userinfo: '' });
    expect(nav.status).toBe(200);
    expect(nav.body.data).toMatchObject({ partner_info: { partner_type: 'carrier', partner_id: '1' } });
    const listed = await call(operator, 'GET', USERS, { search: user.username });
    expect((listed.body.data as User[])[0].status).toBe('CONFIRMED');

    const audit = await auditRows('identity_access/users', user.username);
    expect(audit).toMatchObject([{ action: 'create', username: 'operator', partner_type: 'operator' }]);
    expect(audit[0].changes.role_name).toEqual({ from: null, to: 'carrier_1_admin' });
  });

  it('writes the identity user and its audit row in one transaction: a failed audit leaves no user', async () => {
    const email = freshEmail('Audit.Fails');
    // The audit row of this one e-mail is refused by the database, after the identity user was written.
    await stack.db.query(`CREATE FUNCTION refuse_audit() RETURNS trigger AS $$ BEGIN
        IF NEW.changes::text LIKE '%${email}%' THEN RAISE EXCEPTION 'audit refused'; END IF; RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await stack.db.query(
      'CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_audit()',
    );
    try {
      const answer = await call(operator, 'POST', USERS, {
        name: 'Audit Fails',
        email,
        partner_type: 'carrier',
        partner: '1',
        role_name: 'carrier_1_admin',
      });
      expect(answer.status).toBe(500);
    } finally {
      await stack.db.query('DROP TRIGGER refuse_audit ON audit_log');
      await stack.db.query('DROP FUNCTION refuse_audit()');
    }
    const left = await stack.db.query('SELECT 1 FROM identity_users WHERE lower(email) = lower($1)', [email]);
    expect(left.rows).toEqual([]);
    const mails = await stack.db.query('SELECT 1 FROM outbox WHERE "to" = $1', [email]);
    expect(mails.rows).toEqual([]);
  });

  it('derives a unique username from the e-mail', async () => {
    const first = await createUser(operator, {
      name: 'Ola One',
      email: 'ola@one.example',
      role_name: 'carrier_2_admin',
    });
    const second = await createUser(operator, {
      name: 'Ola Two',
      email: 'ola@two.example',
      role_name: 'carrier_2_admin',
    });
    expect([first.username, second.username]).toEqual(['ola', 'ola2']);
    expect(first).toMatchObject({ partner_type: 'carrier', partner: '2' });
  });

  it('lets a carrier create a user of its own carrier, the partner taken from the caller', async () => {
    const user = await createUser(carrier, {
      name: 'Own Dispatcher',
      email: freshEmail(),
      role_name: 'carrier_1_admin',
    });
    expect(user).toMatchObject({ partner_type: 'carrier', partner: '1' });
  });

  it('refuses an e-mail already registered, whatever its case, and writes nothing', async () => {
    const before = await footprint();
    const { status, body } = await call(operator, 'POST', USERS, {
      name: 'Copy Cat',
      email: 'Carrier2@DEMO.locker.test',
      role_name: 'carrier_2_admin',
    });
    expect(status).toBe(409);
    expect(body.message).toBe('This email is already registered.');
    expect(await footprint()).toEqual(before);
  });

  it('refuses a carrier creating a user for another carrier or another partner type', async () => {
    const before = await footprint();
    const named = await call(carrier, 'POST', USERS, {
      name: 'Intruder',
      email: freshEmail(),
      partner_type: 'carrier',
      partner: '2',
      role_name: 'carrier_2_admin',
    });
    expect(named.status).toBe(403);
    expect(named.body.message).toBe('You have no permission for this request.');
    const byRole = await call(carrier, 'POST', USERS, {
      name: 'Intruder',
      email: freshEmail(),
      role_name: 'carrier_2_admin',
    });
    expect(byRole.status).toBe(422);
    expect(byRole.body.errors).toEqual({ role_name: { message: 'validation.choice' } });
    const otherType = await call(carrier, 'POST', USERS, {
      name: 'Intruder',
      email: freshEmail(),
      partner_type: 'support_provider',
      partner: '1',
      role_name: 'carrier_1_admin',
    });
    expect(otherType.status).toBe(403);
    expect(otherType.body).toMatchObject({
      message: 'You have no permission for this request.',
      message_key: 'http.no_permission',
    });
    expect(await footprint()).toEqual(before);
  });

  it.each([
    ['a role that does not exist', { role_name: 'carrier_1_ghost' }],
    ['a role of another partner', { partner: '3', role_name: 'carrier_1_admin' }],
    ['a role of another partner type', { partner_type: 'support_provider', role_name: 'carrier_1_admin' }],
  ])('refuses %s with 422 on role_name', async (_label, change) => {
    const before = await footprint();
    const { status, body } = await call(operator, 'POST', USERS, {
      name: 'Role Mismatch',
      email: freshEmail(),
      partner_type: 'carrier',
      partner: '1',
      ...change,
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({
      success: false,
      message: 'Save failed, check the fields in error state',
      errors: { role_name: { message: 'validation.choice' } },
    });
    expect(await footprint()).toEqual(before);
  });

  it('lets only a super admin hand out a super admin role', async () => {
    const body = { name: 'Second Super', email: freshEmail(), role_name: 'operator_infinity_superadmin' };
    expect((await call(operator, 'POST', USERS, body)).status).toBe(403);
    const user = await createUser(superadmin, body);
    expect(user.role_name).toBe('operator_infinity_superadmin');
    expect((await call(superadmin, 'DELETE', USERS, { username: user.username })).status).toBe(200);
  });

  it('needs the advance webtool users permission to write', async () => {
    const before = await footprint();
    const { status } = await call(scout, 'POST', USERS, {
      name: 'By Scout',
      email: freshEmail(),
      role_name: 'carrier_1_admin',
    });
    expect(status).toBe(403);
    expect((await call(scout, 'GET', USERS)).status).toBe(200);
    expect(await footprint()).toEqual(before);
  });
});

describe('location-owner users', () => {
  let userManager: SigningSession;

  beforeAll(async () => {
    const role = await call(superadmin, 'POST', ROLES, {
      role_name: 'operator_infinity_usermanager',
      role_description: 'Manages webtool users only',
      partner_type: 'operator',
      partner: 'infinity',
      permissions: [205, 206].map((feature_id) => ({ feature_id, has_permission: true })),
    });
    expect(role.status).toBe(201);
    const user = await createUser(superadmin, {
      name: 'User Manager',
      email: freshEmail('usermanager'),
      role_name: 'operator_infinity_usermanager',
    });
    userManager = await firstSignIn(user);
  });

  it('are refused to a caller without the advance location-owner permission', async () => {
    const before = await footprint();
    const body = { name: 'Shop Keeper', email: freshEmail(), role_name: 'location_owner_2_admin' };
    const { status, body: reply } = await call(userManager, 'POST', USERS, body);
    expect(status).toBe(403);
    expect(reply.message).toBe('You do not have sufficient rights to create location owners.');
    const byType = await call(userManager, 'POST', USERS, {
      ...body,
      partner_type: 'location_owner',
      partner: '2',
      role_name: 'location_owner_2_clerk',
    });
    expect(byType.status).toBe(403);
    expect(byType.body.message).toBe('You do not have sufficient rights to create location owners.');
    expect(await footprint()).toEqual(before);
    expect((await call(userManager, 'POST', USERS, { ...body, role_name: 'carrier_3_admin' })).status).toBe(201);
  });

  it('are created by a super admin and by a location owner holding that permission', async () => {
    await createUser(superadmin, { name: 'Shop Keeper', email: freshEmail(), role_name: 'location_owner_2_admin' });
    const own = await createUser(locationOwner, {
      name: 'Shop Clerk',
      email: freshEmail(),
      role_name: 'location_owner_1_admin',
    });
    expect(own).toMatchObject({ partner_type: 'location_owner', partner: '1' });
  });

  it('are refused on POST identity_access/permissions the same way', async () => {
    const before = await footprint();
    const { status, body } = await call(userManager, 'POST', PERMISSIONS, {
      partner_type: 'location_owner',
      partner: '3',
      name: 'Fuel Admin',
      email: freshEmail(),
      permissions: [],
    });
    expect(status).toBe(403);
    expect(body.message).toBe('You do not have sufficient rights to create location owners.');
    expect(await footprint()).toEqual(before);
  });
});

describe('PUT identity_access/users', () => {
  let target: User;

  beforeAll(async () => {
    target = await createUser(carrier, {
      name: 'Toggle Me',
      email: freshEmail('toggle'),
      role_name: 'carrier_1_admin',
    });
    await firstSignIn(target);
  });

  it('disables (no more sign-in) and enables a user, with an audit row each', async () => {
    const disabled = await call(carrier, 'PUT', USERS, { username: target.username, action_type: 2 });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ username: target.username, enabled: false });
    const cognito = cognitoClient(stack.app);
    const refused = await cognito.passwordStep(target.username, NEW_PASSWORD);
    expect(refused.errorType?.split(':')[0]).toBe('NotAuthorizedException');
    expect(refused.body.message).toBe('User is disabled.');

    const enabled = await call(carrier, 'PUT', USERS, { username: target.username, action_type: 1 });
    expect(enabled.body.data).toMatchObject({ enabled: true });
    expect((await cognito.passwordStep(target.username, NEW_PASSWORD)).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    const audit = await auditRows('identity_access/users', target.username);
    expect(audit.map((row) => row.action)).toEqual(['create', 'disable', 'enable']);
    expect(audit[1].changes).toEqual({ enabled: { from: true, to: false } });
  });

  it('resets the password: a new temporary password is e-mailed', async () => {
    const mailsBefore = (await mailsTo(target.email)).length;
    const { status } = await call(operator, 'PUT', USERS, { username: target.username, action_type: 3 });
    expect(status).toBe(200);
    const mail = await lastMailTo(target.email);
    expect((await mailsTo(target.email)).length).toBe(mailsBefore + 1);
    expect(mail.subject).toBe('Your webtool password was reset');
    const cognito = cognitoClient(stack.app);
    expect((await cognito.passwordStep(target.username, NEW_PASSWORD)).errorType?.split(':')[0]).toBe(
      'NotAuthorizedException',
    );
    expect((await cognito.passwordStep(target.username, mail.code!)).body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect((await auditRows('identity_access/users', target.username)).at(-1)).toMatchObject({
      action: 'reset_password',
      username: 'operator',
    });
  });

  it("answers 404 for another partner's user and refuses disabling oneself", async () => {
    const before = await footprint();
    const other = await call(carrier, 'PUT', USERS, { username: 'carrier2', action_type: 2 });
    expect(other.status).toBe(404);
    const self = await call(carrier, 'PUT', USERS, { username: 'carrier', action_type: 2 });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('You cannot disable your own user.');
    expect(await footprint()).toEqual(before);
  });
});

describe('the last super admin', () => {
  it('cannot be deleted nor disabled; a second super admin can be deleted while the first remains', async () => {
    const before = await footprint();
    const deleted = await call(operator, 'DELETE', USERS, { username: 'superadmin' });
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe('Cannot delete this user; there must be one Super Admin.');
    const disabled = await call(operator, 'PUT', USERS, { username: 'superadmin', action_type: 2 });
    expect(disabled.status).toBe(409);
    expect(disabled.body.message).toBe('Cannot delete this user; there must be one Super Admin.');
    expect(await footprint()).toEqual(before);

    const second = await createUser(superadmin, {
      name: 'Deputy Super',
      email: freshEmail('deputy'),
      role_name: 'operator_infinity_superadmin',
    });
    const removed = await call(operator, 'DELETE', USERS, { username: second.username });
    expect(removed.status).toBe(200);
    expect(await stack.identity.getUser(second.username)).toBeNull();
    expect((await auditRows('identity_access/users', second.username)).map((row) => row.action)).toEqual([
      'create',
      'delete',
    ]);
    expect((await call(operator, 'DELETE', USERS, { username: 'superadmin' })).status).toBe(409);
  });

  it('keeps its role: demoting the last super admin is refused', async () => {
    const { status, body } = await call(superadmin, 'PATCH', USERS, {
      username: 'superadmin',
      role_name: 'operator_infinity_admin',
    });
    expect(status).toBe(409);
    expect(body.message).toBe('Cannot delete this user; there must be one Super Admin.');
  });

  it('refuses a user deleting themselves', async () => {
    const before = await footprint();
    const { status, body } = await call(carrier, 'DELETE', USERS, { username: 'carrier' });
    expect(status).toBe(403);
    expect(body.message).toBe('You cannot delete your own user.');
    expect(await footprint()).toEqual(before);
  });
});

describe('PATCH identity_access/users', () => {
  it('update_profile changes the caller’s own name, and only that', async () => {
    const support = await stack.signIn('support');
    const { status, body } = await call(support, 'PATCH', USERS, {
      opname: 'update_profile',
      name: 'Support Desk',
      role_name: 'operator_infinity_superadmin',
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      username: 'support',
      name: 'Support Desk',
      role_name: 'support_provider_1_admin',
    });
    expect((await stack.identity.getUser('support'))?.familyName).toBe('Support Desk');
    expect((await auditRows('identity_access/users', 'support')).at(-1)).toMatchObject({
      action: 'update_profile',
      changes: { name: { from: 'support_provider', to: 'Support Desk' } },
    });
  });

  it('lets an administrator change the name and role of a user of its scope', async () => {
    const user = await createUser(operator, {
      name: 'Role Changer',
      email: freshEmail(),
      role_name: 'carrier_3_admin',
    });
    await call(superadmin, 'POST', ROLES, {
      role_name: 'carrier_3_viewer',
      partner_type: 'carrier',
      partner: '3',
      permissions: [{ feature_id: 205, has_permission: true }],
    });
    const { status, body } = await call(operator, 'PATCH', USERS, {
      username: user.username,
      name: 'Role Viewer',
      role_name: 'carrier_3_viewer',
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: 'Role Viewer', role_name: 'carrier_3_viewer', partner: '3' });
    expect((await stack.identity.getUser(user.username))?.groups).toEqual(['carrier_3_viewer']);
    expect((await auditRows('identity_access/users', user.username)).at(-1)?.changes).toEqual({
      name: { from: 'Role Changer', to: 'Role Viewer' },
      role_name: { from: 'carrier_3_admin', to: 'carrier_3_viewer' },
    });
  });

  it("refuses another partner's user (404) and a role of another partner (422)", async () => {
    const before = await footprint();
    expect((await call(carrier, 'PATCH', USERS, { username: 'carrier2', name: 'Renamed' })).status).toBe(404);
    const role = await call(carrier, 'PATCH', USERS, { username: 'carrier', role_name: 'carrier_2_admin' });
    expect(role.status).toBe(422);
    expect(role.body.errors).toEqual({ role_name: { message: 'validation.choice' } });
    expect(await footprint()).toEqual(before);
  });
});

describe('roles', () => {
  it('a carrier sees only its own roles; ?type= filters by partner type', async () => {
    const own = await call(carrier, 'GET', ROLES, { limit: 100 });
    expect(own.status).toBe(200);
    const names = (own.body.data as { role_name: string }[]).map((r) => r.role_name);
    expect(names).toContain('carrier_1_admin');
    expect(names.every((name) => name.startsWith('carrier_1_'))).toBe(true);
    const byType = await call(operator, 'GET', ROLES, { type: 'carrier', limit: 100 });
    const types = (byType.body.data as { partner_type: string }[]).map((r) => r.partner_type);
    expect(new Set(types)).toEqual(new Set(['carrier']));
    expect(byType.body.total).toBeGreaterThanOrEqual(6);
    expect((await call(carrier, 'GET', ROLES, { type: 'operator' })).body).toMatchObject({ data: [], total: 0 });
  });

  it('are created, updated and deleted as versioned records with audit rows', async () => {
    const role = {
      role_name: 'carrier_1_dispatcher',
      role_description: 'Dispatch desk',
      permissions: [{ feature_id: 256, has_permission: true, configurations: [{ type: 'dropdown', show: true }] }],
    };
    const created = await call(carrier, 'POST', ROLES, role);
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ ...role, partner_type: 'carrier', partner: '1', version: 1 });

    const updated = await call(carrier, 'PATCH', ROLES, {
      role_name: role.role_name,
      version: 1,
      role_description: 'Dispatch and couriers',
      partner: '2',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ role_description: 'Dispatch and couriers', partner: '1', version: 2 });
    const stale = await call(carrier, 'PATCH', ROLES, { role_name: role.role_name, version: 1, role_description: 'x' });
    expect(stale.status).toBe(409);

    const removed = await call(carrier, 'DELETE', ROLES, { role_name: role.role_name });
    expect(removed.status).toBe(200);
    const audit = await auditRows('identity_access/roles', role.role_name);
    expect(audit.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1].changes).toEqual({ role_description: { from: 'Dispatch desk', to: 'Dispatch and couriers' } });
    expect(audit.every((row) => row.username === 'carrier')).toBe(true);
  });

  it('refuses deleting a role in use by webtool users', async () => {
    const before = await footprint();
    const { status, body } = await call(operator, 'DELETE', ROLES, { role_name: 'carrier_1_admin' });
    expect(status).toBe(409);
    expect(body.message).toBe('Role is in use by webtool users.');
    expect(await footprint()).toEqual(before);
  });

  it("keeps a carrier away from other partners' roles and from rights it does not hold", async () => {
    const before = await footprint();
    const other = { role_name: 'carrier_2_spy', partner_type: 'carrier', partner: '2', permissions: [] };
    expect((await call(carrier, 'POST', ROLES, other)).status).toBe(403);
    expect((await call(carrier, 'DELETE', ROLES, { role_name: 'carrier_2_admin' })).status).toBe(404);
    expect((await call(carrier, 'PATCH', ROLES, { role_name: 'carrier_2_admin', version: 1 })).status).toBe(404);
    const raised = await call(carrier, 'POST', ROLES, {
      role_name: 'carrier_1_locations',
      permissions: [{ feature_id: 234, has_permission: true }],
    });
    expect(raised.status).toBe(403);
    const ownRaised = await call(carrier, 'PATCH', ROLES, {
      role_name: 'carrier_1_admin',
      version: 1,
      permissions: [{ feature_id: 235, has_permission: true }],
    });
    expect(ownRaised.status).toBe(403);
    expect(await footprint()).toEqual(before);
  });

  it('refuses demoting the super admin role while it holds the last super admin', async () => {
    const { status, body } = await call(superadmin, 'PATCH', ROLES, {
      role_name: 'operator_infinity_superadmin',
      version: 1,
      role_description: 'Network operator',
    });
    expect(status).toBe(409);
    expect(body.message).toBe('Cannot delete this user; there must be one Super Admin.');
  });
});

describe('GET identity_access/permissions', () => {
  it('is one node per feature with its basic, advance and scout options', async () => {
    const { status, body } = await call(operator, 'GET', PERMISSIONS);
    expect(status).toBe(200);
    const nodes = body.data as { feature_name: string; parent_id: number | null; options: Body[] }[];
    expect(nodes.find((n) => n.feature_name === 'servicepoints')).toEqual({
      feature_name: 'servicepoints',
      parent_id: 186,
      options: [
        { level: 'basic', feature_id: 187 },
        { level: 'advance', feature_id: 188 },
        { level: 'scout', feature_id: 240 },
      ],
    });
    expect(nodes.find((n) => n.feature_name === 'dashboard')).toEqual({
      feature_name: 'dashboard',
      parent_id: null,
      options: [{ level: 'basic', feature_id: 177 }],
    });
    expect(nodes.length).toBe(28);
  });

  it('offers a partner only the permissions it holds', async () => {
    const { body } = await call(scout, 'GET', PERMISSIONS);
    expect(body.data).toEqual([
      { feature_name: 'webtool_users', parent_id: 204, options: [{ level: 'basic', feature_id: 205 }] },
      { feature_name: 'servicepoints', parent_id: 186, options: [{ level: 'scout', feature_id: 240 }] },
    ]);
    const carrierTree = (await call(carrier, 'GET', PERMISSIONS)).body.data as { feature_name: string }[];
    expect(carrierTree.map((n) => n.feature_name)).toContain('couriers');
    expect(carrierTree.map((n) => n.feature_name)).not.toContain('locations');
  });
});

describe('POST identity_access/permissions', () => {
  it("creates the partner's admin role and an admin user who gets the login e-mail", async () => {
    const newCarrier = await call(operator, 'POST', 'webtool/partners/carrier', {
      name: 'Admin Test Carrier',
      primary_country_code: 'DK',
      service_point_radius: 3,
    });
    const carrierId = (newCarrier.body.data as { carrier_id: number }).carrier_id;
    const email = freshEmail('carrier.admin');
    const permissions = [214, 205, 206].map((feature_id) => ({ feature_id, has_permission: true }));
    const { status, body } = await call(operator, 'POST', PERMISSIONS, {
      partner_type: 'carrier',
      partner: carrierId,
      name: 'Carrier Admin',
      email,
      permissions,
    });
    expect(status).toBe(201);
    const roleName = `carrier_${carrierId}_admin`;
    expect(body.data).toMatchObject({
      role_created: true,
      role: { role_name: roleName, role_description: 'Admin Test Carrier administrator', permissions, version: 1 },
      user: { email, role_name: roleName, partner_type: 'carrier', partner: String(carrierId) },
    });
    expect((await lastMailTo(email)).subject).toBe('Your webtool login');
    expect((await auditRows('identity_access/roles', roleName)).map((row) => row.action)).toEqual(['create']);
    const username = (body.data as { user: User }).user.username;
    expect((await auditRows('identity_access/users', username)).map((row) => row.action)).toEqual(['create']);

    const session = await firstSignIn({ username, email });
    const users = await call(session, 'GET', USERS);
    expect((users.body.data as User[]).map((u) => u.username)).toEqual([username]);

    const second = await call(operator, 'POST', PERMISSIONS, {
      partner_type: 'carrier',
      partner: String(carrierId),
      name: 'Second Admin',
      email: freshEmail(),
      permissions: [],
    });
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ role_created: false, role: { permissions } });
  });

  it('refuses a partner that does not exist and a partner other than the caller', async () => {
    const before = await footprint();
    const body = { partner_type: 'carrier', name: 'Nobody Admin', email: freshEmail(), permissions: [] };
    const missing = await call(operator, 'POST', PERMISSIONS, { ...body, partner: '999' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ partner: { message: 'validation.choice' } });
    expect((await call(carrier, 'POST', PERMISSIONS, { ...body, partner: '2' })).status).toBe(403);
    const taken = await call(operator, 'POST', PERMISSIONS, {
      ...body,
      partner: '4',
      email: 'CARRIER@demo.locker.test',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This email is already registered.');
    expect(await footprint()).toEqual(before);
  });
});

describe('GET identity_access/partners', () => {
  it('lists the operator company and every partner; a partner sees only itself', async () => {
    const { status, body } = await call(operator, 'GET', PARTNERS);
    expect(status).toBe(200);
    const partners = body.data as { partner_type: string; partner_id: string; name: string }[];
    expect(partners[0]).toEqual({ partner_type: 'operator', partner_id: 'infinity', name: 'Infinity Lockers' });
    expect(partners).toContainEqual({ partner_type: 'carrier', partner_id: '1', name: 'NordPost' });
    expect(partners).toContainEqual({ partner_type: 'location_owner', partner_id: '3', name: 'FuelStop' });
    expect(partners).toContainEqual({ partner_type: 'hardware_provider', partner_id: '2', name: 'BoxTech' });
    expect(partners).toContainEqual({ partner_type: 'maintenance_provider', partner_id: '1', name: 'FixIt Services' });
    expect(partners).toContainEqual({ partner_type: 'support_provider', partner_id: '2', name: 'CallPoint PL' });
    const own = await call(carrier, 'GET', PARTNERS);
    expect(own.body.data).toEqual([{ partner_type: 'carrier', partner_id: '1', name: 'NordPost' }]);
  });
});

describe('bad bodies', () => {
  const user = { name: 'Valid Name', email: 'valid.body@example.com', role_name: 'carrier_1_admin' };
  const role = { role_name: 'carrier_1_valid', partner_type: 'carrier', partner: '1', permissions: [] };

  it.each<[string, GatewayRequest['method'], string, unknown, number, Body?]>([
    ['POST users without a body', 'POST', USERS, undefined, 400],
    ['POST users with an array', 'POST', USERS, [user], 400],
    [
      'POST users without fields',
      'POST',
      USERS,
      {},
      422,
      {
        name: { message: 'validation.required' },
        email: { message: 'validation.required' },
        role_name: { message: 'validation.required' },
      },
    ],
    [
      'POST users with a numeric name',
      'POST',
      USERS,
      { ...user, name: 42 },
      422,
      { name: { message: 'validation.type' } },
    ],
    [
      'POST users with a bad e-mail',
      'POST',
      USERS,
      { ...user, email: 'nobody' },
      422,
      { email: { message: 'validation.email' } },
    ],
    [
      'POST users with a short name',
      'POST',
      USERS,
      { ...user, name: 'Al' },
      422,
      { name: { message: 'validation.min_non_space', args: { min: 3 } } },
    ],
    [
      'POST users with an unknown partner type',
      'POST',
      USERS,
      { ...user, partner_type: 'pirate' },
      422,
      { partner_type: { message: 'validation.choice' } },
    ],
    ['PUT users without username', 'PUT', USERS, { action_type: 1 }, 400],
    ['PUT users with a numeric username', 'PUT', USERS, { username: 7, action_type: 1 }, 400],
    ['PUT users without action_type', 'PUT', USERS, { username: 'carrier2' }, 400],
    ['PUT users with action_type 4', 'PUT', USERS, { username: 'carrier2', action_type: 4 }, 400],
    ['PUT users with action_type "enable"', 'PUT', USERS, { username: 'carrier2', action_type: 'enable' }, 400],
    ['PUT users with action_type true', 'PUT', USERS, { username: 'carrier2', action_type: true }, 400],
    ['PUT users for an unknown user', 'PUT', USERS, { username: 'nobody-here', action_type: 2 }, 404],
    ['PATCH users with an unknown opname', 'PATCH', USERS, { opname: 'promote', username: 'carrier2' }, 400],
    [
      'PATCH update_profile without a name',
      'PATCH',
      USERS,
      { opname: 'update_profile' },
      422,
      { name: { message: 'validation.required' } },
    ],
    [
      'PATCH update_profile with a blank name',
      'PATCH',
      USERS,
      { opname: 'update_profile', name: '   ' },
      422,
      { name: { message: 'validation.required' } },
    ],
    ['PATCH users without username', 'PATCH', USERS, { name: 'New Name' }, 400],
    [
      'PATCH users with an array name',
      'PATCH',
      USERS,
      { username: 'carrier2', name: ['x'] },
      422,
      { name: { message: 'validation.type' } },
    ],
    ['DELETE users without username', 'DELETE', USERS, {}, 400],
    ['DELETE an unknown user', 'DELETE', USERS, { username: 'nobody-here' }, 404],
    ['POST roles without fields', 'POST', ROLES, {}, 422],
    [
      'POST roles with a bad name',
      'POST',
      ROLES,
      { ...role, role_name: 'Carrier One' },
      422,
      { role_name: { message: 'validation.format' } },
    ],
    [
      'POST roles named for another partner',
      'POST',
      ROLES,
      { ...role, role_name: 'carrier_2_valid' },
      422,
      { role_name: { message: 'validation.format' } },
    ],
    [
      'POST roles with permissions as text',
      'POST',
      ROLES,
      { ...role, permissions: 'all' },
      422,
      { permissions: { message: 'validation.type' } },
    ],
    [
      'POST roles with an unknown feature',
      'POST',
      ROLES,
      { ...role, permissions: [{ feature_id: 99999, has_permission: true }] },
      422,
      { 'permissions.0.feature_id': { message: 'validation.choice' } },
    ],
    [
      'POST roles with a policy missing has_permission',
      'POST',
      ROLES,
      { ...role, permissions: [{ feature_id: 205 }] },
      422,
      { 'permissions.0.has_permission': { message: 'validation.required' } },
    ],
    [
      'POST roles for an unknown partner',
      'POST',
      ROLES,
      { ...role, role_name: 'carrier_99_valid', partner: '99' },
      422,
      { partner: { message: 'validation.choice' } },
    ],
    ['POST an existing role', 'POST', ROLES, { ...role, role_name: 'carrier_1_admin' }, 409],
    ['PATCH roles without version', 'PATCH', ROLES, { role_name: 'carrier_1_admin' }, 400],
    [
      'PATCH roles with bad permissions',
      'PATCH',
      ROLES,
      { role_name: 'carrier_1_admin', version: 1, permissions: [{ feature_id: 'x', has_permission: true }] },
      422,
      { 'permissions.0.feature_id': { message: 'validation.type' } },
    ],
    ['DELETE roles without role_name', 'DELETE', ROLES, {}, 400],
    ['DELETE an unknown role', 'DELETE', ROLES, { role_name: 'carrier_1_ghost' }, 404],
    ['POST permissions without fields', 'POST', PERMISSIONS, {}, 422],
    [
      'POST permissions for the operator',
      'POST',
      PERMISSIONS,
      {
        partner_type: 'operator',
        partner: 'infinity',
        name: 'Op Admin',
        email: 'op.admin@example.com',
        permissions: [],
      },
      422,
      { partner_type: { message: 'validation.choice' } },
    ],
    [
      'POST permissions with a bad e-mail',
      'POST',
      PERMISSIONS,
      { partner_type: 'carrier', partner: '5', name: 'Five Admin', email: 'five', permissions: [] },
      422,
      { email: { message: 'validation.email' } },
    ],
    [
      // Issue 26: left out, the permissions are the partner type's admin ones; a wrong shape is still refused.
      'POST permissions with permissions that are not a list',
      'POST',
      PERMISSIONS,
      { partner_type: 'carrier', partner: '5', name: 'Five Admin', email: 'five@example.com', permissions: 'all' },
      422,
      { permissions: { message: 'validation.type' } },
    ],
  ])('%s: a clean 4xx and nothing written', async (_label, method, path, payload, status, errors) => {
    const before = await footprint();
    const response = await call(operator, method, path, payload);
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.success).toBe(false);
    expect(typeof response.body.message).toBe('string');
    if (errors) expect(response.body.errors).toEqual(errors);
    expect(await footprint()).toEqual(before);
  });
});

describe('the end_user resource (spec 01 §7)', () => {
  const END_USER = 'webtool/identity_access/end_user';

  it('lists the users by role, partner and partner type, searched, ordered and paged as the users list', async () => {
    const byRole = await call(operator, 'GET', END_USER, { role_name: 'carrier_2_admin', partner_type: 'carrier' });
    expect(byRole.status, JSON.stringify(byRole.body)).toBe(200);
    // The demo's carrier2, and whoever earlier tests of this file gave that role: each holds it.
    const holders = byRole.body.data as User[];
    expect(holders.map((u) => u.username)).toContain('carrier2');
    expect(holders.filter((u) => u.role_name !== 'carrier_2_admin')).toEqual([]);
    const byPartner = await call(operator, 'GET', END_USER, {
      partner: '2',
      partner_type: 'carrier',
      search: 'CARRIER2',
    });
    expect((byPartner.body.data as User[]).map((u) => u.username)).toEqual(['carrier2']);
    const query = { order_by: 'username', order_by_dir: 'desc', limit: 2, offset: 1 };
    const page = await call(operator, 'GET', END_USER, query);
    const same = await call(operator, 'GET', USERS, query);
    expect(page.body).toEqual(same.body);
    expect((page.body.data as User[]).length).toBe(2);
    // A carrier reads its own users only, whatever partner it names.
    const own = await call(carrier, 'GET', END_USER, { partner: '2' });
    expect(own.body).toMatchObject({ data: [], total: 0 });
  });

  it.each([
    [{ order_by: 'password' }, 'gateway.unknown_field', 'Unknown field: password'],
    [{ order_by: 'name', order_by_dir: 'sideways' }, 'gateway.order_direction', 'order_by_dir must be asc or desc.'],
    [{ limit: '-1' }, 'gateway.whole_number_expected', 'limit must be a whole number of 0 or more.'],
    [{ offset: '-5' }, 'gateway.whole_number_expected', 'offset must be a whole number of 0 or more.'],
    [{ role_name: 'carrier_9_pirate' }, 'gateway.unknown_role', 'Unknown role: carrier_9_pirate'],
  ])('refuses the list query %j with 400', async (query, key, message) => {
    const { status, body } = await call(operator, 'GET', END_USER, query);
    expect(status).toBe(400);
    expect(body.message_key).toBe(key);
    expect(body.message).toBe(message);
  });

  it('creates, changes the role of and deletes a user by its role; a missing payload is refused and writes nothing', async () => {
    const before = await footprint();
    for (const method of ['POST', 'PATCH'] as const) {
      for (const payload of [undefined, {}]) {
        const refused = await call(operator, method, END_USER, payload);
        expect(refused.status).toBe(400);
        expect(refused.body.message_key).toBe('gateway.payload_required');
        expect(refused.body.message).toBe('The request has no payload: send the end_user fields as a JSON object.');
      }
    }
    expect(await footprint()).toEqual(before);

    const email = freshEmail('end.user');
    const created = await call(operator, 'POST', END_USER, { name: 'End User', email, role_name: 'carrier_1_admin' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = created.body.data as User;
    expect(user).toMatchObject({ email, role_name: 'carrier_1_admin', partner_type: 'carrier', partner: '1' });
    const unknownRole = await call(operator, 'PATCH', END_USER, { username: user.username, role_name: 'nobody_role' });
    expect(unknownRole.status).toBe(422);
    const changed = await call(operator, 'PATCH', END_USER, { username: user.username, role_name: 'carrier_2_admin' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ role_name: 'carrier_2_admin', partner: '2' });

    // DELETE names the role the user holds: a stale role is refused, the user kept.
    const stale = await call(operator, 'DELETE', END_USER, { username: user.username, role_name: 'carrier_1_admin' });
    expect(stale.status).toBe(409);
    expect(stale.body.message_key).toBe('gateway.end_user_role_changed');
    const noRole = await call(operator, 'DELETE', END_USER, { username: user.username });
    expect(noRole.status).toBe(400);
    expect(noRole.body.message).toBe('role_name is required.');
    expect((await call(operator, 'GET', END_USER, { search: email })).body.total).toBe(1);
    const deleted = await call(operator, 'DELETE', END_USER, { username: user.username, role_name: 'carrier_2_admin' });
    expect(deleted.status).toBe(200);
    expect((await call(operator, 'GET', END_USER, { search: email })).body.total).toBe(0);
    expect((await auditRows('identity_access/users', user.username)).map((row) => row.action)).toEqual([
      'create',
      'update',
      'delete',
    ]);
  });

  it('is refused to a caller who may not manage users, and writes nothing', async () => {
    const before = await footprint();
    const posted = await call(scout, 'POST', END_USER, {
      name: 'By Scout',
      email: freshEmail(),
      role_name: 'carrier_1_admin',
    });
    expect(posted.status).toBe(403);
    const patched = await call(scout, 'PATCH', END_USER, { username: 'carrier2', role_name: 'carrier_1_admin' });
    expect(patched.status).toBe(403);
    const deleted = await call(scout, 'DELETE', END_USER, { username: 'carrier2', role_name: 'carrier_2_admin' });
    expect(deleted.status).toBe(403);
    // A carrier manages its own users only: another carrier's user is not found.
    const other = await call(carrier, 'DELETE', END_USER, { username: 'carrier2', role_name: 'carrier_2_admin' });
    expect(other.status).toBe(404);
    expect(await footprint()).toEqual(before);
  });
});
