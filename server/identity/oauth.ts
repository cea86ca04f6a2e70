/**
 * The Cognito hosted-UI subset the single sign-on option uses (spec 01 §2.1, §7): an OAuth 2.0
 * authorization code flow with PKCE (S256 only) for the users of the same user pool, here playing
 * the corporate directory.
 *
 * - GET  {base}/oauth2/authorize  a plain HTML sign-in form (no script: the CSP is script-src 'self')
 * - POST {base}/oauth2/authorize  checks the password against the SRP verifier, redirects with a code
 * - POST {base}/oauth2/token      authorization_code (with code_verifier) and refresh_token grants
 * - POST {base}/oauth2/revoke     revokes a refresh token
 * - GET  {base}/logout            ends the hosted-UI session, revokes what it issued, redirects
 *
 * Redirect and logout addresses must be the caller's own origin + /callback. Errors are OAuth JSON
 * `{ error, error_description }` with status 400.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_UNAVAILABLE } from '../../src/contract/errors.ts';
import { identitySettings } from '../config.ts';
import { DatabaseUnavailableError, type Db } from '../db/adapter.ts';
import { createPasswordAttempts, PASSWORD_ATTEMPTS_EXCEEDED } from './password-attempts.ts';
import { computeVerifier } from './srp.ts';
import type { Store, User } from './store.ts';
import type { Tokens } from './tokens.ts';

const FORM = 'application/x-www-form-urlencoded';
const BODY_LIMIT = 16 * 1024;
const SESSION_COOKIE = 'wt_identity_session';
/** base64url of a SHA-256: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export const INCORRECT_PASSWORD = 'Incorrect username or password.';

export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly statusCode = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toBody() {
    return { error: this.error, error_description: this.description };
  }
}

const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

type Params = Record<string, unknown>;

/** One string parameter; a repeated one is refused (RFC 6749 §3.1). */
function param(params: Params, name: string, required: true): string;
function param(params: Params, name: string, required?: false): string | undefined;
function param(params: Params, name: string, required = false): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) throw invalidRequest(`Parameter ${name} is repeated.`);
  if (value === undefined || value === '') {
    if (required) throw invalidRequest(`Missing required parameter ${name}.`);
    return undefined;
  }
  if (typeof value !== 'string') throw invalidRequest(`Parameter ${name} must be a string.`);
  return value;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

function sameText(a: string, b: string) {
  const left = Buffer.from(sha256Hex(a));
  const right = Buffer.from(sha256Hex(b));
  return timingSafeEqual(left, right);
}

/** base64url(SHA-256(verifier)): the S256 code challenge of RFC 7636 §4.2. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The only address the hosted UI redirects to: the caller's origin + /callback. */
function callbackOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${identitySettings.oauthCallbackPath}`;
}

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scope?: string;
}

interface CodeRow {
  code_hash: string;
  hosted_session: string;
  username: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  origin_jti: string;
  auth_time: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface OAuthDeps {
  db: Db;
  store: Store;
  tokens: Tokens;
  now: () => number;
}

export function createOAuth(deps: OAuthDeps) {
  const { db, store, tokens } = deps;
  const settings = identitySettings;
  const poolName = settings.userPoolId.split('_')[1];
  const blockedMessage = `Account is blocked for ${settings.blockSeconds / 60} minutes.`;
  const decoyKey = randomBytes(32);
  const passwordAttempts = createPasswordAttempts(deps);
  const now = () => new Date(deps.now());
  const later = (seconds: number) => new Date(deps.now() + seconds * 1000);

  function assertClient(clientId: string) {
    if (clientId !== settings.userPoolClientId) throw new OAuthError('invalid_client', 'Unknown client_id.');
  }

  /** The authorize parameters, checked the same way on the form and on its submission. */
  function authorizeRequest(params: Params, callback: string): AuthorizeRequest {
    const clientId = param(params, 'client_id', true);
    assertClient(clientId);
    const redirectUri = param(params, 'redirect_uri', true);
    if (redirectUri !== callback) throw invalidRequest(`redirect_uri must be ${callback}.`);
    const responseType = param(params, 'response_type', true);
    if (responseType !== 'code') {
      throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
    }
    const method = param(params, 'code_challenge_method', true);
    if (method !== 'S256') throw invalidRequest('code_challenge_method must be S256.');
    const codeChallenge = param(params, 'code_challenge', true);
    if (!S256_CHALLENGE.test(codeChallenge)) throw invalidRequest('code_challenge is not a S256 challenge.');
    const state = param(params, 'state');
    if (state !== undefined && state.length > 2048) throw invalidRequest('state is too long.');
    return { clientId, redirectUri, codeChallenge, state, scope: param(params, 'scope') };
  }

  const isBlocked = (user: User) => user.blockedUntil !== null && user.blockedUntil.getTime() > deps.now();

  /**
   * The user behind a username (or email) and password; the password is checked against the SRP
   * verifier. Wrong ones count as on the user-pool sign-in, per user and per client address.
   */
  async function checkPassword(login: string, password: string, sourceIp: string): Promise<User> {
    const user = await store.findUserByLogin(login.trim());
    const attempt = { login: user?.username ?? login.trim(), sourceIp };
    if (await passwordAttempts.locked(attempt)) throw new OAuthError('access_denied', PASSWORD_ATTEMPTS_EXCEEDED);
    // An unknown user costs the same verifier computation as a known one.
    const salt = user?.salt ?? createHmac('sha256', decoyKey).update(login).digest('hex').slice(0, 32);
    const computed = computeVerifier(poolName, user?.username ?? login, password, salt);
    if (!user || !sameText(computed, user.verifier)) {
      await passwordAttempts.recordFailure(attempt);
      throw new OAuthError('access_denied', INCORRECT_PASSWORD);
    }
    await passwordAttempts.recordSuccess(attempt);
    if (!user.enabled) throw new OAuthError('access_denied', 'User is disabled.');
    if (isBlocked(user)) throw new OAuthError('access_denied', blockedMessage);
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      throw new OAuthError('access_denied', 'Password reset required: sign in with your password first.');
    }
    return user;
  }

  /** Issues a single-use code for a signed-in user, in the hosted-UI session `hostedSession`. */
  async function issueCode(user: User, request: AuthorizeRequest, hostedSession: string): Promise<string> {
    const expiredBefore = new Date(deps.now() - settings.refreshTokenTtl * 1000);
    await db.query('DELETE FROM identity_oauth_codes WHERE expires_at < $1', [expiredBefore]);
    const code = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO identity_oauth_codes (code_hash, hosted_session, username, client_id, redirect_uri, code_challenge,
         origin_jti, auth_time, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        sha256Hex(code),
        hostedSession,
        user.username,
        request.clientId,
        request.redirectUri,
        request.codeChallenge,
        randomUUID(),
        now(),
        later(settings.authorizationCodeTtl),
      ],
    );
    return code;
  }

  async function revokeOrigin(originJti: string) {
    await db.query('UPDATE identity_refresh_tokens SET revoked_at = $2 WHERE origin_jti = $1 AND revoked_at IS NULL', [
      originJti,
      now(),
    ]);
  }

  async function activeUser(username: string): Promise<User> {
    const user = await store.findUser(username);
    if (!user || !user.enabled || isBlocked(user)) throw invalidGrant('User is disabled or does not exist.');
    return user;
  }

  async function exchangeCode(params: Params, clientId: string) {
    const code = param(params, 'code', true);
    const redirectUri = param(params, 'redirect_uri', true);
    const verifier = param(params, 'code_verifier', true);
    const codeHash = sha256Hex(code);
    // Taken before anything else is checked: a code answers once, right or wrong.
    const taken = await db.query<CodeRow>(
      'UPDATE identity_oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING *',
      [codeHash, now()],
    );
    const row = taken.rows[0];
    if (!row) {
      const used = await db.query<CodeRow>('SELECT * FROM identity_oauth_codes WHERE code_hash = $1', [codeHash]);
      // RFC 6749 §4.1.2: a replayed code revokes what it was exchanged for.
      if (used.rows[0]) await revokeOrigin(used.rows[0].origin_jti);
      throw invalidGrant(used.rows[0] ? 'Authorization code has already been used.' : 'Invalid authorization code.');
    }
    if (row.expires_at.getTime() <= deps.now()) throw invalidGrant('Authorization code has expired.');
    if (row.client_id !== clientId) throw invalidGrant('Authorization code was issued to another client.');
    if (row.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request.');
    if (!CODE_VERIFIER.test(verifier) || !sameText(s256Challenge(verifier), row.code_challenge)) {
      throw invalidGrant('code_verifier does not match the code challenge.');
    }
    const user = await activeUser(row.username);
    const refreshToken = randomBytes(96).toString('base64url');
    await store.insertRefreshToken(sha256Hex(refreshToken), {
      originJti: row.origin_jti,
      username: user.username,
      clientId,
      authTime: row.auth_time,
      expiresAt: later(settings.refreshTokenTtl),
    });
    const issued = await tokens.issue(user, { originJti: row.origin_jti, authTime: row.auth_time });
    return {
      id_token: issued.IdToken,
      access_token: issued.AccessToken,
      refresh_token: refreshToken,
      expires_in: issued.ExpiresIn,
      token_type: 'Bearer',
    };
  }

  /** New id and access tokens; as with Cognito the refresh token stays the same and is not returned. */
  async function refresh(params: Params, clientId: string) {
    const refreshToken = param(params, 'refresh_token', true);
    const record = await store.findRefreshToken(sha256Hex(refreshToken));
    if (!record || record.revokedAt || record.expiresAt.getTime() <= deps.now() || record.clientId !== clientId) {
      throw invalidGrant('Invalid Refresh Token');
    }
    const user = await activeUser(record.username);
    const issued = await tokens.issue(user, { originJti: record.originJti, authTime: record.authTime });
    return {
      id_token: issued.IdToken,
      access_token: issued.AccessToken,
      expires_in: issued.ExpiresIn,
      token_type: 'Bearer',
    };
  }

  return {
    authorizeRequest,
    checkPassword,
    issueCode,

    async token(params: Params) {
      const clientId = param(params, 'client_id', true);
      assertClient(clientId);
      const grantType = param(params, 'grant_type', true);
      if (grantType === 'authorization_code') return exchangeCode(params, clientId);
      if (grantType === 'refresh_token') return refresh(params, clientId);
      throw new OAuthError('unsupported_grant_type', `Unsupported grant_type ${grantType}.`);
    },

    async revoke(params: Params) {
      const clientId = param(params, 'client_id', true);
      assertClient(clientId);
      await store.revokeRefreshToken(sha256Hex(param(params, 'token', true)), clientId, now());
    },

    /** Revokes every refresh token issued through the hosted-UI session. */
    async endHostedSession(hostedSession: string) {
      await db.query(
        `UPDATE identity_refresh_tokens SET revoked_at = $2
         WHERE revoked_at IS NULL
           AND origin_jti IN (SELECT origin_jti FROM identity_oauth_codes WHERE hosted_session = $1)`,
        [hostedSession, now()],
      );
    },

    assertClient,
  };
}

export type OAuth = ReturnType<typeof createOAuth>;

function signInPage(request: AuthorizeRequest, options: { action: string; username?: string; error?: string }) {
  const hidden = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    ...(request.state !== undefined ? { state: request.state } : {}),
    ...(request.scope !== undefined ? { scope: request.scope } : {}),
  };
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Corporate directory - Sign in</title>
  <style>
    body { font-family: system-ui, sans-serif; background: #f5f5f5; margin: 0; display: flex; min-height: 100vh;
      align-items: center; justify-content: center; }
    main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.2); width: 320px; }
    h1 { font-size: 1.25rem; margin: 0 0 1rem; }
    label { display: block; margin: .75rem 0 .25rem; }
    input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; }
    button { margin-top: 1.25rem; width: 100%; padding: .6rem; background: #1976d2; color: #fff; border: 0;
      border-radius: 4px; font-size: 1rem; }
    .error { color: #b00020; }
  </style>
</head>
<body>
  <main>
    <h1>Corporate directory</h1>
    <p>Sign in with your corporate account.</p>
    ${error}
    <form method="post" action="${escapeHtml(options.action)}">
      ${fields}
      <label for="username">Username</label>
      <input id="username" name="username" type="text" autocomplete="username" required autofocus value="${escapeHtml(options.username ?? '')}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
  </main>
</body>
</html>
`;
}

/** Parses a form body; a repeated field becomes an array, which `param` refuses. */
function parseForm(body: string): Params {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const existing = params[key];
    params[key] = existing === undefined ? value : [...[existing].flat(), value];
  }
  return params;
}

function isForm(request: FastifyRequest) {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === FORM;
}

function requireForm(request: FastifyRequest): Params {
  if (!isForm(request) || typeof request.body !== 'object' || request.body === null) {
    throw invalidRequest(`The request body must be ${FORM}.`);
  }
  return request.body as Params;
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/** Routes of the hosted UI, in their own scope: the form parser and the OAuth error shape stay here. */
export async function registerOAuthRoutes(app: FastifyInstance, oauth: OAuth): Promise<void> {
  const base = identitySettings.oauthPath;
  const authorizePath = `${base}/oauth2/authorize`;

  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
      done(null, parseForm(body as string));
    });

    scope.setErrorHandler((error, request, reply) => {
      noStore(reply);
      if (error instanceof OAuthError) return reply.status(error.statusCode).send(error.toBody());
      if (error instanceof DatabaseUnavailableError) {
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .status(DATABASE_UNAVAILABLE.status)
          .header('retry-after', String(DATABASE_UNAVAILABLE.retryAfterSeconds))
          .send({ error: 'temporarily_unavailable', error_description: DATABASE_UNAVAILABLE.message });
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status < 500) return reply.status(400).send(invalidRequest((error as Error).message).toBody());
      request.log.error(error);
      return reply.status(500).send({ error: 'server_error', error_description: 'An internal error occurred.' });
    });

    scope.get(authorizePath, async (request, reply) => {
      const authorize = oauth.authorizeRequest(request.query as Params, callbackOf(request));
      return noStore(reply)
        .type('text/html; charset=utf-8')
        .send(signInPage(authorize, { action: authorizePath }));
    });

    scope.post(authorizePath, async (request, reply) => {
      const params = requireForm(request);
      const authorize = oauth.authorizeRequest(params, callbackOf(request));
      const username = param(params, 'username') ?? '';
      let user: User;
      try {
        user = await oauth.checkPassword(username, param(params, 'password') ?? '', request.ip);
      } catch (error) {
        if (!(error instanceof OAuthError) || error.error !== 'access_denied') throw error;
        return noStore(reply)
          .status(400)
          .type('text/html; charset=utf-8')
          .send(signInPage(authorize, { action: authorizePath, username, error: error.description }));
      }
      // Each sign-in opens a new hosted-UI session; the logout endpoint ends it.
      const hostedSession = randomBytes(32).toString('base64url');
      const code = await oauth.issueCode(user, authorize, hostedSession);
      const target = new URL(authorize.redirectUri);
      target.searchParams.set('code', code);
      if (authorize.state !== undefined) target.searchParams.set('state', authorize.state);
      return noStore(reply)
        .header('set-cookie', `${SESSION_COOKIE}=${hostedSession}; Path=${base}; HttpOnly; SameSite=Lax`)
        .redirect(target.toString(), 302);
    });

    scope.post(`${base}/oauth2/token`, async (request, reply) => {
      const result = await oauth.token(requireForm(request));
      return noStore(reply).send(result);
    });

    scope.post(`${base}/oauth2/revoke`, async (request, reply) => {
      await oauth.revoke(requireForm(request));
      return noStore(reply).send({});
    });

    scope.get(`${base}/logout`, async (request, reply) => {
      const query = request.query as Params;
      oauth.assertClient(param(query, 'client_id', true));
      const logoutUri = param(query, 'logout_uri', true);
      const callback = callbackOf(request);
      if (logoutUri !== callback) throw invalidRequest(`logout_uri must be ${callback}.`);
      const hostedSession = cookieValue(request, SESSION_COOKIE);
      if (hostedSession) await oauth.endHostedSession(hostedSession);
      return noStore(reply)
        .header('set-cookie', `${SESSION_COOKIE}=; Path=${base}; HttpOnly; SameSite=Lax; Max-Age=0`)
        .redirect(logoutUri, 302);
    });
  });
}
