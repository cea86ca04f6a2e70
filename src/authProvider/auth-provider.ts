import type { AuthProvider } from 'react-admin';
import { currentSession, endSession } from './amplify-session.ts';

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

/**
 * The sign-in screen runs the Amplify challenge steps itself (password, emailed code, new
 * password); `login` is called once Amplify reports DONE, to record the session.
 */
export function createAuthProvider(): AuthProvider {
  return {
    login: () => rememberSession(),
    logout: async () => {
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
    getPermissions: async () => {
      const session = await currentSession();
      return (session?.tokens?.idToken?.payload['cognito:groups'] as string[] | undefined) ?? [];
    },
  };
}
