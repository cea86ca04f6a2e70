import Fastify, { type FastifyInstance } from 'fastify';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identitySettings as settings } from '../../server/config.ts';
import { migrate, type Db } from '../../server/db/adapter.ts';
import { openTestDb } from './support/test-db.ts';
import { createIdentity, type Identity } from '../../server/identity/index.ts';
import { cognitoClient, type Reply } from './support/cognito-client.ts';

const PASSWORD = 'Correct-Horse-9';

let db: Db;
let identity: Identity;
let app: FastifyInstance;
const clock = { now: Date.now() };
const advance = (seconds: number) => (clock.now += seconds * 1000);

let client: ReturnType<typeof cognitoClient>;
const call = (...args: Parameters<typeof client.call>) => client.call(...args);
const respond = (...args: Parameters<typeof client.respond>) => client.respond(...args);
const passwordStep = (login: string, password: string) => client.passwordStep(login, password);

async function latestCode(email: string): Promise<string> {
  const mails = (await identity.readOutbox()).filter((mail) => mail.to === email);
  return mails[mails.length - 1].code!;
}

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

async function signIn(username: string, password = PASSWORD) {
  const challenge = await passwordStep(username, password);
  expect(challenge.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  const done = await respond('CUSTOM_CHALLENGE', challenge.body.Session, {
    USERNAME: username,
    ANSWER: await latestCode(`${username}@example.com`),
  });
  expect(done.status).toBe(200);
  return { ...done.body.AuthenticationResult, RefreshToken: done.body.AuthenticationResult.RefreshToken! };
}

let userCount = 0;
async function newUser(options: { temporary?: boolean; groups?: string[] } = {}) {
  const username = `user${++userCount}`;
  const created = await identity.createUser({
    username,
    email: `${username}@example.com`,
    familyName: `Family ${userCount}`,
    groups: options.groups ?? ['SUPER_ADMIN', 'CARRIER'],
    password: options.temporary ? undefined : PASSWORD,
    temporary: options.temporary,
  });
  return { username, email: `${username}@example.com`, ...created };
}

function expectError(reply: Reply, type: string, message: string) {
  expect(reply.status).toBe(400);
  expect(reply.errorType?.split(':')[0]).toBe(type);
  expect(reply.body).toEqual({ __type: type, message });
}

beforeAll(async () => {
  db = await openTestDb();
  await migrate(db);
  identity = createIdentity(db, { local: true, now: () => clock.now, log: () => {} });
  app = Fastify();
  await identity.register(app);
  await app.ready();
  client = cognitoClient(app);
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('sign-in with SRP and an emailed code', () => {
  it('signs in by username or email and issues Cognito-shaped tokens', async () => {
    const user = await newUser();
    const challenge = await passwordStep(user.email.toUpperCase(), PASSWORD);
    expect(challenge.status).toBe(200);
    expect(challenge.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(challenge.body.ChallengeParameters).toMatchObject({
      USERNAME: user.username,
      CODE_DELIVERY_DESTINATION: 'u***@e***',
      message: 'CODE_SENT',
      attemptsLeft: '3',
    });

    const tokens = await signIn(user.username);
    const id = await identity.verifyIdToken(tokens.IdToken);
    expect(id).toMatchObject({
      'cognito:username': user.username,
      'cognito:groups': ['SUPER_ADMIN', 'CARRIER'],
      email: user.email,
      family_name: expect.stringMatching(/^Family/),
      token_use: 'id',
      aud: settings.userPoolClientId,
      iss: `https://cognito-idp.local/${settings.userPoolId}`,
    });
    expect(id.exp - id.iat).toBe(3600);
    const access = await identity.verifyAccessToken(tokens.AccessToken);
    expect(access).toMatchObject({
      username: user.username,
      token_use: 'access',
      client_id: settings.userPoolClientId,
    });
    expect(decodeProtectedHeader(tokens.IdToken)).toMatchObject({ alg: 'RS256' });
  });

  it('refuses a wrong password, and an unknown user with the same message', async () => {
    const user = await newUser();
    expectError(
      await passwordStep(user.username, 'Wrong-Password-1'),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    expectError(
      await passwordStep('nobody@example.com', PASSWORD),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
  });

  it('says a disabled user is disabled only after the right password', async () => {
    const user = await newUser();
    await identity.setEnabled(user.username, false);
    expectError(
      await passwordStep(user.username, 'Wrong-Password-1'),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    expectError(await passwordStep(user.username, PASSWORD), 'NotAuthorizedException', 'User is disabled.');
    await identity.setEnabled(user.username, true);
    await signIn(user.username);
  });

  it('lets the user retry a wrong code on a new session', async () => {
    const user = await newUser();
    const challenge = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    const retry = await respond('CUSTOM_CHALLENGE', challenge.body.Session, { ANSWER: wrongCode(code) });
    expect(retry.status).toBe(200);
    expect(retry.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(retry.body.ChallengeParameters).toMatchObject({ message: 'INVALID_CODE', attemptsLeft: '2' });
    expect(retry.body.Session).not.toBe(challenge.body.Session);

    expectError(
      await respond('CUSTOM_CHALLENGE', challenge.body.Session, { ANSWER: code }),
      'NotAuthorizedException',
      'Invalid session for the user.',
    );
    const done = await respond('CUSTOM_CHALLENGE', retry.body.Session, { ANSWER: code });
    expect(done.body.AuthenticationResult).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 3600 });
    expect(done.body.AuthenticationResult.NewDeviceMetadata).toBeUndefined();
  });

  it('blocks the account for 2 minutes on the third wrong code in a row', async () => {
    const user = await newUser();
    let reply = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    for (let attempt = 1; attempt <= 2; attempt++) {
      reply = await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: wrongCode(code) });
      expect(reply.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    }
    reply = await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: wrongCode(code) });
    expectError(reply, 'NotAuthorizedException', 'Account is blocked for 2 minutes.');

    expectError(
      await passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Account is blocked for 2 minutes.',
    );
    advance(60);
    expectError(
      await passwordStep(user.email, PASSWORD),
      'NotAuthorizedException',
      'Account is blocked for 2 minutes.',
    );
    advance(61);
    await signIn(user.username);
  });

  it('ends a code block through the local-only end-block route, as if its minutes had passed', async () => {
    const user = await newUser();
    let reply = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    for (let attempt = 1; attempt <= 3; attempt++) {
      reply = await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: wrongCode(code) });
    }
    expectError(reply, 'NotAuthorizedException', 'Account is blocked for 2 minutes.');
    const refused = await app.inject({ method: 'POST', url: '/__dev/identity/end-block', payload: {} });
    expect(refused.statusCode).toBe(400);
    const ended = await app.inject({
      method: 'POST',
      url: '/__dev/identity/end-block',
      payload: { username: user.username },
    });
    expect(ended.statusCode).toBe(204);
    await signIn(user.username);

    const production = Fastify();
    await createIdentity(db, { local: false, log: () => {} }).register(production);
    const payload = { username: user.username };
    expect((await production.inject({ method: 'POST', url: '/__dev/identity/end-block', payload })).statusCode).toBe(
      404,
    );
    await production.close();
  });

  it('keeps the sign-in open through a code block: after it, a new code signs in', async () => {
    const user = await newUser();
    let reply = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    for (let attempt = 1; attempt <= 2; attempt++) {
      reply = await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: wrongCode(code) });
    }
    const session = reply.body.Session;
    expectError(
      await respond('CUSTOM_CHALLENGE', session, { ANSWER: wrongCode(code) }),
      'NotAuthorizedException',
      'Account is blocked for 2 minutes.',
    );
    advance(60);
    expectError(
      await respond('CUSTOM_CHALLENGE', session, { ANSWER: 'RESEND' }),
      'NotAuthorizedException',
      'Account is blocked for 2 minutes.',
    );
    advance(61);
    // The code sent before the block is void: it counts as a wrong one, not as an ended sign-in.
    const voided = await respond('CUSTOM_CHALLENGE', session, { ANSWER: code });
    expect(voided.body.ChallengeParameters).toMatchObject({ message: 'INVALID_CODE', attemptsLeft: '2' });
    const resent = await respond('CUSTOM_CHALLENGE', voided.body.Session, { ANSWER: 'RESEND' });
    expect(resent.body.ChallengeParameters).toMatchObject({ message: 'OTP_REQUEST_PROCESSED' });
    const done = await respond('CUSTOM_CHALLENGE', resent.body.Session, { ANSWER: await latestCode(user.email) });
    expect(done.body.AuthenticationResult).toMatchObject({ TokenType: 'Bearer' });
  });

  it('ends the kept sign-in when nobody comes back within the code lifetime after the block', async () => {
    const user = await newUser();
    let reply = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const session = reply.body.Session;
      reply = await respond('CUSTOM_CHALLENGE', session, { ANSWER: wrongCode(code) });
      if (attempt === 3) reply.body.Session = session;
    }
    advance(120 + 301);
    expectError(
      await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: 'RESEND' }),
      'NotAuthorizedException',
      'Invalid session for the user, session is expired.',
    );
  });

  it('counts wrong codes across sign-in attempts and resets the count on success', async () => {
    const user = await newUser();
    let reply = await passwordStep(user.username, PASSWORD);
    const first = await latestCode(user.email);
    await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: wrongCode(first) });
    reply = await passwordStep(user.username, PASSWORD);
    expect(reply.body.ChallengeParameters.attemptsLeft).toBe('2');
    await respond('CUSTOM_CHALLENGE', reply.body.Session, { ANSWER: await latestCode(user.email) });
    reply = await passwordStep(user.username, PASSWORD);
    expect(reply.body.ChallengeParameters.attemptsLeft).toBe('3');
  });

  it('expires the code after 5 minutes', async () => {
    const user = await newUser();
    const challenge = await passwordStep(user.username, PASSWORD);
    const code = await latestCode(user.email);
    advance(301);
    expectError(
      await respond('CUSTOM_CHALLENGE', challenge.body.Session, { ANSWER: code }),
      'NotAuthorizedException',
      'Invalid session for the user, session is expired.',
    );
  });

  it('resends a fresh code on ANSWER RESEND', async () => {
    const user = await newUser();
    const challenge = await passwordStep(user.username, PASSWORD);
    const first = await latestCode(user.email);
    const resent = await respond('CUSTOM_CHALLENGE', challenge.body.Session, { ANSWER: 'RESEND' });
    expect(resent.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(resent.body.ChallengeParameters.message).toContain('OTP_REQUEST_PROCESSED');
    const second = await latestCode(user.email);
    const answer = first === second ? wrongCode(second) : first;
    const retry = await respond('CUSTOM_CHALLENGE', resent.body.Session, { ANSWER: answer });
    expect(retry.body.ChallengeParameters.message).toBe('INVALID_CODE');
    const done = await respond('CUSTOM_CHALLENGE', retry.body.Session, { ANSWER: second });
    expect(done.body.AuthenticationResult.IdToken).toBeTruthy();
  });

  it('rejects an unknown session', async () => {
    expectError(
      await respond('CUSTOM_CHALLENGE', 'made-up', { ANSWER: '123456' }),
      'NotAuthorizedException',
      'Invalid session for the user.',
    );
  });
});

describe('wrong passwords, throttled as Cognito does', () => {
  const limits = settings.passwordAttempts;
  let addresses = 0;
  /** A client of its own address, so that no other test's failures count. */
  const fromNewAddress = () => cognitoClient(app, `192.0.2.${++addresses}`);

  it('locks a user out after the free failures, for twice as long each time, and not the right password either', async () => {
    const user = await newUser();
    const office = fromNewAddress();
    for (let failure = 1; failure <= limits.freeFailuresPerUser; failure++) {
      expectError(
        await office.passwordStep(user.username, 'Wrong-Password-1'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    }
    expect((await office.passwordStep(user.username, PASSWORD)).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    // That success cleared the count: the free failures again, then the first lockout.
    for (let failure = 1; failure <= limits.freeFailuresPerUser + 1; failure++) {
      expectError(
        await office.passwordStep(user.username, 'Wrong-Password-1'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    }
    expectError(
      await office.passwordStep(user.email, PASSWORD),
      'NotAuthorizedException',
      'Password attempts exceeded',
    );
    // Per user: another address is refused too.
    expectError(
      await fromNewAddress().passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Password attempts exceeded',
    );
    advance(limits.firstLockoutSeconds);
    expectError(
      await office.passwordStep(user.username, 'Wrong-Password-1'),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    advance(limits.firstLockoutSeconds);
    expectError(
      await office.passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Password attempts exceeded',
    );
    advance(limits.firstLockoutSeconds);
    expect((await office.passwordStep(user.username, PASSWORD)).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  });

  it('grows the lockout up to its cap', async () => {
    const { lockoutSeconds } = await import('../../server/identity/password-attempts.ts');
    const free = limits.freeFailuresPerUser;
    expect(lockoutSeconds(free, free)).toBe(0);
    expect(lockoutSeconds(free + 1, free)).toBe(limits.firstLockoutSeconds);
    expect(lockoutSeconds(free + 2, free)).toBe(2 * limits.firstLockoutSeconds);
    expect(lockoutSeconds(free + 3, free)).toBe(4 * limits.firstLockoutSeconds);
    expect(lockoutSeconds(free + 30, free)).toBe(limits.maxLockoutSeconds);
  });

  it('locks out a client address trying many users, whoever it tries next', async () => {
    const user = await newUser();
    const sprayer = fromNewAddress();
    for (let failure = 1; failure <= limits.freeFailuresPerAddress + 1; failure++) {
      expectError(
        await sprayer.passwordStep(`guess${failure}@example.com`, PASSWORD),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    }
    expectError(
      await sprayer.passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Password attempts exceeded',
    );
    // The user from elsewhere is not locked out.
    expect((await fromNewAddress().passwordStep(user.username, PASSWORD)).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  });

  it('locks out an unknown login as it would a known user', async () => {
    const office = fromNewAddress();
    for (let failure = 1; failure <= limits.freeFailuresPerUser + 1; failure++) {
      await office.passwordStep('nobody-here', PASSWORD);
    }
    expectError(
      await office.passwordStep('nobody-here', PASSWORD),
      'NotAuthorizedException',
      'Password attempts exceeded',
    );
  });

  it('keeps a lockout across a restart', async () => {
    const user = await newUser();
    const office = fromNewAddress();
    for (let failure = 1; failure <= limits.freeFailuresPerUser + 1; failure++) {
      await office.passwordStep(user.username, 'Wrong-Password-1');
    }
    const restarted = Fastify();
    await createIdentity(db, { local: true, now: () => clock.now, log: () => {} }).register(restarted);
    await restarted.ready();
    try {
      expectError(
        await cognitoClient(restarted).passwordStep(user.username, PASSWORD),
        'NotAuthorizedException',
        'Password attempts exceeded',
      );
    } finally {
      await restarted.close();
    }
  });
});

describe('temporary passwords', () => {
  it('emails a temporary password and requires a new one that meets the policy', async () => {
    const user = await newUser({ temporary: true });
    const mails = await identity.readOutbox();
    expect(mails[mails.length - 1]).toMatchObject({
      to: user.email,
      subject: 'Your webtool login',
      code: user.temporaryPassword,
    });

    const challenge = await passwordStep(user.username, user.temporaryPassword!);
    expect(challenge.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect(JSON.parse(challenge.body.ChallengeParameters.requiredAttributes)).toEqual([]);

    const weak = await respond('NEW_PASSWORD_REQUIRED', challenge.body.Session, { NEW_PASSWORD: 'weakpassword' });
    expect(weak.errorType?.split(':')[0]).toBe('InvalidPasswordException');
    expect(weak.body.message).toMatch(/^Password does not conform to policy/);

    const next = await respond('NEW_PASSWORD_REQUIRED', challenge.body.Session, { NEW_PASSWORD: 'Brand-New-Pass1' });
    expect(next.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    const done = await respond('CUSTOM_CHALLENGE', next.body.Session, { ANSWER: await latestCode(user.email) });
    expect(done.body.AuthenticationResult.IdToken).toBeTruthy();

    const { rows } = await db.query<{ status: string; invalid_otp_count: number }>(
      'SELECT status, invalid_otp_count FROM identity_users WHERE username = $1',
      [user.username],
    );
    expect(rows[0]).toEqual({ status: 'CONFIRMED', invalid_otp_count: 95 });
    expect((await passwordStep(user.username, 'Brand-New-Pass1')).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  });

  it('refuses a temporary password older than 14 days', async () => {
    const user = await newUser({ temporary: true });
    advance(14 * 24 * 3600 + 1);
    expectError(
      await passwordStep(user.username, user.temporaryPassword!),
      'NotAuthorizedException',
      'Temporary password has expired and must be reset by an administrator.',
    );
    const { temporaryPassword } = await identity.resetPassword(user.username);
    expect((await passwordStep(user.username, temporaryPassword)).body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  });
});

describe('tokens', () => {
  it('refreshes with GetTokensFromRefreshToken and REFRESH_TOKEN_AUTH until revoked', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    advance(5);
    const refreshed = await call('GetTokensFromRefreshToken', {
      ClientId: settings.userPoolClientId,
      RefreshToken: tokens.RefreshToken,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.AuthenticationResult.RefreshToken).toBeUndefined();
    const id = await identity.verifyIdToken(refreshed.body.AuthenticationResult.IdToken);
    expect(id.iat).toBeGreaterThan(decodeJwt(tokens.IdToken).iat!);
    expect(id.auth_time).toBe(decodeJwt(tokens.IdToken).auth_time);

    const viaInitiate = await call('InitiateAuth', {
      ClientId: settings.userPoolClientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
    });
    expect(viaInitiate.body.AuthenticationResult.AccessToken).toBeTruthy();

    await call('RevokeToken', { ClientId: settings.userPoolClientId, Token: tokens.RefreshToken });
    const refresh = (token: string) =>
      call('GetTokensFromRefreshToken', { ClientId: settings.userPoolClientId, RefreshToken: token });
    expectError(await refresh(tokens.RefreshToken), 'NotAuthorizedException', 'Invalid Refresh Token');
    expectError(await refresh('garbage'), 'NotAuthorizedException', 'Invalid Refresh Token');
    expectError(
      await call('GetUser', { AccessToken: tokens.AccessToken }),
      'NotAuthorizedException',
      'Access Token has been revoked',
    );
  });

  it('refuses to refresh for a disabled user', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    await identity.setEnabled(user.username, false);
    const reply = await call('GetTokensFromRefreshToken', {
      ClientId: settings.userPoolClientId,
      RefreshToken: tokens.RefreshToken,
    });
    expectError(reply, 'NotAuthorizedException', 'Invalid Refresh Token');
  });

  it('rejects expired, tampered and wrong-use tokens', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    const [header, payload, signature] = tokens.IdToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['SUPER_ADMIN', 'ROOT'] })).toString(
      'base64url',
    );
    await expect(identity.verifyIdToken(`${header}.${forged}.${signature}`)).rejects.toThrow();
    await expect(identity.verifyIdToken(tokens.AccessToken)).rejects.toThrow();
    await expect(identity.verifyAccessToken(tokens.IdToken)).rejects.toThrow();
    // Checked once while valid (this process then knows its signature), and still refused once expired.
    await expect(identity.verifyIdToken(tokens.IdToken)).resolves.toMatchObject({ token_use: 'id' });
    await expect(identity.verifyAccessToken(tokens.AccessToken)).resolves.toMatchObject({ token_use: 'access' });
    await expect(identity.verifyAccessToken(tokens.IdToken)).rejects.toThrow();
    advance(3601);
    await expect(identity.verifyIdToken(tokens.IdToken)).rejects.toThrow(/exp/);
    expectError(
      await call('GetUser', { AccessToken: tokens.AccessToken }),
      'NotAuthorizedException',
      'Access Token has expired',
    );
  });

  it('keeps its signing key across a restart and publishes it as JWKS', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    const restarted = createIdentity(db, { local: true, now: () => clock.now, log: () => {} });
    await expect(restarted.verifyIdToken(tokens.IdToken)).resolves.toMatchObject({ sub: expect.any(String) });
    const jwks = (await app.inject({ method: 'GET', url: settings.jwksPath })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0].kid).toBe(decodeProtectedHeader(tokens.IdToken).kid);
    expect(jwks.keys[0].d).toBeUndefined();
  });
});

describe('account operations', () => {
  it('returns the user attributes and changes the password with the old one', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    const me = await call('GetUser', { AccessToken: tokens.AccessToken });
    expect(me.body.Username).toBe(user.username);
    expect(me.body.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: user.email },
        { Name: 'family_name', Value: expect.any(String) },
        { Name: 'sub', Value: expect.any(String) },
      ]),
    );
    const change = (previous: string, proposed: string) =>
      call('ChangePassword', {
        AccessToken: tokens.AccessToken,
        PreviousPassword: previous,
        ProposedPassword: proposed,
      });
    expectError(
      await change('Not-The-Old-1', 'Another-Pass-2'),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    expect((await change(PASSWORD, 'short')).errorType).toMatch(/^InvalidPasswordException/);
    expect((await change(PASSWORD, 'Another-Pass-2')).status).toBe(200);
    expectError(
      await passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
    expect((await passwordStep(user.username, 'Another-Pass-2')).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
  });

  it('resets a forgotten password with an emailed code, saying nothing about unknown users', async () => {
    const user = await newUser();
    const forgot = (login: string) => call('ForgotPassword', { ClientId: settings.userPoolClientId, Username: login });
    const known = await forgot(user.username);
    const unknown = await forgot('ghost@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.body.CodeDeliveryDetails)).toEqual(Object.keys(known.body.CodeDeliveryDetails));

    const code = await latestCode(user.email);
    const confirm = (answer: string, password: string) =>
      call('ConfirmForgotPassword', {
        ClientId: settings.userPoolClientId,
        Username: user.email,
        ConfirmationCode: answer,
        Password: password,
      });
    expectError(
      await confirm(wrongCode(code), 'Reset-Pass-33'),
      'CodeMismatchException',
      'Invalid verification code provided, please try again.',
    );
    expect((await confirm(code, 'nopolicy')).errorType).toMatch(/^InvalidPasswordException/);
    expect((await confirm(code, 'Reset-Pass-33')).status).toBe(200);
    expect((await passwordStep(user.username, 'Reset-Pass-33')).body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expectError(
      await passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
  });

  it('keeps admin changes: groups, deletion', async () => {
    const user = await newUser({ groups: ['PARTNER_ADMIN'] });
    await identity.updateUser(user.username, { groups: ['VIEWER', 'PARTNER_ADMIN'] });
    const tokens = await signIn(user.username);
    expect((await identity.verifyIdToken(tokens.IdToken))['cognito:groups']).toEqual(['VIEWER', 'PARTNER_ADMIN']);
    await expect(
      identity.createUser({
        username: 'other',
        email: user.email.toUpperCase(),
        familyName: 'X',
        groups: [],
        password: PASSWORD,
      }),
    ).rejects.toThrow('An account with the given email already exists.');
    await identity.deleteUser(user.username);
    expect(await identity.getUser(user.username)).toBeNull();
    expectError(
      await passwordStep(user.username, PASSWORD),
      'NotAuthorizedException',
      'Incorrect username or password.',
    );
  });
});

describe('identity pool', () => {
  it('gives a stable identity and stored credentials for a valid id token only', async () => {
    const user = await newUser();
    const tokens = await signIn(user.username);
    const logins = { [`cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`]: tokens.IdToken };

    expectError(
      await call('GetId', { IdentityPoolId: settings.identityPoolId }, 'identity'),
      'NotAuthorizedException',
      'Unauthenticated access is not supported for this identity pool.',
    );
    const first = await call('GetId', { IdentityPoolId: settings.identityPoolId, Logins: logins }, 'identity');
    const second = await call('GetId', { IdentityPoolId: settings.identityPoolId, Logins: logins }, 'identity');
    expect(first.body.IdentityId).toMatch(new RegExp(`^${settings.region}:[0-9a-f-]{36}$`));
    expect(second.body.IdentityId).toBe(first.body.IdentityId);

    const issued = await call(
      'GetCredentialsForIdentity',
      { IdentityId: first.body.IdentityId, Logins: logins },
      'identity',
    );
    const { AccessKeyId, SecretKey, SessionToken, Expiration } = issued.body.Credentials;
    expect(typeof Expiration).toBe('number');
    expect(Expiration * 1000).toBeCloseTo(clock.now + 3600_000, -3);
    expect(await identity.findCredentials(AccessKeyId)).toEqual({
      secretAccessKey: SecretKey,
      sessionToken: SessionToken,
      identityId: first.body.IdentityId,
      username: user.username,
      expiresAt: new Date(Expiration * 1000),
    });
    expect(await identity.findCredentials('ASIANOTISSUED')).toBeNull();
    // Issued credentials never change: a process reads them once, and an unknown key every time.
    const reads: string[] = [];
    const counted: Db = { ...db, query: (sql, params) => (reads.push(sql), db.query(sql, params)) };
    const keeping = createIdentity(counted, { local: true, now: () => clock.now, log: () => {} });
    reads.length = 0;
    const once = await keeping.findCredentials(AccessKeyId);
    expect(await keeping.findCredentials(AccessKeyId)).toEqual(once);
    expect(once).toEqual(await identity.findCredentials(AccessKeyId));
    expect(await keeping.findCredentials('ASIANOTISSUED')).toBeNull();
    expect(await keeping.findCredentials('ASIANOTISSUED')).toBeNull();
    expect(reads.filter((sql) => sql.includes('identity_credentials'))).toHaveLength(3);

    const other = await newUser();
    const otherTokens = await signIn(other.username);
    const foreign = await call(
      'GetCredentialsForIdentity',
      { IdentityId: first.body.IdentityId, Logins: { [Object.keys(logins)[0]]: otherTokens.IdToken } },
      'identity',
    );
    expect(foreign.errorType).toMatch(/^NotAuthorizedException/);
    const garbage = await call(
      'GetId',
      { IdentityPoolId: settings.identityPoolId, Logins: { [Object.keys(logins)[0]]: 'x.y.z' } },
      'identity',
    );
    expect(garbage.errorType).toMatch(/^NotAuthorizedException/);
  });
});

describe('protocol', () => {
  const post = (payload: string, target = 'AWSCognitoIdentityProviderService.InitiateAuth') =>
    app.inject({
      method: 'POST',
      url: settings.userPoolPath,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
      payload,
    });

  it('answers malformed JSON, unknown targets and oversized bodies with clean 400s', async () => {
    const malformed = await post('{"ClientId": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().__type).toBe('SerializationException');

    const unknown = await post('{}', 'AWSCognitoIdentityProviderService.AdminDeleteUser');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.headers['x-amzn-errortype']).toMatch(/^UnknownOperationException/);

    expect((await post('{}', 'toString')).statusCode).toBe(400);
    expect((await post('[1]')).json().__type).toBe('SerializationException');
    expect((await post(JSON.stringify({ pad: 'x'.repeat(70_000) }))).statusCode).toBe(400);

    const missing = await post(JSON.stringify({ ClientId: settings.userPoolClientId }));
    expect(missing.json().__type).toBe('InvalidParameterException');
  });

  it('lists the outbox newest last in local mode, and not at all otherwise', async () => {
    await identity.sendEmail({ to: 'a@example.com', subject: 'first', body: 'one' });
    await identity.sendEmail({ to: 'a@example.com', subject: 'second', body: 'two', code: '123456' });
    const listed = (await app.inject({ method: 'GET', url: '/__dev/outbox' })).json();
    expect(listed.slice(-2)).toMatchObject([
      { to: 'a@example.com', subject: 'first', body: 'one', code: null },
      { to: 'a@example.com', subject: 'second', body: 'two', code: '123456', sentAt: expect.any(String) },
    ]);

    const production = Fastify();
    await createIdentity(db, { local: false, log: () => {} }).register(production);
    expect((await production.inject({ method: 'GET', url: '/__dev/outbox' })).statusCode).toBe(404);
    await production.close();
  });
});
