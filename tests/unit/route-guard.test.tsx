import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, HttpError, type AuthProvider } from 'react-admin';
import { RouteGuard } from '../../src/app/route-guard.tsx';
import { pageIsLeaving } from '../../src/authProvider/page-leaving.ts';

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
  render(
    <AdminContext authProvider={authProvider}>
      <RouteGuard>
        <p>guarded page</p>
      </RouteGuard>
    </AdminContext>,
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
