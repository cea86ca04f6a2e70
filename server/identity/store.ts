/** SQL of the identity stand-in. Every time comes from the caller's clock, so tests can move it. */
import type { Db } from '../db/adapter.ts';
import type { PasswordVerifier } from './srp.ts';

export type UserStatus = 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD';

export interface User {
  username: string;
  sub: string;
  email: string;
  familyName: string;
  groups: string[];
  enabled: boolean;
  status: UserStatus;
  salt: string;
  verifier: string;
  temporaryPasswordExpiresAt: Date | null;
  failedCodeCount: number;
  blockedUntil: Date | null;
}

interface UserRow {
  username: string;
  sub: string;
  email: string;
  family_name: string;
  groups: string[];
  enabled: boolean;
  status: UserStatus;
  srp_salt: string;
  srp_verifier: string;
  temporary_password_expires_at: Date | null;
  failed_code_count: number;
  blocked_until: Date | null;
}

const toUser = (row: UserRow): User => ({
  username: row.username,
  sub: row.sub,
  email: row.email,
  familyName: row.family_name,
  groups: row.groups,
  enabled: row.enabled,
  status: row.status,
  salt: row.srp_salt,
  verifier: row.srp_verifier,
  temporaryPasswordExpiresAt: row.temporary_password_expires_at,
  failedCodeCount: row.failed_code_count,
  blockedUntil: row.blocked_until,
});

export type AuthStage = 'PASSWORD_VERIFIER' | 'NEW_PASSWORD_REQUIRED' | 'CUSTOM_CHALLENGE';

export interface AuthSession {
  session: string;
  /** Null for the decoy flow of an unknown user. */
  username: string | null;
  login: string;
  stage: AuthStage;
  srpA: string | null;
  srpB: string | null;
  srpBigB: string | null;
  secretBlock: string | null;
  code: string | null;
  expiresAt: Date;
}

export interface RefreshTokenRecord {
  originJti: string;
  username: string;
  clientId: string;
  authTime: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface StoredCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  identityId: string;
  username: string;
  expiresAt: Date;
}

export interface NewUser {
  username: string;
  sub: string;
  email: string;
  familyName: string;
  groups: string[];
  status: UserStatus;
  password: PasswordVerifier;
  temporaryPasswordExpiresAt: Date | null;
}

export function createStore(db: Db) {
  const one = async <T>(sql: string, params: unknown[]): Promise<T | undefined> =>
    (await db.query<T>(sql, params)).rows[0];

  return {
    async findUser(username: string): Promise<User | undefined> {
      const row = await one<UserRow>('SELECT * FROM identity_users WHERE username = $1', [username]);
      return row && toUser(row);
    },

    /** By username, else by email (case-insensitive): users sign in with either. */
    async findUserByLogin(login: string): Promise<User | undefined> {
      const row = await one<UserRow>(
        `SELECT * FROM identity_users WHERE username = $1 OR lower(email) = lower($1)
         ORDER BY (username = $1) DESC LIMIT 1`,
        [login],
      );
      return row && toUser(row);
    },

    async emailTaken(email: string, exceptUsername?: string): Promise<boolean> {
      const row = await one(
        'SELECT 1 FROM identity_users WHERE lower(email) = lower($1) AND username IS DISTINCT FROM $2',
        [email, exceptUsername ?? null],
      );
      return row !== undefined;
    },

    async insertUser(user: NewUser): Promise<void> {
      await db.query(
        `INSERT INTO identity_users (username, sub, email, family_name, groups, status, srp_salt, srp_verifier,
           temporary_password_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          user.username,
          user.sub,
          user.email,
          user.familyName,
          JSON.stringify(user.groups),
          user.status,
          user.password.salt,
          user.password.verifier,
          user.temporaryPasswordExpiresAt,
        ],
      );
    },

    async updateProfile(
      username: string,
      profile: { email?: string; familyName?: string; groups?: string[] },
    ): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE identity_users SET email = coalesce($2, email), family_name = coalesce($3, family_name),
           groups = coalesce($4::jsonb, groups), updated_at = now()
         WHERE username = $1 RETURNING username`,
        [
          username,
          profile.email ?? null,
          profile.familyName ?? null,
          profile.groups ? JSON.stringify(profile.groups) : null,
        ],
      );
      return rows.length > 0;
    },

    /** Sets a new password; a temporary one comes with its expiry and forces a change at sign-in. */
    async setPassword(
      username: string,
      password: PasswordVerifier,
      temporary: { expiresAt: Date } | null,
    ): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE identity_users SET srp_salt = $2, srp_verifier = $3, status = $4,
           temporary_password_expires_at = $5, updated_at = now()
         WHERE username = $1 RETURNING username`,
        [
          username,
          password.salt,
          password.verifier,
          temporary ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
          temporary?.expiresAt ?? null,
        ],
      );
      return rows.length > 0;
    },

    /** The user chose their own password on the NEW_PASSWORD_REQUIRED challenge. */
    async completeNewPassword(username: string, password: PasswordVerifier): Promise<void> {
      await db.query(
        `UPDATE identity_users SET srp_salt = $2, srp_verifier = $3, status = 'CONFIRMED',
           temporary_password_expires_at = NULL, invalid_otp_count = 95, updated_at = now()
         WHERE username = $1`,
        [username, password.salt, password.verifier],
      );
    },

    async setEnabled(username: string, enabled: boolean): Promise<boolean> {
      const { rows } = await db.query(
        'UPDATE identity_users SET enabled = $2, updated_at = now() WHERE username = $1 RETURNING username',
        [username, enabled],
      );
      return rows.length > 0;
    },

    async deleteUser(username: string): Promise<boolean> {
      const { rows } = await db.query('DELETE FROM identity_users WHERE username = $1 RETURNING username', [username]);
      return rows.length > 0;
    },

    /** Counts one more wrong emailed code and returns how many there are in a row. */
    async recordWrongCode(username: string): Promise<number> {
      const row = await one<{ failed_code_count: number }>(
        `UPDATE identity_users SET failed_code_count = failed_code_count + 1
         WHERE username = $1 RETURNING failed_code_count`,
        [username],
      );
      return row?.failed_code_count ?? 0;
    },

    async block(username: string, until: Date): Promise<void> {
      await db.query('UPDATE identity_users SET failed_code_count = 0, blocked_until = $2 WHERE username = $1', [
        username,
        until,
      ]);
    },

    async clearCodeFailures(username: string): Promise<void> {
      await db.query('UPDATE identity_users SET failed_code_count = 0, blocked_until = NULL WHERE username = $1', [
        username,
      ]);
    },

    /**
     * Counts one more wrong password of each subject and returns the counts in the same order; a
     * subject whose last failure is older than `forgetBefore` starts again from one.
     */
    async recordPasswordFailures(subjects: string[], at: Date, forgetBefore: Date): Promise<number[]> {
      const counts: number[] = [];
      for (const subject of subjects) {
        const row = await one<{ failures: number }>(
          `INSERT INTO identity_password_failures (subject, failures, last_failure_at) VALUES ($1, 1, $2)
           ON CONFLICT (subject) DO UPDATE SET
             failures = CASE WHEN identity_password_failures.last_failure_at < $3 THEN 1
                             ELSE identity_password_failures.failures + 1 END,
             last_failure_at = $2
           RETURNING failures`,
          [subject, at, forgetBefore],
        );
        counts.push(row!.failures);
      }
      return counts;
    },

    async lockPasswordAttempts(subject: string, until: Date): Promise<void> {
      await db.query('UPDATE identity_password_failures SET locked_until = $2 WHERE subject = $1', [subject, until]);
    },

    /** The latest lock of any of the subjects, null when none is locked at `now`. */
    async passwordLockedUntil(subjects: string[], now: Date): Promise<Date | null> {
      const row = await one<{ until: Date | null }>(
        `SELECT max(locked_until) AS until FROM identity_password_failures
         WHERE subject = ANY($1::text[]) AND locked_until > $2`,
        [subjects, now],
      );
      return row?.until ?? null;
    },

    async clearPasswordFailures(subjects: string[]): Promise<void> {
      await db.query('DELETE FROM identity_password_failures WHERE subject = ANY($1::text[])', [subjects]);
    },

    async createSession(session: AuthSession): Promise<void> {
      await db.query(
        `INSERT INTO identity_auth_sessions (session, username, login, stage, srp_a, srp_b, srp_big_b, secret_block,
           code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          session.session,
          session.username,
          session.login,
          session.stage,
          session.srpA,
          session.srpB,
          session.srpBigB,
          session.secretBlock,
          session.code,
          session.expiresAt,
        ],
      );
    },

    async findSession(session: string): Promise<AuthSession | undefined> {
      const row = await one<{
        session: string;
        username: string | null;
        login: string;
        stage: AuthStage;
        srp_a: string | null;
        srp_b: string | null;
        srp_big_b: string | null;
        secret_block: string | null;
        code: string | null;
        expires_at: Date;
      }>('SELECT * FROM identity_auth_sessions WHERE session = $1', [session]);
      return (
        row && {
          session: row.session,
          username: row.username,
          login: row.login,
          stage: row.stage,
          srpA: row.srp_a,
          srpB: row.srp_b,
          srpBigB: row.srp_big_b,
          secretBlock: row.secret_block,
          code: row.code,
          expiresAt: row.expires_at,
        }
      );
    },

    /** Deletes the session; false when someone else used it first (each Session answers once). */
    async consumeSession(session: string): Promise<boolean> {
      const { rows } = await db.query('DELETE FROM identity_auth_sessions WHERE session = $1 RETURNING session', [
        session,
      ]);
      return rows.length > 0;
    },

    async purgeExpired(now: Date): Promise<void> {
      await db.query('DELETE FROM identity_auth_sessions WHERE expires_at < $1', [now]);
      // Expired credentials stay a day so the gateway can still say "expired" rather than "unknown".
      await db.query("DELETE FROM identity_credentials WHERE expires_at < $1::timestamptz - interval '1 day'", [now]);
    },

    async insertRefreshToken(tokenHash: string, record: Omit<RefreshTokenRecord, 'revokedAt'>): Promise<void> {
      await db.query(
        `INSERT INTO identity_refresh_tokens (token_hash, origin_jti, username, client_id, auth_time, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [tokenHash, record.originJti, record.username, record.clientId, record.authTime, record.expiresAt],
      );
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const row = await one<{
        origin_jti: string;
        username: string;
        client_id: string;
        auth_time: Date;
        expires_at: Date;
        revoked_at: Date | null;
      }>('SELECT * FROM identity_refresh_tokens WHERE token_hash = $1', [tokenHash]);
      return (
        row && {
          originJti: row.origin_jti,
          username: row.username,
          clientId: row.client_id,
          authTime: row.auth_time,
          expiresAt: row.expires_at,
          revokedAt: row.revoked_at,
        }
      );
    },

    async revokeRefreshToken(tokenHash: string, clientId: string, now: Date): Promise<void> {
      await db.query(
        `UPDATE identity_refresh_tokens SET revoked_at = $3
         WHERE token_hash = $1 AND client_id = $2 AND revoked_at IS NULL`,
        [tokenHash, clientId, now],
      );
    },

    async revokeAllRefreshTokens(username: string, now: Date): Promise<void> {
      await db.query('UPDATE identity_refresh_tokens SET revoked_at = $2 WHERE username = $1 AND revoked_at IS NULL', [
        username,
        now,
      ]);
    },

    /** True when the sign-in that produced a token was signed out or revoked. */
    async isOriginRevoked(originJti: string): Promise<boolean> {
      const row = await one<{ revoked: boolean }>(
        'SELECT revoked_at IS NOT NULL AS revoked FROM identity_refresh_tokens WHERE origin_jti = $1',
        [originJti],
      );
      return row?.revoked ?? true;
    },

    /** The user's identity id, created on first request. */
    async identityFor(username: string, newIdentityId: string): Promise<string> {
      await db.query(
        'INSERT INTO identity_identities (identity_id, username) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING',
        [newIdentityId, username],
      );
      const row = await one<{ identity_id: string }>(
        'SELECT identity_id FROM identity_identities WHERE username = $1',
        [username],
      );
      return row!.identity_id;
    },

    async identityOwner(identityId: string): Promise<string | undefined> {
      const row = await one<{ username: string }>('SELECT username FROM identity_identities WHERE identity_id = $1', [
        identityId,
      ]);
      return row?.username;
    },

    async insertCredentials(credentials: StoredCredentials): Promise<void> {
      await db.query(
        `INSERT INTO identity_credentials (access_key_id, secret_access_key, session_token, identity_id, username,
           expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          credentials.accessKeyId,
          credentials.secretAccessKey,
          credentials.sessionToken,
          credentials.identityId,
          credentials.username,
          credentials.expiresAt,
        ],
      );
    },

    async findCredentials(accessKeyId: string): Promise<StoredCredentials | undefined> {
      const row = await one<{
        access_key_id: string;
        secret_access_key: string;
        session_token: string;
        identity_id: string;
        username: string;
        expires_at: Date;
      }>('SELECT * FROM identity_credentials WHERE access_key_id = $1', [accessKeyId]);
      return (
        row && {
          accessKeyId: row.access_key_id,
          secretAccessKey: row.secret_access_key,
          sessionToken: row.session_token,
          identityId: row.identity_id,
          username: row.username,
          expiresAt: row.expires_at,
        }
      );
    },

    async saveResetCode(username: string, code: string, expiresAt: Date): Promise<void> {
      await db.query(
        `INSERT INTO identity_password_resets (username, code, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (username) DO UPDATE SET code = $2, expires_at = $3, failed_attempts = 0, created_at = now()`,
        [username, code, expiresAt],
      );
    },

    async findResetCode(
      username: string,
    ): Promise<{ code: string; failedAttempts: number; expiresAt: Date } | undefined> {
      const row = await one<{ code: string; failed_attempts: number; expires_at: Date }>(
        'SELECT code, failed_attempts, expires_at FROM identity_password_resets WHERE username = $1',
        [username],
      );
      return row && { code: row.code, failedAttempts: row.failed_attempts, expiresAt: row.expires_at };
    },

    async recordWrongResetCode(username: string): Promise<void> {
      await db.query('UPDATE identity_password_resets SET failed_attempts = failed_attempts + 1 WHERE username = $1', [
        username,
      ]);
    },

    async deleteResetCode(username: string): Promise<void> {
      await db.query('DELETE FROM identity_password_resets WHERE username = $1', [username]);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
