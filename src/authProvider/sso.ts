/**
 * Single sign-on (spec 01 §2.1, §4, §5, §7): an authorization code flow with PKCE against the
 * hosted UI of the identity provider (Cognito's, or the local stand-in's under /__identity).
 *
 * The session it yields lives in the session keys of local storage (id, access and refresh token,
 * plus the `sso` marker); amplify-session.ts serves it as the current session, without Amplify and
 * without identity-pool credentials, so webtool calls carry `Authorization: <access>,<id>`.
 */
import { decodeJWT, type AuthSession } from 'aws-amplify/auth';
import { sessionKeys } from './session-keys.ts';
import { REFRESH_BELOW_SECONDS } from './session-rules.ts';

export interface SsoSettings {
  /** Base of the hosted UI: {base}/oauth2/authorize, /oauth2/token, /oauth2/revoke and /logout. */
  oauthBase: string;
  clientId: string;
}

/** Single sign-on check result (spec 01 §4). */
export const SsoCheck = { OK: 1, GroupMissing: 2, InvalidGroup: 3 } as const;
export type SsoCheckResult = (typeof SsoCheck)[keyof typeof SsoCheck];

/** Where the provider comes back to, after sign-in and after logout (spec 01 §2.3). */
export const SSO_CALLBACK_PATH = '/callback';
/** sessionStorage: the state and code verifier of the sign-in under way, and where to go after it. */
const PENDING_KEY = 'wt.sso_pending';
/** sessionStorage: why a single sign-on was ended, shown by the callback page after the logout. */
const NOTICE_KEY = 'wt.sso_notice';
const SCOPE = 'openid email profile';
const FORM = 'application/x-www-form-urlencoded';

let settings: SsoSettings | undefined;

/** Called once at start-up; without settings the single sign-on option is off. */
export function configureSso(value: SsoSettings | undefined) {
  settings = value?.oauthBase ? { ...value, oauthBase: value.oauthBase.replace(/\/$/, '') } : undefined;
}

export const ssoConfigured = () => settings !== undefined;

function required(): SsoSettings {
  if (!settings) throw new SsoError('not_configured', 'Single sign-on is not configured.');
  return settings;
}

const callbackUrl = () => `${window.location.origin}${SSO_CALLBACK_PATH}`;

export type SsoFailure = 'not_configured' | 'provider' | 'missing_code' | 'state' | 'exchange';

export class SsoError extends Error {
  constructor(
    readonly reason: SsoFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SsoError';
  }
}

/**
 * OK when the family name is contained in the first group; no group gives GroupMissing and any
 * other case InvalidGroup (spec 01 §5). A missing or empty family name is never "contained".
 */
export function ssoGroupCheck(claims: Record<string, unknown>): SsoCheckResult {
  const raw = claims['cognito:groups'];
  const groups = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const first: unknown = groups[0];
  if (typeof first !== 'string' || first === '') return SsoCheck.GroupMissing;
  const familyName = claims.family_name;
  if (typeof familyName !== 'string' || familyName === '' || !first.includes(familyName)) {
    return SsoCheck.InvalidGroup;
  }
  return SsoCheck.OK;
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomText = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** base64url(SHA-256(verifier)), RFC 7636 S256. */
export async function codeChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

interface Pending {
  state: string;
  verifier: string;
  returnUrl?: string;
}

/** Prepares a sign-in: keeps the state and verifier in sessionStorage and returns the authorize address. */
export async function authorizeUrl(returnUrl?: string): Promise<string> {
  const { oauthBase, clientId } = required();
  const pending: Pending = { state: randomText(32), verifier: randomText(32), returnUrl };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callbackUrl(),
    scope: SCOPE,
    state: pending.state,
    code_challenge: await codeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  });
  return `${oauthBase}/oauth2/authorize?${query.toString()}`;
}

/** Leaves for the provider's sign-in page; it comes back to /callback. */
export async function startSso(returnUrl?: string): Promise<void> {
  window.location.assign(await authorizeUrl(returnUrl));
}

function takePending(): Pending | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  try {
    const pending = raw ? (JSON.parse(raw) as Partial<Pending>) : undefined;
    return typeof pending?.state === 'string' && typeof pending.verifier === 'string'
      ? (pending as Pending)
      : undefined;
  } catch {
    return undefined;
  }
}

interface TokenReply {
  id_token?: unknown;
  access_token?: unknown;
  refresh_token?: unknown;
  error?: unknown;
  error_description?: unknown;
}

async function tokenRequest(fields: Record<string, string>): Promise<{ ok: boolean; body: TokenReply }> {
  const { oauthBase, clientId } = required();
  const response = await fetch(`${oauthBase}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': FORM, accept: 'application/json' },
    body: new URLSearchParams({ ...fields, client_id: clientId }).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as TokenReply;
  return { ok: response.ok, body };
}

function storeTokens(idToken: string, accessToken: string, refreshToken?: string) {
  localStorage.setItem(sessionKeys.idToken, idToken);
  localStorage.setItem(sessionKeys.accessToken, accessToken);
  if (refreshToken) localStorage.setItem(sessionKeys.refreshToken, refreshToken);
  localStorage.setItem(sessionKeys.sso, '1');
}

export interface SsoResult {
  /** Claims of the new id token, for the group check. */
  claims: Record<string, unknown>;
  /** The address asked for before the sign-in, when there was one. */
  returnUrl?: string;
}

/**
 * Finishes a sign-in on /callback: checks the state, exchanges the code with its verifier, and
 * stores the tokens as the single-sign-on session. The state and verifier are used up either way.
 */
export async function completeSso(searchParams: URLSearchParams): Promise<SsoResult> {
  const pending = takePending();
  const error = searchParams.get('error');
  if (error) throw new SsoError('provider', searchParams.get('error_description') ?? error);
  const code = searchParams.get('code');
  if (!code) throw new SsoError('missing_code', 'The sign-in response has no code.');
  const state = searchParams.get('state');
  if (!pending || !state || state !== pending.state) {
    throw new SsoError('state', 'The sign-in response does not belong to a sign-in of this browser.');
  }
  const { ok, body } = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: callbackUrl(),
    code_verifier: pending.verifier,
  });
  if (!ok || typeof body.id_token !== 'string' || typeof body.access_token !== 'string') {
    throw new SsoError('exchange', String(body.error_description ?? body.error ?? 'The code exchange failed.'));
  }
  const claims = decodeJWT(body.id_token).payload as Record<string, unknown>;
  storeTokens(
    body.id_token,
    body.access_token,
    typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
  );
  return { claims, returnUrl: pending.returnUrl };
}

export const isSsoSession = () => localStorage.getItem(sessionKeys.sso) === '1';

function storedSession(): (AuthSession & { expiresAt: number }) | undefined {
  const idToken = localStorage.getItem(sessionKeys.idToken);
  const accessToken = localStorage.getItem(sessionKeys.accessToken);
  if (!idToken || !accessToken) return undefined;
  try {
    const id = decodeJWT(idToken);
    const access = decodeJWT(accessToken);
    const expiresAt = Math.min(Number(id.payload.exp ?? 0), Number(access.payload.exp ?? 0));
    return { tokens: { idToken: id, accessToken: access }, expiresAt };
  } catch {
    return undefined;
  }
}

let refreshing: Promise<boolean> | undefined;

/** One refresh at a time: the session keeper and data calls may ask together. */
function refreshTokens(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = localStorage.getItem(sessionKeys.refreshToken);
    if (!refreshToken) return false;
    const { ok, body } = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    if (!ok || typeof body.id_token !== 'string' || typeof body.access_token !== 'string') return false;
    // Signed out meanwhile (another tab, or a logout): the answer must not bring the session back.
    if (!isSsoSession()) return false;
    storeTokens(
      body.id_token,
      body.access_token,
      typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    );
    return true;
  })()
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

/**
 * The single-sign-on session in the shape the app reads from Amplify (`tokens.idToken.payload`,
 * `tokens.idToken.toString()`, `tokens.accessToken.toString()`), never with credentials. Refreshed
 * through the token endpoint when fewer than 240 s remain or when `forceRefresh`; undefined when
 * there is none, or when a needed refresh failed.
 */
export async function ssoSession(forceRefresh = false, now = Date.now()): Promise<AuthSession | undefined> {
  let session = storedSession();
  if (!session) return undefined;
  const left = session.expiresAt - now / 1000;
  if (forceRefresh || left < REFRESH_BELOW_SECONDS) {
    if (await refreshTokens()) session = storedSession();
    else if (forceRefresh || left <= 0) return undefined;
  }
  if (!session) return undefined;
  return { tokens: session.tokens };
}

/** Forgets the session in this browser and revokes its refresh token, in the background. */
export function endSsoSession() {
  const refreshToken = localStorage.getItem(sessionKeys.refreshToken);
  for (const key of [sessionKeys.idToken, sessionKeys.accessToken, sessionKeys.refreshToken, sessionKeys.sso]) {
    localStorage.removeItem(key);
  }
  if (!refreshToken || !settings) return;
  void fetch(`${settings.oauthBase}/oauth2/revoke`, {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: new URLSearchParams({ token: refreshToken, client_id: settings.clientId }).toString(),
    keepalive: true,
  }).catch(() => undefined);
}

/** The provider's logout, which ends its own session and comes back to /callback. */
export function ssoLogoutUrl(): string {
  const { oauthBase, clientId } = required();
  const query = new URLSearchParams({ client_id: clientId, logout_uri: callbackUrl() });
  return `${oauthBase}/logout?${query.toString()}`;
}

export type SsoNotice = 'group_missing' | 'invalid_group';

/** Signs out here and at the provider; `notice` is shown on /callback when the provider comes back. */
export function ssoSignOut(notice?: SsoNotice, navigate = (url: string) => window.location.assign(url)) {
  if (notice) sessionStorage.setItem(NOTICE_KEY, notice);
  else sessionStorage.removeItem(NOTICE_KEY);
  endSsoSession();
  navigate(ssoLogoutUrl());
}

/** The notice left by ssoSignOut, if any; clearSsoNotice forgets it once shown. */
export function peekSsoNotice(): SsoNotice | undefined {
  const notice = sessionStorage.getItem(NOTICE_KEY);
  return notice === 'group_missing' || notice === 'invalid_group' ? notice : undefined;
}

export const clearSsoNotice = () => sessionStorage.removeItem(NOTICE_KEY);
