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
