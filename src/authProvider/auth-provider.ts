import type { AuthProvider } from 'react-admin';
import { currentSession, endSession } from './amplify-session.ts';
import {
  accessProfile,
  canAccess,
  type AccessProfile,
  type NavigationData,
  type ResourceAccessRule,
} from './access-profile.ts';

/** Session keys kept in local storage (spec 01 §3). */
export const sessionKeys = {
  userId: 'wt.user_id',
  username: 'wt.username',
  group: 'wt.group',
  profile: 'wt.profile',
  idToken: 'wt.id_token',
  accessToken: 'wt.access_token',
  refreshToken: 'wt.refresh_token',
  roleDescription: 'wt.role_description',
  language: 'wt.language',
  filters: 'wt.filters',
} as const;

const sessionOnlyKeys = [
  sessionKeys.userId,
  sessionKeys.username,
  sessionKeys.group,
  sessionKeys.profile,
  sessionKeys.idToken,
  sessionKeys.accessToken,
  sessionKeys.refreshToken,
  sessionKeys.roleDescription,
];

function clearSessionKeys() {
  for (const key of sessionOnlyKeys) localStorage.removeItem(key);
}

async function rememberSession() {
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
  profile: () => Promise<AccessProfile | undefined>;
} {
  let cached: Promise<AccessProfile | undefined> | undefined;

  const profile = () => {
    cached ??= (async () => {
      const session = await currentSession();
      const groups = (session?.tokens?.idToken?.payload['cognito:groups'] as string[] | undefined) ?? [];
      const resolved = accessProfile(groups, await options.loadNavigation());
      if (resolved) localStorage.setItem(sessionKeys.roleDescription, resolved.roleDescription);
      return resolved;
    })().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };

  return {
    profile,
    login: async () => {
      cached = undefined;
      await rememberSession();
      await profile();
    },
    logout: async () => {
      cached = undefined;
      await endSession();
      clearSessionKeys();
      return '/login';
    },
    checkAuth: async () => {
      const session = await currentSession().catch(() => undefined);
      if (!session) {
        clearSessionKeys();
        throw { redirectTo: '/login', message: 'auth.login_expired' };
      }
    },
    checkError: async (error: { status?: number }) => {
      if (error?.status === 401) {
        await endSession();
        clearSessionKeys();
        throw { redirectTo: '/login', message: 'auth.need_to_login' };
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
