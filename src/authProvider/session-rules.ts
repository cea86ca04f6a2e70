/** Session rules of spec 01 §4 and §9. */
export const TOKEN_CHECK_INTERVAL_MS = 2000;
/** The periodic check refreshes when fewer seconds than this remain. */
export const REFRESH_BELOW_SECONDS = 240;
/** A token counts as expired when fewer seconds than this remain. */
export const DEFAULT_EXPIRY_THRESHOLD_SECONDS = 60;

export function secondsLeft(expiresAtSeconds: number, nowMs: number): number {
  return expiresAtSeconds - nowMs / 1000;
}

export function isTokenExpired(
  expiresAtSeconds: number | undefined,
  nowMs: number,
  threshold = DEFAULT_EXPIRY_THRESHOLD_SECONDS,
) {
  return expiresAtSeconds === undefined || secondsLeft(expiresAtSeconds, nowMs) < threshold;
}

export type SignOutReason = 'inactive' | 'expired' | 'refresh_failed';

/** A refresh refused for a passing reason is tried again after 2 s, 4 s, 8 s ... at most a minute apart. */
export const REFRESH_RETRY_FIRST_MS = 2000;
export const REFRESH_RETRY_MAX_MS = 60_000;

const TRANSIENT_ERROR_NAMES = new Set([
  'NetworkError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalErrorException',
  'InternalServerError',
  'TooManyRequestsException',
  'ThrottlingException',
]);

/**
 * Whether a failed token or credential refresh may pass if tried again: the service unavailable (5xx), throttled
 * (429) or out of reach (a network error), as Amplify throws them with the HTTP status in `$metadata`. A refused
 * refresh token (NotAuthorizedException, which Amplify answers as no session) is final.
 */
export function isTransientRefreshError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, $metadata, status } = error as {
    name?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    status?: unknown;
  };
  const code = typeof $metadata?.httpStatusCode === 'number' ? $metadata.httpStatusCode : status;
  if (typeof code === 'number' && (code >= 500 || code === 429)) return true;
  if (typeof name === 'string' && TRANSIENT_ERROR_NAMES.has(name)) return true;
  // fetch's own failure to reach the server.
  return error instanceof TypeError && /fetch|network/i.test(error.message);
}

export interface SessionKeeperOptions {
  now: () => number;
  /** Expiry (epoch seconds) of the current id token; undefined when signed out. */
  tokenExpiry: () => Promise<number | undefined>;
  refresh: () => Promise<void>;
  signOut: (reason: SignOutReason) => void;
  lastActivity: () => number;
  inactiveSignOutSeconds: number;
  setInterval?: (handler: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

/**
 * Every 2 s: sign out after the inactivity time; refresh the tokens when fewer than 240 s remain;
 * a failed refresh or an expired session signs out. A refresh that failed for a passing reason
 * (`isTransientRefreshError`: a 503 of the identity service) is tried again with a growing delay while
 * the token lasts, and signs out only once the token has run out. Returns the function that stops the checks.
 */
export function startSessionKeeper(options: SessionKeeperOptions): () => void {
  const every = options.setInterval ?? ((handler, ms) => globalThis.setInterval(handler, ms));
  const stop = options.clearInterval ?? ((handle) => globalThis.clearInterval(handle as number));
  let checking = false;
  let stopped = false;
  let failures = 0;
  let retryAt = 0;

  const finish = (reason: SignOutReason) => {
    if (stopped) return;
    stopped = true;
    stop(handle);
    options.signOut(reason);
  };

  async function check() {
    if (checking || stopped) return;
    checking = true;
    try {
      const now = options.now();
      if (now - options.lastActivity() > options.inactiveSignOutSeconds * 1000) return finish('inactive');
      const expiry = await options.tokenExpiry().catch(() => undefined);
      if (expiry === undefined) return finish('expired');
      if (secondsLeft(expiry, now) < REFRESH_BELOW_SECONDS && now >= retryAt) {
        try {
          await options.refresh();
          failures = 0;
          retryAt = 0;
        } catch (error) {
          if (!isTransientRefreshError(error) || secondsLeft(expiry, options.now()) <= 0) {
            return finish('refresh_failed');
          }
          failures += 1;
          retryAt = options.now() + Math.min(REFRESH_RETRY_FIRST_MS * 2 ** (failures - 1), REFRESH_RETRY_MAX_MS);
        }
      }
    } finally {
      checking = false;
    }
  }

  const handle = every(() => void check(), TOKEN_CHECK_INTERVAL_MS);
  return () => {
    stopped = true;
    stop(handle);
  };
}

const ACTIVITY_KEY = 'wt.last_activity';

/** Shared by every tab of the app through local storage. */
export const activity = {
  record(now = Date.now()) {
    localStorage.setItem(ACTIVITY_KEY, String(now));
  },
  last(): number {
    return Number(localStorage.getItem(ACTIVITY_KEY) ?? Date.now());
  },
};
