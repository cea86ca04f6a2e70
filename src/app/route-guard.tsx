import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { HttpError, Loading, useAuthenticated, useAuthProvider, useLogout, useNotify } from 'react-admin';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { canOpenPath } from '../authProvider/route-access.ts';
import { NotFoundPage } from '../custom/pages/not-found-page.tsx';
import { pageIsLeaving } from '../authProvider/page-leaving.ts';

type ProfileSource = { profile: (refresh?: boolean) => Promise<AccessProfile | undefined> };

/**
 * Before a protected route opens, the navigation data is fetched; route prefixes match
 * case-insensitively (react-router's default and canOpenPath); the partner type and module
 * permission of the area must allow it, otherwise the 404 page. A failed navigation call follows
 * spec 01 §8: 403 or 0 signs out with the server's message; 500/502 asks to try again. A call cut
 * off because the page is being left (reload, link out) is neither.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const authProvider = useAuthProvider() as unknown as ProfileSource | undefined;
  const { pathname, search } = useLocation();
  const notify = useNotify();
  const logout = useLogout();
  const [profile, setProfile] = useState<AccessProfile | null>();
  const { isPending: checkingSession, authenticated } = useAuthenticated();

  useEffect(() => {
    // Without a session the sign-in check has already sent the visitor to the sign-in screen;
    // a navigation call would only fail and add a second message.
    if (checkingSession || !authenticated) return;
    let current = true;
    authProvider
      ?.profile(true)
      .then((loaded) => current && setProfile(loaded ?? null))
      .catch((error: unknown) => {
        // A request cut off by leaving the page is no answer from the gateway: signing out on it
        // would end the session the next page is about to use.
        if (!current || pageIsLeaving()) return;
        const status = error instanceof HttpError ? error.status : 0;
        if (status === 500 || status === 502) {
          notify('http.try_again', { type: 'error' });
          return;
        }
        const message =
          error instanceof HttpError && error.body?.message ? String(error.body.message) : 'http.token_expired_login';
        notify(message, { type: 'error' });
        void logout({}, `/login?returnUrl=${encodeURIComponent(pathname + search)}`);
      });
    return () => {
      current = false;
    };
  }, [authProvider, checkingSession, authenticated, pathname, search, notify, logout]);

  if (checkingSession || !authenticated || profile === undefined) return <Loading />;
  if (profile === null || !canOpenPath(profile, pathname)) return <NotFoundPage />;
  return <>{children}</>;
}
