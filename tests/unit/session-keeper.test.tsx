import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { Notification, type AuthProvider } from 'react-admin';
import en from '../../locales/en-US.json';
import { renderInAdmin } from './support/admin.tsx';

const amplify = vi.hoisted(() => ({
  currentSession: vi.fn(async () => undefined as unknown),
  endSession: vi.fn(async () => undefined),
}));
vi.mock('../../src/authProvider/amplify-session.ts', () => amplify);

const { SessionKeeper } = await import('../../src/app/session-keeper.tsx');
const { sessionKeys, forgetSession, sessionCheck } = await import('../../src/authProvider/auth-provider.ts');

/** A session whose id token has `seconds` left and whose refresh the identity service refuses. */
function sessionRunningOut(seconds: number) {
  const exp = Math.floor(Date.now() / 1000) + seconds;
  amplify.currentSession.mockImplementation(async (refresh?: unknown) =>
    refresh ? undefined : { tokens: { idToken: { payload: { exp } } } },
  );
}

/** The keeper with no session behind it, as while the sign-in check of a first visit still runs. */
function keeperWithoutSession() {
  const logout = vi.fn(async () => undefined);
  const authProvider = {
    login: async () => undefined,
    logout,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => undefined,
  } as unknown as AuthProvider;
  renderInAdmin(
    <>
      <SessionKeeper inactiveSignOutSeconds={10800} />
      <Notification />
    </>,
    { authProvider },
  );
  return { logout };
}

describe('the session keeper', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    amplify.currentSession.mockReset();
    amplify.currentSession.mockImplementation(async () => undefined);
    amplify.endSession.mockReset();
    amplify.endSession.mockImplementation(async () => undefined);
  });

  it('says nothing to a visitor who never signed in', async () => {
    const { logout } = keeperWithoutSession();
    await act(async () => vi.advanceTimersByTime(4500));
    expect(logout).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('signs out, saying so, when the session it kept is gone', async () => {
    localStorage.setItem(sessionKeys.username, 'operator');
    const { logout } = keeperWithoutSession();
    await act(async () => vi.advanceTimersByTime(4500));
    expect(logout).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toBe(en.http.token_expired_login);
  });

  it('signs out, saying so, when the refresh is refused', async () => {
    localStorage.setItem(sessionKeys.username, 'operator');
    sessionRunningOut(100);
    const { logout } = keeperWithoutSession();
    await act(async () => vi.advanceTimersByTime(2500));
    expect(logout).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toBe(en.http.token_expired_login);
  });

  it('says nothing more when another path has already ended the session and said so', async () => {
    // The sign-in check found the session gone first: it cleared the keys and spoke.
    sessionRunningOut(100);
    const { logout } = keeperWithoutSession();
    await act(async () => vi.advanceTimersByTime(2500));
    expect(amplify.currentSession).toHaveBeenCalledWith(true);
    expect(logout).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ending a session', () => {
  beforeEach(() => localStorage.clear());

  it('drops the recorded keys before Amplify has signed out, so a check meanwhile calls nothing expired', async () => {
    localStorage.setItem(sessionKeys.username, 'operator');
    localStorage.setItem(sessionKeys.idToken, 'id-token');
    let signedOut = () => undefined as void;
    amplify.endSession.mockImplementation(() => new Promise<undefined>((done) => (signedOut = () => done(undefined))));
    const ending = forgetSession();
    expect(localStorage.getItem(sessionKeys.username)).toBeNull();
    // A check made while the sign-out is under way: no session, and no word of an expired one.
    await expect(sessionCheck()).resolves.toEqual({ redirectTo: '/login', message: false });
    signedOut();
    await ending;
    expect(amplify.endSession).toHaveBeenCalledTimes(1);
  });

  it('still calls a session expired when its keys are there and Amplify has none', async () => {
    localStorage.setItem(sessionKeys.username, 'operator');
    await expect(sessionCheck()).resolves.toEqual({ redirectTo: '/login', message: 'auth.login_expired' });
    expect(localStorage.getItem(sessionKeys.username)).toBeNull();
  });
});
