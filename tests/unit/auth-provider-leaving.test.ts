import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const amplify = vi.hoisted(() => ({
  currentSession: vi.fn(async () => undefined as unknown),
  endSession: vi.fn(async () => undefined),
}));
vi.mock('../../src/authProvider/amplify-session.ts', () => amplify);

const { createAuthProvider, sessionKeys } = await import('../../src/authProvider/auth-provider.ts');

const provider = () => createAuthProvider({ loadNavigation: async () => ({}) as never, rules: {} });
const leave = () => window.dispatchEvent(new Event('beforeunload'));
const stay = () => window.dispatchEvent(new Event('pointerdown'));

describe('the auth provider while the page is being left', () => {
  beforeEach(() => {
    stay();
    localStorage.setItem(sessionKeys.username, '1');
    amplify.endSession.mockClear();
  });
  afterEach(stay);

  it('signs out on a 401 and on a sign-out, while the page stays', async () => {
    await expect(provider().checkError({ status: 401 })).rejects.toMatchObject({ message: 'http.need_to_login' });
    expect(amplify.endSession).toHaveBeenCalledTimes(1);
    await provider().logout({});
    expect(amplify.endSession).toHaveBeenCalledTimes(2);
    expect(localStorage.getItem(sessionKeys.username)).toBeNull();
  });

  it('keeps the session for the next page when a cut-off call reads as 401 or as no session', async () => {
    leave();
    await expect(provider().checkError({ status: 401 })).resolves.toBeUndefined();
    await expect(provider().checkAuth({})).resolves.toBeUndefined();
    expect(amplify.endSession).not.toHaveBeenCalled();
    expect(localStorage.getItem(sessionKeys.username)).toBe('1');
  });

  it('still signs out when asked to (the inactivity sign-out, for one), even while the page is being left', async () => {
    leave();
    await provider().logout({});
    expect(amplify.endSession).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(sessionKeys.username)).toBeNull();
  });
});
