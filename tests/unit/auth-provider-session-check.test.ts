import { beforeEach, describe, expect, it, vi } from 'vitest';

const amplify = vi.hoisted(() => ({
  currentSession: vi.fn(async () => undefined as unknown),
  endSession: vi.fn(async () => undefined),
}));
vi.mock('../../src/authProvider/amplify-session.ts', () => amplify);

const { createAuthProvider, sessionKeys } = await import('../../src/authProvider/auth-provider.ts');

const provider = () => createAuthProvider({ loadNavigation: async () => ({}) as never, rules: {} });

describe('the sign-in check without a session', () => {
  beforeEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/service-points');
  });

  it('sends a visitor who never signed in to the sign-in screen without a message', async () => {
    await expect(provider().checkAuth({})).rejects.toEqual({
      redirectTo: '/login?returnUrl=%2Fservice-points',
      message: false,
    });
  });

  it('says an expired session has expired, once', async () => {
    localStorage.setItem(sessionKeys.username, 'operator');
    localStorage.setItem(sessionKeys.idToken, 'an.expired.token');
    await expect(provider().checkAuth({})).rejects.toMatchObject({ message: 'auth.login_expired' });
    expect(localStorage.getItem(sessionKeys.username)).toBeNull();
    await expect(provider().checkAuth({})).rejects.toMatchObject({ message: false });
  });

  it('passes with a session', async () => {
    amplify.currentSession.mockResolvedValueOnce({ tokens: {} });
    await expect(provider().checkAuth({})).resolves.toBeUndefined();
  });
});

describe('the navigation data of a page load', () => {
  it('is fetched once when the access checks and the route ask for it together, and again on the next route', async () => {
    let answer: (value: never) => void = () => undefined;
    const loadNavigation = vi.fn(() => new Promise<never>((resolve) => (answer = resolve)));
    const auth = createAuthProvider({ loadNavigation, rules: {} });
    const forChecks = auth.profile();
    const forRoute = auth.profile(true);
    await vi.waitFor(() => expect(loadNavigation).toHaveBeenCalledTimes(1));
    answer({ features: [], permissions: [], partner_info: {} } as never);
    await Promise.all([forChecks, forRoute]);
    expect(loadNavigation).toHaveBeenCalledTimes(1);

    // Settled: the next route's refresh fetches anew (spec 01 §4).
    const next = auth.profile(true);
    await vi.waitFor(() => expect(loadNavigation).toHaveBeenCalledTimes(2));
    answer({ features: [], permissions: [], partner_info: {} } as never);
    await next;
  });

  it('is fetched again after a failed fetch', async () => {
    const loadNavigation = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({});
    const auth = createAuthProvider({ loadNavigation, rules: {} });
    await expect(auth.profile()).rejects.toThrow('offline');
    await auth.profile(true);
    expect(loadNavigation).toHaveBeenCalledTimes(2);
  });
});
