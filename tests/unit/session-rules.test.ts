import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isTokenExpired,
  isTransientRefreshError,
  startSessionKeeper,
  type SessionKeeperOptions,
} from '../../src/authProvider/session-rules.ts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-21T10:00:00Z'));
});
afterEach(() => vi.useRealTimers());

const nowSeconds = () => Date.now() / 1000;

function keeper(overrides: Partial<SessionKeeperOptions>) {
  const signOut = vi.fn();
  const refresh = vi.fn(async () => {});
  let lastActivity = Date.now();
  const stop = startSessionKeeper({
    now: () => Date.now(),
    tokenExpiry: async () => nowSeconds() + 3600,
    refresh,
    signOut,
    lastActivity: () => lastActivity,
    inactiveSignOutSeconds: 10800,
    ...overrides,
  });
  return { signOut, refresh, stop, touch: () => (lastActivity = Date.now()) };
}

describe('session rules', () => {
  it('a token counts as expired under 60 s by default, or under a given threshold', () => {
    const now = Date.now();
    expect(isTokenExpired(now / 1000 + 61, now)).toBe(false);
    expect(isTokenExpired(now / 1000 + 59, now)).toBe(true);
    expect(isTokenExpired(now / 1000 + 200, now, 240)).toBe(true);
    expect(isTokenExpired(undefined, now)).toBe(true);
  });

  it('checks every 2 s and refreshes only when fewer than 240 s remain', async () => {
    const expiry = nowSeconds() + 250;
    const { refresh, signOut, stop } = keeper({ tokenExpiry: async () => expiry });
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalled();
    expect(signOut).not.toHaveBeenCalled();
    stop();
  });

  it('a failed refresh signs out', async () => {
    const { signOut } = keeper({
      tokenExpiry: async () => nowSeconds() + 100,
      refresh: async () => {
        throw new Error('Invalid Refresh Token');
      },
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(signOut).toHaveBeenCalledWith('refresh_failed');
  });

  it('a 503 during the refresh retries with a growing delay instead of signing out, until the token runs out', async () => {
    const expiry = nowSeconds() + 200;
    const unavailable = Object.assign(new Error('Service Unavailable'), {
      name: 'ServiceUnavailableException',
      $metadata: { httpStatusCode: 503 },
    });
    const refresh = vi.fn(async (): Promise<void> => {
      throw unavailable;
    });
    const { signOut, stop } = keeper({ tokenExpiry: async () => expiry, refresh });
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).toHaveBeenCalledTimes(1);
    // Retried after 2 s, then 4 s, then 8 s: not at every 2-second check.
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(6000);
    expect(refresh).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(2000);
    expect(refresh).toHaveBeenCalledTimes(4);
    expect(signOut).not.toHaveBeenCalled();

    // The service is back: the next try refreshes and the session goes on.
    refresh.mockImplementation(async () => {});
    await vi.advanceTimersByTimeAsync(16_000);
    expect(refresh).toHaveBeenCalledTimes(5);
    expect(signOut).not.toHaveBeenCalled();
    stop();
  });

  it('a 503 that lasts past the token signs out, and a refused refresh token signs out at once', async () => {
    const expiry = nowSeconds() + 30;
    const unavailable = Object.assign(new Error('Service Unavailable'), { $metadata: { httpStatusCode: 503 } });
    const { signOut } = keeper({
      tokenExpiry: async () => expiry,
      refresh: async () => {
        throw unavailable;
      },
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(signOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(80_000);
    expect(signOut).toHaveBeenCalledWith('refresh_failed');
    expect(isTransientRefreshError(Object.assign(new Error('x'), { name: 'NotAuthorizedException' }))).toBe(false);
    expect(isTransientRefreshError(Object.assign(new Error('x'), { $metadata: { httpStatusCode: 429 } }))).toBe(true);
    expect(isTransientRefreshError(new TypeError('Failed to fetch'))).toBe(true);
  });

  it('no session signs out as expired', async () => {
    const { signOut } = keeper({ tokenExpiry: async () => undefined });
    await vi.advanceTimersByTimeAsync(2000);
    expect(signOut).toHaveBeenCalledWith('expired');
  });

  it('signs out after 10800 s without activity, not before, and only once', async () => {
    const { signOut, touch } = keeper({});
    await vi.advanceTimersByTimeAsync(10_000 * 1000);
    touch();
    await vi.advanceTimersByTimeAsync(10_790 * 1000);
    expect(signOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(12 * 1000);
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(signOut).toHaveBeenCalledWith('inactive');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('stops checking when stopped', async () => {
    const { refresh, stop } = keeper({ tokenExpiry: async () => nowSeconds() + 10 });
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).not.toHaveBeenCalled();
  });
});
