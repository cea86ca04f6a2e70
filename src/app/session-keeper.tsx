import { useEffect } from 'react';
import { useLogout, useNotify } from 'react-admin';
import { currentSession } from '../authProvider/amplify-session.ts';
import { activity, startSessionKeeper, type SignOutReason } from '../authProvider/session-rules.ts';
import { hadSession, loginWithReturnUrl } from '../authProvider/auth-provider.ts';
import { pageIsLeaving } from '../authProvider/page-leaving.ts';

const messages: Record<SignOutReason, string> = {
  inactive: 'auth.signed_out_inactive',
  expired: 'http.token_expired_login',
  refresh_failed: 'http.token_expired_login',
};

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Runs the token and inactivity checks of spec 01 §4 while a user is signed in. */
export function SessionKeeper({ inactiveSignOutSeconds }: { inactiveSignOutSeconds: number }) {
  const logout = useLogout();
  const notify = useNotify();

  useEffect(() => {
    activity.record();
    const onActivity = () => activity.record();
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, onActivity, { passive: true });
    const stop = startSessionKeeper({
      now: () => Date.now(),
      tokenExpiry: async () => (await currentSession())?.tokens?.idToken?.payload.exp,
      refresh: async () => {
        if (!(await currentSession(true))) throw new Error('refresh failed');
      },
      lastActivity: activity.last,
      inactiveSignOutSeconds,
      signOut: (reason) => {
        // A refresh cut off by leaving the page is not a failed one.
        if (reason === 'refresh_failed' && pageIsLeaving()) return;
        // No session recorded: either none ever was (the layout shows while the sign-in check
        // still runs, and that check sends the visitor to the sign-in screen without a word), or
        // another path has already ended it and said so. A session's end is said once.
        if (!hadSession()) return;
        notify(messages[reason], { type: 'warning' });
        void logout({}, reason === 'inactive' ? '/login' : loginWithReturnUrl());
      },
    });
    return () => {
      stop();
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity);
    };
  }, [inactiveSignOutSeconds, logout, notify]);

  return null;
}
