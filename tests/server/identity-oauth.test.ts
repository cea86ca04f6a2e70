/** The hosted-UI subset of the identity stand-in: authorization code with PKCE, refresh, revoke, logout. */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identitySettings as settings } from '../../server/config.ts';
import { migrate, type Db } from '../../server/db/adapter.ts';
import { openTestDb } from './support/test-db.ts';
import { createIdentity, type Identity } from '../../server/identity/index.ts';
import { s256Challenge } from '../../server/identity/oauth.ts';

const PASSWORD = 'Corporate-Pass-7';
const HOST = 'localhost:8080';
const CALLBACK = `http://${HOST}/callback`;
const CLIENT_ID = settings.userPoolClientId;

let db: Db;
let identity: Identity;
let app: FastifyInstance;
const clock = { now: Date.now() };
const advance = (seconds: number) => (clock.now += seconds * 1000);

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

function authorizeQuery(challenge: string, overrides: Record<string, string | undefined> = {}) {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

async function getForm(query: Record<string, string>) {
  return app.inject({
    method: 'GET',
    url: `${settings.oauthPath}/oauth2/authorize?${form(query)}`,
    headers: { host: HOST },
  });
}

async function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `${settings.oauthPath}${path}`,
    headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form(fields),
  });
}

async function authorize(username: string, challenge: string, password = PASSWORD) {
  return postForm('/oauth2/authorize', { ...authorizeQuery(challenge), username, password });
}

/** Signs in on the hosted form; returns the code, the state and the hosted-UI cookie. */
async function codeFor(username: string, challenge: string) {
  const reply = await authorize(username, challenge);
  expect(reply.statusCode).toBe(302);
  const location = new URL(String(reply.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
  const cookie = String(reply.headers['set-cookie']).split(';')[0];
  return { code: location.searchParams.get('code')!, state: location.searchParams.get('state'), cookie };
}

async function exchange(code: string, verifier: string, overrides: Record<string, string> = {}) {
  return postForm('/oauth2/token', {
    grant_type: 'authorization_code',
    client_id: CLIENT_ID,
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    ...overrides,
  });
}

const refresh = (refreshToken: string) =>
  postForm('/oauth2/token', { grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: refreshToken });

function expectOAuthError(reply: { statusCode: number; json: () => unknown }, error: string, description?: RegExp) {
  expect(reply.statusCode).toBe(400);
  const body = reply.json() as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  if (description) expect(body.error_description).toMatch(description);
}

let userCount = 0;
async function newUser(groups: string[] = ['carrier_1_admin'], familyName = 'carrier') {
  const username = `corp${++userCount}`;
  await identity.createUser({ username, email: `${username}@corp.test`, familyName, groups, password: PASSWORD });
  return username;
}

async function signedIn(username: string) {
  const { verifier, challenge } = pkce();
  const { code, cookie } = await codeFor(username, challenge);
  const reply = await exchange(code, verifier);
  expect(reply.statusCode).toBe(200);
  const tokens = reply.json() as { id_token: string; access_token: string; refresh_token: string };
  return { ...tokens, cookie };
}

beforeAll(async () => {
  db = await openTestDb();
  await migrate(db);
  identity = createIdentity(db, { local: true, now: () => clock.now, log: () => {} });
  app = Fastify();
  await identity.register(app);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('authorize', () => {
  it('renders a script-free sign-in form carrying the request', async () => {
    const { challenge } = pkce();
    const reply = await getForm(authorizeQuery(challenge, { state: 'a"<b>' }));
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).not.toMatch(/<script/i);
    expect(reply.body).toContain(`<form method="post" action="${settings.oauthPath}/oauth2/authorize">`);
    expect(reply.body).toContain(`name="code_challenge" value="${challenge}"`);
    expect(reply.body).toContain('name="state" value="a&quot;&lt;b&gt;"');
    expect(reply.body).toContain('<label for="password">Password</label>');
  });

  it('redirects with a code and the state after the right password', async () => {
    const username = await newUser();
    const { challenge } = pkce();
    const reply = await authorize(username, challenge);
    expect(reply.statusCode).toBe(302);
    const location = new URL(String(reply.headers.location));
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(String(reply.headers['set-cookie'])).toMatch(/^wt_identity_session=[^;]+; Path=\/__identity; HttpOnly/);
  });

  it('accepts the email as the username', async () => {
    const username = await newUser();
    const { challenge } = pkce();
    const reply = await authorize(`${username}@CORP.test`, challenge);
    expect(reply.statusCode).toBe(302);
  });

  it('shows the form again on a wrong password or an unknown user, without a code', async () => {
    const username = await newUser();
    const { challenge } = pkce();
    for (const [login, password] of [
      [username, 'Wrong-Pass-1'],
      ['nobody', PASSWORD],
    ]) {
      const reply = await authorize(login, challenge, password);
      expect(reply.statusCode).toBe(400);
      expect(reply.headers.location).toBeUndefined();
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(reply.body).toContain('<p class="error" role="alert">Incorrect username or password.</p>');
      expect(reply.body).toContain(`value="${login}"`);
    }
  });

  it('locks a user out after wrong passwords, as the user-pool sign-in does, and lets them in after', async () => {
    const username = await newUser();
    const { challenge } = pkce();
    const free = settings.passwordAttempts.freeFailuresPerUser;
    for (let failure = 1; failure <= free + 1; failure++) {
      expect((await authorize(username, challenge, 'Wrong-Pass-1')).body).toContain('Incorrect username or password.');
    }
    const locked = await authorize(username, challenge);
    expect(locked.statusCode).toBe(400);
    expect(locked.headers.location).toBeUndefined();
    expect(locked.body).toContain('<p class="error" role="alert">Password attempts exceeded</p>');
    advance(settings.passwordAttempts.firstLockoutSeconds);
    await codeFor(username, challenge);
  });

  it('refuses a disabled user after the right password', async () => {
    const username = await newUser();
    await identity.setEnabled(username, false);
    const { challenge } = pkce();
    const reply = await authorize(username, challenge);
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain('User is disabled.');
  });

  it('accepts only this origin /callback as redirect_uri', async () => {
    const { challenge } = pkce();
    for (const redirect of [
      'https://evil.example/callback',
      `http://${HOST}/callback/../login`,
      `http://${HOST}/login`,
      `http://localhost:9999/callback`,
      `${CALLBACK}?x=1`,
    ]) {
      expectOAuthError(
        await getForm(authorizeQuery(challenge, { redirect_uri: redirect })),
        'invalid_request',
        /redirect_uri/,
      );
      const posted = await postForm('/oauth2/authorize', {
        ...authorizeQuery(challenge, { redirect_uri: redirect }),
        username: 'x',
        password: PASSWORD,
      });
      expectOAuthError(posted, 'invalid_request', /redirect_uri/);
    }
    expectOAuthError(await getForm(authorizeQuery(challenge, { redirect_uri: undefined })), 'invalid_request');
  });

  it('requires a S256 code challenge, response_type=code and this client', async () => {
    const { challenge } = pkce();
    expectOAuthError(await getForm(authorizeQuery(challenge, { code_challenge: undefined })), 'invalid_request');
    expectOAuthError(await getForm(authorizeQuery(challenge, { code_challenge_method: undefined })), 'invalid_request');
    expectOAuthError(await getForm(authorizeQuery(challenge, { code_challenge_method: 'plain' })), 'invalid_request');
    expectOAuthError(await getForm(authorizeQuery('short')), 'invalid_request', /code_challenge/);
    expectOAuthError(await getForm(authorizeQuery(challenge, { response_type: 'token' })), 'unsupported_response_type');
    expectOAuthError(await getForm(authorizeQuery(challenge, { client_id: 'other' })), 'invalid_client');
    const repeated = await app.inject({
      method: 'GET',
      url: `${settings.oauthPath}/oauth2/authorize?${form(authorizeQuery(challenge))}&state=again`,
      headers: { host: HOST },
    });
    expectOAuthError(repeated, 'invalid_request', /repeated/);
  });
});

describe('token: authorization_code', () => {
  it('exchanges a code for Cognito-shaped tokens of the user', async () => {
    const username = await newUser(['carrier_1_admin'], 'carrier');
    const { verifier, challenge } = pkce();
    const { code, state } = await codeFor(username, challenge);
    expect(state).toBe('state-123');
    const reply = await exchange(code, verifier);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = reply.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'refresh_token', 'token_type']);
    const id = await identity.verifyIdToken(body.id_token);
    expect(id).toMatchObject({
      'cognito:username': username,
      'cognito:groups': ['carrier_1_admin'],
      family_name: 'carrier',
      aud: CLIENT_ID,
    });
    const access = await identity.verifyAccessToken(body.access_token);
    expect(access.sub).toBe(id.sub);
    expect(access.origin_jti).toBe(id.origin_jti);
  });

  it('issues an id token without cognito:groups for a user with no group', async () => {
    const username = await newUser([], 'carrier');
    const tokens = await signedIn(username);
    const id = await identity.verifyIdToken(tokens.id_token);
    expect(id['cognito:groups']).toBeUndefined();
  });

  it('refuses a wrong code_verifier, and the code is then used up', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    expectOAuthError(await exchange(code, pkce().verifier), 'invalid_grant', /code_verifier/);
    expectOAuthError(await exchange(code, verifier), 'invalid_grant', /already been used/);
  });

  it('refuses a malformed code_verifier', async () => {
    const username = await newUser();
    const { challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    expectOAuthError(await exchange(code, 'too-short'), 'invalid_grant', /code_verifier/);
  });

  it('answers a code once; a replay revokes the tokens it produced', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    const first = await exchange(code, verifier);
    expect(first.statusCode).toBe(200);
    expect((await refresh(first.json().refresh_token)).statusCode).toBe(200);

    expectOAuthError(await exchange(code, verifier), 'invalid_grant', /already been used/);
    expectOAuthError(await refresh(first.json().refresh_token), 'invalid_grant', /Invalid Refresh Token/);
  });

  it('expires a code after 5 minutes', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    advance(settings.authorizationCodeTtl + 1);
    expectOAuthError(await exchange(code, verifier), 'invalid_grant', /expired/);
  });

  it('still accepts a code just before 5 minutes', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    advance(settings.authorizationCodeTtl - 5);
    expect((await exchange(code, verifier)).statusCode).toBe(200);
  });

  it('requires the redirect_uri of the authorization request', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    expectOAuthError(
      await exchange(code, verifier, { redirect_uri: 'https://evil.example/callback' }),
      'invalid_grant',
      /redirect_uri/,
    );
  });

  it('refuses unknown codes, other clients, other grants, missing fields and non-form bodies', async () => {
    const { verifier } = pkce();
    expectOAuthError(await exchange('nope', verifier), 'invalid_grant', /Invalid authorization code/);
    expectOAuthError(await exchange('nope', verifier, { client_id: 'other' }), 'invalid_client');
    expectOAuthError(await exchange('nope', verifier, { grant_type: 'password' }), 'unsupported_grant_type');
    expectOAuthError(
      await postForm('/oauth2/token', { grant_type: 'authorization_code', client_id: CLIENT_ID }),
      'invalid_request',
      /code/,
    );
    const json = await app.inject({
      method: 'POST',
      url: `${settings.oauthPath}/oauth2/token`,
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: 'x' }),
    });
    expectOAuthError(json, 'invalid_request');
  });

  it('refuses the exchange when the user was disabled in between', async () => {
    const username = await newUser();
    const { verifier, challenge } = pkce();
    const { code } = await codeFor(username, challenge);
    await identity.setEnabled(username, false);
    expectOAuthError(await exchange(code, verifier), 'invalid_grant');
  });
});

describe('token: refresh_token, revoke and logout', () => {
  it('refreshes the id and access tokens with the current profile and keeps the refresh token', async () => {
    const username = await newUser(['carrier_1_admin'], 'carrier');
    const tokens = await signedIn(username);
    advance(3700);
    await identity.updateUser(username, { groups: ['carrier_2_admin'] });
    const reply = await refresh(tokens.refresh_token);
    expect(reply.statusCode).toBe(200);
    const body = reply.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'id_token', 'token_type']);
    const id = await identity.verifyIdToken(body.id_token);
    expect(id['cognito:groups']).toEqual(['carrier_2_admin']);
    expect(id.exp * 1000).toBeGreaterThan(clock.now + 3500 * 1000);
    const old = await identity.verifyIdToken(tokens.id_token).catch((error: Error) => error);
    expect(old).toBeInstanceOf(Error);
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(200);
  });

  it('refuses unknown, expired and other clients refresh tokens', async () => {
    const username = await newUser();
    const tokens = await signedIn(username);
    expectOAuthError(await refresh('unknown'), 'invalid_grant', /Invalid Refresh Token/);
    expectOAuthError(
      await postForm('/oauth2/token', {
        grant_type: 'refresh_token',
        client_id: 'other',
        refresh_token: tokens.refresh_token,
      }),
      'invalid_client',
    );
    advance(settings.refreshTokenTtl + 1);
    expectOAuthError(await refresh(tokens.refresh_token), 'invalid_grant', /Invalid Refresh Token/);
  });

  it('revokes a refresh token', async () => {
    const username = await newUser();
    const tokens = await signedIn(username);
    const revoked = await postForm('/oauth2/revoke', { token: tokens.refresh_token, client_id: CLIENT_ID });
    expect(revoked.statusCode).toBe(200);
    expectOAuthError(await refresh(tokens.refresh_token), 'invalid_grant');
  });

  it('logs out to this origin /callback and revokes what the hosted-UI session issued', async () => {
    const username = await newUser();
    const ended = await signedIn(username);
    const other = await signedIn(username);
    const reply = await app.inject({
      method: 'GET',
      url: `${settings.oauthPath}/logout?${form({ client_id: CLIENT_ID, logout_uri: CALLBACK })}`,
      headers: { host: HOST, cookie: `theme=dark; ${ended.cookie}` },
    });
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe(CALLBACK);
    expect(String(reply.headers['set-cookie'])).toMatch(/^wt_identity_session=; .*Max-Age=0/);
    expectOAuthError(await refresh(ended.refresh_token), 'invalid_grant');
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('logs out without a hosted-UI session too', async () => {
    const reply = await app.inject({
      method: 'GET',
      url: `${settings.oauthPath}/logout?${form({ client_id: CLIENT_ID, logout_uri: CALLBACK })}`,
      headers: { host: HOST },
    });
    expect(reply.statusCode).toBe(302);
  });

  it('accepts only this origin /callback as logout_uri, and this client', async () => {
    const queries: Record<string, string>[] = [
      { client_id: CLIENT_ID, logout_uri: 'https://evil.example/callback' },
      { client_id: CLIENT_ID, logout_uri: `http://${HOST}/login` },
      { client_id: CLIENT_ID },
      { client_id: 'other', logout_uri: CALLBACK },
    ];
    for (const query of queries) {
      const reply = await app.inject({
        method: 'GET',
        url: `${settings.oauthPath}/logout?${form(query)}`,
        headers: { host: HOST },
      });
      expect(reply.statusCode).toBe(400);
      expect(reply.headers.location).toBeUndefined();
      expect(reply.json().error).toMatch(/invalid_request|invalid_client/);
    }
  });
});
