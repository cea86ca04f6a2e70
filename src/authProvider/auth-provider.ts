import type { AuthProvider } from 'react-admin';
import { currentSession, endSession } from './amplify-session.ts';
import {
  accessProfile,
  canAccess,
  type AccessProfile,
  type NavigationData,
  type ResourceAccessRule,
} from './access-profile.ts';
import { pageIsLeaving } from './page-leaving.ts';
import { sessionKeys } from './session-keys.ts';
import { isSsoSession, ssoLogoutUrl } from './sso.ts';

export { sessionKeys };

const sessionOnlyKeys = [
  sessionKeys.userId,
  sessionKeys.username,
  sessionKeys.group,
  sessionKeys.profile,
  sessionKeys.idToken,
  sessionKeys.accessToken,
  sessionKeys.refreshToken,
  sessionKeys.roleDescription,
  sessionKeys.sso,
];

/** /login?returnUrl=<the requested address>, so that sign-in leads back to it (spec 01 §2.3). */
export function loginWithReturnUrl(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  const requested = location.pathname + location.search;
  if (requested === '/' || requested.startsWith('/login')) return '/login';
  return `/login?returnUrl=${encodeURIComponent(requested)}`;
}

/** Only an address of this app: a path, never another origin (`//host` or a scheme). */
export function safeReturnUrl(value: string | null): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  return value;
}

function clearSessionKeys() {
  for (const key of sessionOnlyKeys) localStorage.removeItem(key);
}

/** Whether this browser holds what a sign-in recorded: a session that is gone has expired. */
export function hadSession(): boolean {
  return sessionOnlyKeys.some((key) => localStorage.getItem(key));
}

/** Records the session Amplify (or the single sign-on) now holds, under the keys of spec 01 §3. */
export async function rememberSession() {
  const session = await currentSession();
  if (!session?.tokens) throw new Error('Login is expired.');
  const claims = session.tokens.idToken?.payload ?? {};
  const groups = (claims['cognito:groups'] as string[] | undefined) ?? [];
  localStorage.setItem(sessionKeys.userId, String(claims.sub ?? ''));
  localStorage.setItem(sessionKeys.username, String(claims['cognito:username'] ?? ''));
  localStorage.setItem(sessionKeys.group, groups[0] ?? '');
  localStorage.setItem(sessionKeys.profile, JSON.stringify({ email: claims.email, family_name: claims.family_name }));
  localStorage.setItem(sessionKeys.idToken, session.tokens.idToken?.toString() ?? '');
  localStorage.setItem(sessionKeys.accessToken, session.tokens.accessToken.toString());
}

/**
 * Ends the session here: Amplify's or the single sign-on one, and the keys recorded for it. The
 * keys go first (endSession reads what it needs before its first wait): a session check made while
 * Amplify signs out then finds no session to call expired, and says nothing after the sign-out's
 * own message.
 */
export async function forgetSession() {
  const ending = endSession();
  clearSessionKeys();
  await ending;
}

/**
 * Whether a protected page may open: undefined when a session is there (or the page is being
 * left), else where to go and what to say. An expired session is said once: its keys go now and
 * the next check finds none.
 */
export async function sessionCheck(): Promise<{ redirectTo: string; message: string | false } | undefined> {
  const session = await currentSession().catch(() => undefined);
  if (session) return undefined;
  // Cut off by leaving the page: the next page checks again. Failing here would make
  // react-admin sign out, ending the session the next page is about to use.
  if (pageIsLeaving()) return undefined;
  // A visitor who never signed in is simply shown the sign-in screen.
  const expired = hadSession();
  clearSessionKeys();
  return { redirectTo: loginWithReturnUrl(), message: expired ? 'auth.login_expired' : false };
}

export interface AuthProviderOptions {
  /** GET webtool/identity_access/nav_drawer. */
  loadNavigation: () => Promise<NavigationData>;
  /** Per resource: the feature ids and partner types that reach it. */
  rules: Readonly<Record<string, ResourceAccessRule>>;
}

/**
 * The sign-in screen runs the Amplify challenge steps itself (password, emailed code, new
 * password); `login` is called once Amplify reports DONE, to record the session. The access
 * profile (role, partner, permissions) is resolved once per session and cached.
 */
export function createAuthProvider(options: AuthProviderOptions): AuthProvider & {
  profile: (refresh?: boolean) => Promise<AccessProfile | undefined>;
} {
  let cached: Promise<AccessProfile | undefined> | undefined;
  /** Whether `cached` is still being fetched: a refresh asked meanwhile shares that fetch. */
  let inFlight = false;

  /**
   * `refresh` fetches the navigation data again (each protected route does, spec 01 §4), unless a
   * fetch is already under way: a page load asked for it once for the access checks and once for
   * the route, two identical calls.
   */
  const profile = (refresh = false) => {
    if (refresh && !inFlight) cached = undefined;
    if (!cached) {
      inFlight = true;
      const fetching: Promise<AccessProfile | undefined> = (async () => {
        const session = await currentSession();
        const groups = (session?.tokens?.idToken?.payload['cognito:groups'] as string[] | undefined) ?? [];
        const resolved = accessProfile(groups, await options.loadNavigation());
        if (resolved) localStorage.setItem(sessionKeys.roleDescription, resolved.roleDescription);
        return resolved;
      })().then(
        (resolved) => {
          if (cached === fetching) inFlight = false;
          return resolved;
        },
        (error: unknown) => {
          if (cached === fetching) {
            inFlight = false;
            cached = undefined;
          }
          throw error;
        },
      );
      cached = fetching;
    }
    return cached;
  };

  return {
    profile,
    login: async () => {
      cached = undefined;
      inFlight = false;
      await rememberSession();
      await profile();
    },
    // No redirect of its own: callers pass /login with the returnUrl they need.
    logout: async () => {
      cached = undefined;
      inFlight = false;
      const sso = isSsoSession();
      await forgetSession();
      // A single sign-on also ends at the provider, which comes back to /callback (spec 01 §2.3).
      return sso ? ssoLogoutUrl() : undefined;
    },
    checkAuth: async () => {
      const refusal = await sessionCheck();
      if (refusal) throw refusal;
    },
    checkError: async (error: { status?: number }) => {
      // A call cut off by leaving the page may read as 401 (no session to sign it with).
      if (error?.status === 401 && !pageIsLeaving()) {
        await forgetSession();
        throw { redirectTo: loginWithReturnUrl(), message: 'http.need_to_login' };
      }
    },
    getIdentity: async () => {
      const session = await currentSession();
      const claims = session?.tokens?.idToken?.payload ?? {};
      return {
        id: String(claims['cognito:username'] ?? ''),
        fullName: String(claims.email ?? claims['cognito:username'] ?? ''),
      };
    },
    getPermissions: async () => profile(),
    canAccess: async (params: { resource: string; action: string }) =>
      canAccess(await profile(), options.rules, params),
  };
}
