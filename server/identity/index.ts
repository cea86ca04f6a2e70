/**
 * Local stand-in for the Cognito user pool and identity pool that aws-amplify v6 talks to, plus
 * the administration calls the gateway and the seed need. See ARCHITECTURE.md, "The local stack".
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/adapter.ts';
import { identitySettings } from '../config.ts';
import { CognitoError, invalidParameter } from './errors.ts';
import { createIdentityPool } from './identity-pool.ts';
import { createOAuth, registerOAuthRoutes } from './oauth.ts';
import { createOutbox, type Email, type OutboxEntry } from './outbox.ts';
import { assertPasswordPolicy, generateTemporaryPassword } from './passwords.ts';
import { registerIdentityRoutes } from './routes.ts';
import { createPasswordVerifier } from './srp.ts';
import { createStore, type UserStatus } from './store.ts';
import { createTokens } from './tokens.ts';
import { createUserPool } from './user-pool.ts';

export type { AccessClaims, IdClaims } from './tokens.ts';
export type { Email, OutboxEntry } from './outbox.ts';
export { CognitoError } from './errors.ts';

export interface IdentityOptions {
  /** Local mode keeps emails in the outbox and serves GET /__dev/outbox. */
  local: boolean;
  /** Token issuer is `${issuerBase}/${userPoolId}`. */
  issuerBase?: string;
  /** Milliseconds since the epoch; tests move it to expire codes and tokens. */
  now?: () => number;
  /** Where email log lines go; defaults to the Fastify logger once registered, else the console. */
  log?: (line: string) => void;
}

export interface NewIdentityUser {
  username: string;
  email: string;
  familyName: string;
  /** Role names, in order; they become the cognito:groups claim. */
  groups: string[];
  /** Omitted means a generated temporary password. */
  password?: string;
  /** The password must be changed at first sign-in (NEW_PASSWORD_REQUIRED). */
  temporary?: boolean;
}

export interface IdentityUser {
  username: string;
  sub: string;
  email: string;
  familyName: string;
  groups: string[];
  enabled: boolean;
  status: UserStatus;
}

export interface IssuedCredentials {
  secretAccessKey: string;
  sessionToken: string;
  identityId: string;
  username: string;
  expiresAt: Date;
}

/** Issued credentials one process keeps (as many as the signed-in users of a busy day, times a few hours). */
const CREDENTIALS_KEPT = 10_000;

const userNotFound = () => new CognitoError('UserNotFoundException', 'User does not exist.');

export function createIdentity(db: Db, options: IdentityOptions) {
  const settings = identitySettings;
  const now = options.now ?? Date.now;
  const issuer = `${options.issuerBase ?? settings.issuerBase}/${settings.userPoolId}`;
  const poolName = settings.userPoolId.split('_')[1];
  let log = options.log ?? ((line: string) => console.log(`[identity] ${line}`));

  const store = createStore(db);
  const storeOfPool = store;
  const outboxOptions = { local: options.local, now, log: (line: string) => log(line) };
  const outbox = createOutbox(db, outboxOptions);
  const tokens = createTokens(db, {
    issuer,
    clientId: settings.userPoolClientId,
    ttlSeconds: settings.idTokenTtl,
    now,
  });
  const userPool = createUserPool({ store, tokens, outbox, now });
  const identityPool = createIdentityPool({ store, tokens, issuer, now });
  const oauth = createOAuth({ db, store, tokens, now });

  const temporaryExpiry = () => new Date(now() + settings.temporaryPasswordDays * 24 * 3600 * 1000);

  async function temporaryPasswordMail(
    to: typeof outbox,
    user: { username: string; email: string },
    password: string,
    subject: string,
  ) {
    await to.send({
      to: user.email,
      subject,
      body:
        `Your username is ${user.username} and your temporary password is ${password}. ` +
        `Sign in within ${settings.temporaryPasswordDays} days to choose your own password.`,
      code: password,
    });
  }
  const sendTemporaryPassword = (user: { username: string; email: string }, password: string, subject: string) =>
    temporaryPasswordMail(outbox, user, password, subject);
  const sendTemporaryPasswordOfPool = sendTemporaryPassword;

  const issuedCredentials = new Map<string, IssuedCredentials>();

  return {
    issuer,

    async register(app: FastifyInstance): Promise<void> {
      if (!options.log) log = (line) => app.log.info(line);
      await registerIdentityRoutes(app, {
        userPool,
        identityPool,
        jwks: () => tokens.jwks(),
        outbox: options.local ? () => outbox.read() : undefined,
        // Local only: ends a user's code block as if its minutes had passed, so a journey need not
        // wait them out in real time (the browser's clock is moved alongside).
        endBlock: options.local ? (username) => store.block(username, new Date(now())) : undefined,
      });
      // The hosted UI (authorization code with PKCE) of the single sign-on option.
      await registerOAuthRoutes(app, oauth);
    },

    /** Claims of a valid id token of this pool; throws on a bad signature, expiry or wrong token_use. */
    verifyIdToken: tokens.verifyIdToken,
    /** Claims of a valid access token of this pool; throws like verifyIdToken. */
    verifyAccessToken: tokens.verifyAccessToken,
    jwks: tokens.jwks,

    /**
     * Credentials issued by GetCredentialsForIdentity, expired ones included: the caller checks expiresAt.
     * Issued credentials never change (written once, deleted a day after they expired), so this process keeps
     * those it found: a signed request costs no database round trip for them (issue 32). An unknown key is
     * looked for every time (another process may just have issued it).
     */
    async findCredentials(accessKeyId: string): Promise<IssuedCredentials | null> {
      const known = issuedCredentials.get(accessKeyId);
      if (known) return known;
      const found = await store.findCredentials(accessKeyId);
      if (!found) return null;
      const { secretAccessKey, sessionToken, identityId, username, expiresAt } = found;
      const issued = { secretAccessKey, sessionToken, identityId, username, expiresAt };
      if (issuedCredentials.size >= CREDENTIALS_KEPT) issuedCredentials.delete(issuedCredentials.keys().next().value!);
      issuedCredentials.set(accessKeyId, issued);
      return issued;
    },

    async getUser(username: string): Promise<IdentityUser | null> {
      const user = await store.findUser(username);
      if (!user) return null;
      const { sub, email, familyName, groups, enabled, status } = user;
      return { username, sub, email, familyName, groups, enabled, status };
    },

    /**
     * Creates a user; a temporary password (given or generated) is emailed and must be changed. With `tx`, the
     * user and its email are written in the caller's transaction (the webtool's user and its audit row commit
     * together, or neither does).
     */
    async createUser(input: NewIdentityUser, within?: { tx: Db }): Promise<{ temporaryPassword?: string }> {
      const store = within ? createStore(within.tx) : storeOfPool;
      const sendTemporaryPassword = within
        ? (user: { username: string; email: string }, password: string, subject: string) =>
            temporaryPasswordMail(createOutbox(within.tx, outboxOptions), user, password, subject)
        : sendTemporaryPasswordOfPool;
      if (!input.username.trim() || !input.email.includes('@')) {
        throw invalidParameter('A username and a valid email are required.');
      }
      const temporary = input.temporary ?? input.password === undefined;
      const password = input.password ?? generateTemporaryPassword();
      assertPasswordPolicy(password);
      if (await store.findUser(input.username)) {
        throw new CognitoError('UsernameExistsException', 'User account already exists');
      }
      if (await store.emailTaken(input.email)) {
        throw new CognitoError('AliasExistsException', 'An account with the given email already exists.');
      }
      await store.insertUser({
        username: input.username,
        sub: randomUUID(),
        email: input.email,
        familyName: input.familyName,
        groups: input.groups,
        status: temporary ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
        password: createPasswordVerifier(poolName, input.username, password),
        temporaryPasswordExpiresAt: temporary ? temporaryExpiry() : null,
      });
      if (!temporary) return {};
      await sendTemporaryPassword(input, password, 'Your webtool login');
      return { temporaryPassword: password };
    },

    /** Changes profile attributes; the next tokens (sign-in or refresh) carry them. */
    async updateUser(username: string, profile: { email?: string; familyName?: string; groups?: string[] }) {
      if (profile.email !== undefined && (await store.emailTaken(profile.email, username))) {
        throw new CognitoError('AliasExistsException', 'An account with the given email already exists.');
      }
      if (!(await store.updateProfile(username, profile))) throw userNotFound();
    },

    /** Disabling also revokes the user's refresh tokens, as AdminDisableUser does. */
    async setEnabled(username: string, enabled: boolean): Promise<void> {
      if (!(await store.setEnabled(username, enabled))) throw userNotFound();
      if (!enabled) await store.revokeAllRefreshTokens(username, new Date(now()));
    },

    /** Administrator reset: a new temporary password is emailed and signs the user out everywhere. */
    async resetPassword(username: string): Promise<{ temporaryPassword: string }> {
      const user = await store.findUser(username);
      if (!user) throw userNotFound();
      const password = generateTemporaryPassword();
      await store.setPassword(username, createPasswordVerifier(poolName, username, password), {
        expiresAt: temporaryExpiry(),
      });
      await store.clearCodeFailures(username);
      await store.revokeAllRefreshTokens(username, new Date(now()));
      await sendTemporaryPassword(user, password, 'Your webtool password was reset');
      return { temporaryPassword: password };
    },

    async deleteUser(username: string): Promise<void> {
      if (!(await store.deleteUser(username))) throw userNotFound();
    },

    sendEmail: (email: Email): Promise<void> => outbox.send(email),

    /** Emails kept in local mode, newest last. */
    readOutbox: (): Promise<OutboxEntry[]> => outbox.read(),
  };
}

export type Identity = ReturnType<typeof createIdentity>;
