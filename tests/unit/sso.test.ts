import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentSession, endSession } from '../../src/authProvider/amplify-session.ts';
import { sessionKeys } from '../../src/authProvider/session-keys.ts';
import {
  authorizeUrl,
  clearSsoNotice,
  codeChallenge,
  completeSso,
  configureSso,
  endSsoSession,
  isSsoSession,
  peekSsoNotice,
  SsoCheck,
  SsoError,
  ssoGroupCheck,
  ssoLogoutUrl,
  ssoSession,
  ssoSignOut,
} from '../../src/authProvider/sso.ts';
import { signRequest } from '../../src/dataProvider/signed-fetch.ts';

const BASE = 'https://idp.example/__identity';
const CLIENT_ID = 'localwebtoolclient';
const callback = () => `${window.location.origin}/callback`;

const b64url = (value: string) => btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT: the browser never verifies signatures, it only reads claims. */
function jwt(claims: Record<string, unknown>) {
  return `${b64url(JSON.stringify({ alg: 'RS256', kid: 'k' }))}.${b64url(JSON.stringify(claims))}.c2ln`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function tokenPair(secondsLeft: number, extra: Record<string, unknown> = {}) {
  const exp = nowSeconds() + secondsLeft;
  return {
    id_token: jwt({
      sub: 'u-1',
      'cognito:username': 'sso.carrier',
      'cognito:groups': ['carrier_1_admin'],
      family_name: 'carrier',
      token_use: 'id',
      exp,
      ...extra,
    }),
    access_token: jwt({ sub: 'u-1', username: 'sso.carrier', token_use: 'access', exp }),
  };
}

function reply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

/** The form fields of the n-th fetch call. */
function sentForm(call = 0) {
  const [url, init] = fetchMock.mock.calls[call];
  return { url: String(url), init: init!, fields: Object.fromEntries(new URLSearchParams(String(init!.body))) };
}

function storeSession(secondsLeft: number, refreshToken = 'refresh-1') {
  const pair = tokenPair(secondsLeft);
  localStorage.setItem(sessionKeys.idToken, pair.id_token);
  localStorage.setItem(sessionKeys.accessToken, pair.access_token);
  localStorage.setItem(sessionKeys.refreshToken, refreshToken);
  localStorage.setItem(sessionKeys.sso, '1');
  return pair;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  configureSso({ oauthBase: `${BASE}/`, clientId: CLIENT_ID });
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ssoGroupCheck (spec 01 §4, §5)', () => {
  it('uses the result values OK 1, GroupMissing 2, InvalidGroup 3', () => {
    expect(SsoCheck).toEqual({ OK: 1, GroupMissing: 2, InvalidGroup: 3 });
  });

  it('is OK when the family name is contained in the first group', () => {
    expect(ssoGroupCheck({ 'cognito:groups': ['carrier_1_admin'], family_name: 'carrier' })).toBe(1);
    expect(
      ssoGroupCheck({ 'cognito:groups': ['support_provider_1_admin', 'x'], family_name: 'support_provider' }),
    ).toBe(1);
    expect(ssoGroupCheck({ 'cognito:groups': 'carrier_1_admin', family_name: 'carrier' })).toBe(1);
  });

  it('gives GroupMissing without a group', () => {
    expect(ssoGroupCheck({ family_name: 'carrier' })).toBe(2);
    expect(ssoGroupCheck({ 'cognito:groups': [], family_name: 'carrier' })).toBe(2);
    expect(ssoGroupCheck({ 'cognito:groups': [''], family_name: 'carrier' })).toBe(2);
    expect(ssoGroupCheck({ 'cognito:groups': null, family_name: 'carrier' })).toBe(2);
    expect(ssoGroupCheck({})).toBe(2);
  });

  it('gives InvalidGroup when the family name is not in the first group', () => {
    expect(ssoGroupCheck({ 'cognito:groups': ['carrier_1_admin'], family_name: 'support_provider' })).toBe(3);
    // Only the first group counts.
    expect(
      ssoGroupCheck({
        'cognito:groups': ['carrier_1_admin', 'support_provider_1_admin'],
        family_name: 'support_provider',
      }),
    ).toBe(3);
    expect(ssoGroupCheck({ 'cognito:groups': ['carrier_1_admin'], family_name: 'Carrier' })).toBe(3);
    expect(ssoGroupCheck({ 'cognito:groups': ['carrier_1_admin'] })).toBe(3);
    expect(ssoGroupCheck({ 'cognito:groups': ['carrier_1_admin'], family_name: '' })).toBe(3);
  });
});

describe('starting a sign-in', () => {
  it('builds the authorize address with a S256 challenge and keeps state and verifier', async () => {
    const url = new URL(await authorizeUrl('/couriers?x=1'));
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/oauth2/authorize`);
    const query = Object.fromEntries(url.searchParams);
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: callback(),
      code_challenge_method: 'S256',
    });
    const pending = JSON.parse(sessionStorage.getItem('wt.sso_pending')!);
    expect(pending.returnUrl).toBe('/couriers?x=1');
    expect(pending.state).toBe(query.state);
    expect(pending.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.code_challenge).toBe(await codeChallenge(pending.verifier));
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await authorizeUrl();
    const next = JSON.parse(sessionStorage.getItem('wt.sso_pending')!);
    expect(next.state).not.toBe(pending.state);
    expect(next.verifier).not.toBe(pending.verifier);
  });

  it('computes the RFC 7636 S256 challenge: base64url of the SHA-256, unpadded', async () => {
    for (const verifier of ['dBjftJeZ4CVP-mJ92K9qmhjYzLHwPdTDl0grOobt7ig', 'a'.repeat(128)]) {
      expect(await codeChallenge(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
    }
  });

  it('is off without settings', async () => {
    configureSso(undefined);
    await expect(authorizeUrl()).rejects.toBeInstanceOf(SsoError);
    configureSso({ oauthBase: '', clientId: CLIENT_ID });
    await expect(authorizeUrl()).rejects.toMatchObject({ reason: 'not_configured' });
  });
});

describe('completing a sign-in', () => {
  async function pendingState() {
    const url = new URL(await authorizeUrl('/couriers'));
    return url.searchParams.get('state')!;
  }

  it('exchanges the code with a form body and stores the single-sign-on session', async () => {
    const state = await pendingState();
    const { verifier } = JSON.parse(sessionStorage.getItem('wt.sso_pending')!);
    const pair = tokenPair(3600);
    fetchMock.mockResolvedValueOnce(reply(200, { ...pair, refresh_token: 'refresh-1', expires_in: 3600 }));

    const result = await completeSso(new URLSearchParams({ code: 'the-code', state }));

    const { url, init, fields } = sentForm();
    expect(url).toBe(`${BASE}/oauth2/token`);
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(fields).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: callback(),
      code_verifier: verifier,
      client_id: CLIENT_ID,
    });
    expect(result.returnUrl).toBe('/couriers');
    expect(result.claims).toMatchObject({ family_name: 'carrier', 'cognito:groups': ['carrier_1_admin'] });
    expect(localStorage.getItem(sessionKeys.idToken)).toBe(pair.id_token);
    expect(localStorage.getItem(sessionKeys.accessToken)).toBe(pair.access_token);
    expect(localStorage.getItem(sessionKeys.refreshToken)).toBe('refresh-1');
    expect(isSsoSession()).toBe(true);
    expect(sessionStorage.getItem('wt.sso_pending')).toBeNull();
  });

  it('refuses a state of another sign-in, or none, without calling the provider', async () => {
    await pendingState();
    await expect(completeSso(new URLSearchParams({ code: 'c', state: 'forged' }))).rejects.toMatchObject({
      reason: 'state',
    });
    // The pending sign-in is used up by the first answer.
    const state = await pendingState();
    await completeSso(new URLSearchParams({ code: 'c', state: 'x' })).catch(() => undefined);
    await expect(completeSso(new URLSearchParams({ code: 'c', state }))).rejects.toMatchObject({ reason: 'state' });
    await expect(completeSso(new URLSearchParams({ code: 'c' }))).rejects.toMatchObject({ reason: 'state' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(isSsoSession()).toBe(false);
  });

  it('reports the provider error and a missing code', async () => {
    await pendingState();
    await expect(
      completeSso(new URLSearchParams({ error: 'access_denied', error_description: 'No.' })),
    ).rejects.toMatchObject({ reason: 'provider', message: 'No.' });
    await expect(completeSso(new URLSearchParams({ state: 's' }))).rejects.toMatchObject({ reason: 'missing_code' });
  });

  it('stores nothing when the exchange fails', async () => {
    const state = await pendingState();
    fetchMock.mockResolvedValueOnce(reply(400, { error: 'invalid_grant', error_description: 'Code expired.' }));
    await expect(completeSso(new URLSearchParams({ code: 'c', state }))).rejects.toMatchObject({
      reason: 'exchange',
      message: 'Code expired.',
    });
    expect(localStorage.getItem(sessionKeys.idToken)).toBeNull();
    expect(isSsoSession()).toBe(false);
  });
});

describe('the single-sign-on session', () => {
  it('has the token shape the app reads and no credentials', async () => {
    const pair = storeSession(3600);
    const session = await ssoSession();
    expect(session?.credentials).toBeUndefined();
    expect(session?.tokens?.idToken?.toString()).toBe(pair.id_token);
    expect(session?.tokens?.accessToken.toString()).toBe(pair.access_token);
    expect(session?.tokens?.idToken?.payload['cognito:username']).toBe('sso.carrier');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is what currentSession serves while the marker is set, and the request goes unsigned', async () => {
    const pair = storeSession(3600);
    const session = await currentSession();
    expect(session?.tokens?.idToken?.toString()).toBe(pair.id_token);
    const signed = await signRequest(
      'http://localhost:8080',
      { method: 'GET', path: 'webtool/couriers' },
      {
        region: 'eu-west-1',
        idToken: session!.tokens!.idToken!.toString(),
        accessToken: session!.tokens!.accessToken.toString(),
        credentials: session!.credentials,
      },
    );
    expect(signed.init.headers).toMatchObject({
      authorization: `${pair.access_token},${pair.id_token}`,
      'x-auth-token': pair.id_token,
      accept: 'application/x-www-form-urlencoded',
    });
    expect(signed.init.headers['x-amz-date']).toBeUndefined();
    const body = await signRequest(
      'http://localhost:8080',
      { method: 'POST', path: 'webtool/couriers', body: { a: 1 } },
      { region: 'eu-west-1', idToken: 'i', accessToken: 'a' },
    );
    expect(body.init.headers['content-type']).toBe('application/json');
  });

  it('is absent without tokens or with unreadable ones', async () => {
    expect(await ssoSession()).toBeUndefined();
    localStorage.setItem(sessionKeys.idToken, 'garbage');
    localStorage.setItem(sessionKeys.accessToken, 'garbage');
    expect(await ssoSession()).toBeUndefined();
  });

  it('refreshes through the token endpoint when fewer than 240 s remain', async () => {
    storeSession(239);
    const fresh = tokenPair(3600, { family_name: 'carrier' });
    fetchMock.mockResolvedValueOnce(reply(200, { ...fresh, expires_in: 3600, token_type: 'Bearer' }));
    const session = await ssoSession();
    expect(sentForm().fields).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: CLIENT_ID,
    });
    expect(session?.tokens?.idToken?.toString()).toBe(fresh.id_token);
    expect(localStorage.getItem(sessionKeys.idToken)).toBe(fresh.id_token);
    // Cognito keeps the refresh token as it is.
    expect(localStorage.getItem(sessionKeys.refreshToken)).toBe('refresh-1');
  });

  it('does not refresh with 240 s or more left, unless forced', async () => {
    storeSession(300);
    await ssoSession();
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockResolvedValueOnce(reply(200, tokenPair(3600)));
    await currentSession(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refreshes once for concurrent callers', async () => {
    storeSession(100);
    fetchMock.mockResolvedValue(reply(200, tokenPair(3600)));
    await Promise.all([ssoSession(), ssoSession(true), currentSession()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('fails a forced or needed refresh, but keeps a still valid session otherwise', async () => {
    const pair = storeSession(200);
    fetchMock.mockResolvedValue(reply(400, { error: 'invalid_grant' }));
    expect(await ssoSession(true)).toBeUndefined();
    expect((await ssoSession())?.tokens?.idToken?.toString()).toBe(pair.id_token);
    storeSession(-5);
    expect(await ssoSession()).toBeUndefined();
    fetchMock.mockRejectedValue(new TypeError('offline'));
    expect(await ssoSession(true)).toBeUndefined();
  });

  it('ends: the keys go, the refresh token is revoked, and Amplify is no longer bypassed', async () => {
    storeSession(3600);
    fetchMock.mockResolvedValue(reply(200, {}));
    await endSession();
    expect(isSsoSession()).toBe(false);
    for (const key of [sessionKeys.idToken, sessionKeys.accessToken, sessionKeys.refreshToken]) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    const { url, fields, init } = sentForm();
    expect(url).toBe(`${BASE}/oauth2/revoke`);
    expect(fields).toEqual({ token: 'refresh-1', client_id: CLIENT_ID });
    expect(init.keepalive).toBe(true);
    expect(await ssoSession()).toBeUndefined();
  });
});

describe('signing out at the provider', () => {
  it('goes to the logout endpoint, which comes back to /callback', () => {
    const url = new URL(ssoLogoutUrl());
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/logout`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: CLIENT_ID, logout_uri: callback() });
  });

  it('clears the session and leaves a notice for the callback page', () => {
    storeSession(3600);
    fetchMock.mockResolvedValue(reply(200, {}));
    const navigate = vi.fn();
    ssoSignOut('invalid_group', navigate);
    expect(navigate).toHaveBeenCalledWith(ssoLogoutUrl());
    expect(isSsoSession()).toBe(false);
    expect(peekSsoNotice()).toBe('invalid_group');
    expect(peekSsoNotice()).toBe('invalid_group');
    clearSsoNotice();
    expect(peekSsoNotice()).toBeUndefined();

    ssoSignOut(undefined, navigate);
    expect(peekSsoNotice()).toBeUndefined();
  });

  it('endSsoSession without a refresh token calls nobody', () => {
    localStorage.setItem(sessionKeys.sso, '1');
    endSsoSession();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(isSsoSession()).toBe(false);
  });
});
