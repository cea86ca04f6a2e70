import { randomUUID } from 'node:crypto';
import { SignJWT, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import type { Db } from '../db/adapter.ts';

/** Claims of an id token, as Cognito issues them. A type, not an interface, so it fits Record<string, unknown>. */
export type IdClaims = {
  sub: string;
  email: string;
  email_verified: boolean;
  family_name: string;
  'cognito:username': string;
  /** Absent, as with Cognito, when the user has no group. */
  'cognito:groups'?: string[];
  token_use: 'id';
  aud: string;
  iss: string;
  auth_time: number;
  iat: number;
  exp: number;
  jti: string;
  origin_jti: string;
  event_id: string;
};

/** Claims of an access token, as Cognito issues them. */
export type AccessClaims = {
  sub: string;
  'cognito:groups'?: string[];
  username: string;
  client_id: string;
  token_use: 'access';
  scope: string;
  iss: string;
  auth_time: number;
  iat: number;
  exp: number;
  jti: string;
  origin_jti: string;
  event_id: string;
};

export interface TokenSubject {
  username: string;
  sub: string;
  email: string;
  familyName: string;
  groups: string[];
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export const isExpiredTokenError = (error: unknown) => error instanceof errors.JWTExpired;

/** Tokens whose signature this process checked; a signed-in client sends the same one on every call. */
const VERIFIED_TOKENS_KEPT = 10_000;

export function createTokens(
  db: Db,
  options: { issuer: string; clientId: string; ttlSeconds: number; now: () => number },
) {
  let signingKey: Promise<SigningKey> | undefined;
  /**
   * Payloads of tokens whose signature, issuer and audience checked out, by audience and token. A
   * signature stays valid, and every process signs with the same stored key, so the cache is safe per
   * process; only the expiry still moves, and it is checked on every use. An RSA check through
   * WebCrypto costs more than the rest of a small gateway call.
   */
  const verified = new Map<string, JWTPayload>();

  /** Loads the stored key pair, creating it on first use; concurrent first uses agree on one row. */
  async function loadKey(): Promise<SigningKey> {
    const existing = await db.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
      'SELECT kid, private_jwk, public_jwk FROM identity_signing_key WHERE id = 1',
    );
    let row = existing.rows[0];
    if (!row) {
      const pair = await generateKeyPair('RS256', { extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
      const privateJwk = { ...(await exportJWK(pair.privateKey)), kid, alg: 'RS256' };
      await db.query(
        'INSERT INTO identity_signing_key (id, kid, private_jwk, public_jwk) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING',
        [kid, JSON.stringify(privateJwk), JSON.stringify(publicJwk)],
      );
      row = (
        await db.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
          'SELECT kid, private_jwk, public_jwk FROM identity_signing_key WHERE id = 1',
        )
      ).rows[0];
    }
    return {
      kid: row.kid,
      privateKey: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey,
      publicKey: (await importJWK(row.public_jwk, 'RS256')) as CryptoKey,
      publicJwk: row.public_jwk,
    };
  }

  function key(): Promise<SigningKey> {
    signingKey ??= loadKey().catch((error: unknown) => {
      signingKey = undefined;
      throw error;
    });
    return signingKey;
  }

  async function sign(claims: Record<string, unknown>): Promise<string> {
    const { kid, privateKey } = await key();
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
  }

  async function verify(token: string, audience?: string) {
    const cacheKey = `${audience ?? ''} ${token}`;
    const known = verified.get(cacheKey);
    if (known && typeof known.exp === 'number' && known.exp * 1000 > options.now()) return known;
    const { publicKey } = await key();
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: ['RS256'],
      issuer: options.issuer,
      audience,
      currentDate: new Date(options.now()),
    });
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(cacheKey, payload);
    return payload;
  }

  return {
    async jwks(): Promise<{ keys: JWK[] }> {
      return { keys: [(await key()).publicJwk] };
    },

    /** Id and access tokens of one sign-in (`originJti`), both living `ttlSeconds`. */
    async issue(subject: TokenSubject, session: { originJti: string; authTime: Date }) {
      const iat = Math.floor(options.now() / 1000);
      const common = {
        sub: subject.sub,
        ...(subject.groups.length > 0 ? { 'cognito:groups': subject.groups } : {}),
        iss: options.issuer,
        auth_time: Math.floor(session.authTime.getTime() / 1000),
        iat,
        exp: iat + options.ttlSeconds,
        origin_jti: session.originJti,
        event_id: randomUUID(),
      };
      const idClaims: IdClaims = {
        ...common,
        email: subject.email,
        email_verified: true,
        family_name: subject.familyName,
        'cognito:username': subject.username,
        token_use: 'id',
        aud: options.clientId,
        jti: randomUUID(),
      };
      const accessClaims: AccessClaims = {
        ...common,
        username: subject.username,
        client_id: options.clientId,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        jti: randomUUID(),
      };
      const [IdToken, AccessToken] = await Promise.all([sign({ ...idClaims }), sign({ ...accessClaims })]);
      return { IdToken, AccessToken, ExpiresIn: options.ttlSeconds };
    },

    async verifyIdToken(token: string): Promise<IdClaims> {
      const payload = await verify(token, options.clientId);
      if (payload.token_use !== 'id') throw new Error('Not an id token.');
      return payload as unknown as IdClaims;
    },

    async verifyAccessToken(token: string): Promise<AccessClaims> {
      const payload = await verify(token);
      if (payload.token_use !== 'access' || payload.client_id !== options.clientId) {
        throw new Error('Not an access token of this client.');
      }
      return payload as unknown as AccessClaims;
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
