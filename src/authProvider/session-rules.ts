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
 * a failed refresh or an expired session signs out. Returns the function that stops the checks.
 */
export function startSessionKeeper(options: SessionKeeperOptions): () => void {
  const every = options.setInterval ?? ((handler, ms) => globalThis.setInterval(handler, ms));
  const stop = options.clearInterval ?? ((handle) => globalThis.clearInterval(handle as number));
  let checking = false;
  let stopped = false;

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
      if (secondsLeft(expiry, now) < REFRESH_BELOW_SECONDS) {
        await options.refresh().catch(() => finish('refresh_failed'));
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
