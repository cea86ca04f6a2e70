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
const { sessionKeys } = await import('../../src/authProvider/auth-provider.ts');

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
});
