import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpError, Notification, type AuthProvider } from 'react-admin';
import { RouteGuard } from '../../src/app/route-guard.tsx';
import { pageIsLeaving } from '../../src/authProvider/page-leaving.ts';
import { renderInAdmin } from './support/admin.tsx';

/** The guard in front of a page, with a navigation call that fails as a dropped connection does. */
function guardWithDroppedNavigation() {
  const logout = vi.fn(async () => undefined);
  const profile = vi.fn(async () => {
    throw new HttpError('Server error on identity_access/nav_drawer', 0);
  });
  const authProvider = {
    login: async () => undefined,
    logout,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => undefined,
    profile,
  } as unknown as AuthProvider;
  renderInAdmin(
    <RouteGuard>
      <p>guarded page</p>
    </RouteGuard>,
    { authProvider },
  );
  return { logout, profile };
}

/** The guard in front of a page for a visitor without a session, with the app's toasts. */
function guardWithoutSession(checkAuthMessage: string | false) {
  const logout = vi.fn(async () => undefined);
  const profile = vi.fn(async () => {
    throw new HttpError('Login is expired.', 401);
  });
  const authProvider = {
    login: async () => undefined,
    logout,
    checkAuth: async () => {
      throw { redirectTo: '/login', message: checkAuthMessage };
    },
    checkError: async () => undefined,
    getPermissions: async () => undefined,
    profile,
  } as unknown as AuthProvider;
  renderInAdmin(
    <>
      <RouteGuard>
        <p>guarded page</p>
      </RouteGuard>
      <Notification />
    </>,
    { authProvider },
  );
  return { logout, profile };
}

afterEach(() => {
  cleanup();
  fireEvent.pointerDown(window);
});

describe('the route guard', () => {
  it('signs out when the navigation call gets no answer (spec 01 §8, status 0)', async () => {
    const { logout } = guardWithDroppedNavigation();
    await waitFor(() => expect(logout).toHaveBeenCalled());
  });

  it('does not sign out when the call was cut off by leaving the page', async () => {
    window.dispatchEvent(new Event('beforeunload'));
    expect(pageIsLeaving()).toBe(true);
    const { logout, profile } = guardWithDroppedNavigation();
    await waitFor(() => expect(profile).toHaveBeenCalled());
    // Give the rejected call time to be handled.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logout).not.toHaveBeenCalled();
    expect(screen.queryByText('guarded page')).toBeNull();
  });

  it('leaves a visitor without a session to the sign-in check: no navigation call, no message of its own', async () => {
    const { logout, profile } = guardWithoutSession(false);
    await waitFor(() => expect(logout).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(profile).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('guarded page')).toBeNull();
  });

  it("shows only the sign-in check's message for an expired session", async () => {
    const { profile } = guardWithoutSession('Login is expired.');
    expect(await screen.findByText('Login is expired.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(profile).not.toHaveBeenCalled();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('counts the user acting on the page again as having stayed', () => {
    window.dispatchEvent(new Event('beforeunload'));
    expect(pageIsLeaving()).toBe(true);
    fireEvent.keyDown(window, { key: 'a' });
    expect(pageIsLeaving()).toBe(false);
    window.dispatchEvent(new Event('beforeunload'));
    window.dispatchEvent(new Event('pageshow'));
    expect(pageIsLeaving()).toBe(false);
  });
});
