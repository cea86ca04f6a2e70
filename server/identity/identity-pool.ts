/** The Cognito identity-pool operations behind Amplify's fetchAuthSession credentials. */
import { randomBytes, randomUUID } from 'node:crypto';
import { identitySettings } from '../config.ts';
import { DatabaseUnavailableError } from '../db/adapter.ts';
import { CognitoError, notAuthorized, requireString, stringMap } from './errors.ts';
import type { Store } from './store.ts';
import { isExpiredTokenError, type IdClaims, type Tokens } from './tokens.ts';
import type { Operation } from './user-pool.ts';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** ASIA + 16 characters, the look of an STS temporary access key id. */
function accessKeyId(): string {
  return 'ASIA' + [...randomBytes(16)].map((byte) => BASE32[byte % 32]).join('');
}

export function createIdentityPool(deps: { store: Store; tokens: Tokens; issuer: string; now: () => number }) {
  const { store, tokens } = deps;
  const settings = identitySettings;
  // Amplify keys Logins by the id token's issuer without its scheme; the AWS name is accepted too.
  const providerNames = new Set([
    deps.issuer.replace(/^\w+:\/\//, ''),
    `cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`,
  ]);

  /** Verifies the user-pool id token in Logins and returns its claims. */
  async function login(body: Record<string, unknown>): Promise<IdClaims> {
    const logins = Object.entries(stringMap(body, 'Logins'));
    if (logins.length === 0) throw notAuthorized('Unauthenticated access is not supported for this identity pool.');
    const token = logins.find(([provider]) => providerNames.has(provider))?.[1];
    if (!token) throw notAuthorized("Invalid login token. Issuer doesn't match providerName");
    let claims: IdClaims;
    try {
      claims = await tokens.verifyIdToken(token);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error;
      throw notAuthorized(
        isExpiredTokenError(error)
          ? 'Invalid login token. Token expired.'
          : 'Invalid login token. Not a valid OpenId Connect identity token.',
      );
    }
    const user = await store.findUser(claims['cognito:username']);
    if (!user) throw notAuthorized('Invalid login token. Not a valid OpenId Connect identity token.');
    if (!user.enabled) throw notAuthorized('User is disabled.');
    return claims;
  }

  const operations: Record<string, Operation> = {
    async GetId(body) {
      const poolId = requireString(body, 'IdentityPoolId');
      if (poolId !== settings.identityPoolId) {
        throw new CognitoError('ResourceNotFoundException', `IdentityPool '${poolId}' not found.`);
      }
      const claims = await login(body);
      const identityId = await store.identityFor(claims['cognito:username'], `${settings.region}:${randomUUID()}`);
      return { IdentityId: identityId };
    },

    async GetCredentialsForIdentity(body) {
      const identityId = requireString(body, 'IdentityId');
      const claims = await login(body);
      const owner = await store.identityOwner(identityId);
      if (!owner) throw new CognitoError('ResourceNotFoundException', `Identity '${identityId}' not found.`);
      if (owner !== claims['cognito:username']) {
        throw notAuthorized(
          "Logins don't match. Please include at least one valid login for this identity or identity pool.",
        );
      }
      await store.purgeExpired(new Date(deps.now()));
      const credentials = {
        accessKeyId: accessKeyId(),
        secretAccessKey: randomBytes(30).toString('base64'),
        sessionToken: randomBytes(96).toString('base64'),
        identityId,
        username: owner,
        expiresAt: new Date(deps.now() + settings.credentialsTtl * 1000),
      };
      await store.insertCredentials(credentials);
      return {
        IdentityId: identityId,
        Credentials: {
          AccessKeyId: credentials.accessKeyId,
          SecretKey: credentials.secretAccessKey,
          SessionToken: credentials.sessionToken,
          // Epoch seconds, as Cognito sends it; Amplify multiplies by 1000.
          Expiration: credentials.expiresAt.getTime() / 1000,
        },
      };
    },
  };

  return operations;
}
