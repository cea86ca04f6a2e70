import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { identitySettings as settings } from '../../../server/config.ts';
import {
  N,
  claimSignature,
  computeU,
  computeX,
  g,
  hexToBigInt,
  k,
  modPow,
  passwordAuthenticationKey,
} from '../../../server/identity/srp.ts';

/** The members of Cognito replies that tests read. */
export interface ReplyBody {
  __type?: string;
  message?: string;
  ChallengeName?: string;
  Session: string;
  ChallengeParameters: Record<string, string>;
  AuthenticationResult: {
    IdToken: string;
    AccessToken: string;
    RefreshToken?: string;
    ExpiresIn: number;
    TokenType: string;
    NewDeviceMetadata?: unknown;
  };
  CodeDeliveryDetails: Record<string, string>;
  Username: string;
  UserAttributes: Array<{ Name: string; Value: string }>;
  IdentityId: string;
  Credentials: { AccessKeyId: string; SecretKey: string; SessionToken: string; Expiration: number };
}

export interface Reply {
  status: number;
  errorType?: string;
  body: ReplyBody;
}

const poolName = settings.userPoolId.split('_')[1];

/**
 * A Cognito JSON-API client computing SRP the way Amplify does, over Fastify inject or, given a base
 * URL, over HTTP to a running gateway process. Through inject its requests come from `remoteAddress`
 * (inject's own default otherwise), as wrong passwords are counted per address.
 */
export function cognitoClient(gateway: FastifyInstance | string, remoteAddress?: string) {
  async function call(operation: string, body: object, service: 'idp' | 'identity' = 'idp'): Promise<Reply> {
    const identityPool = service === 'identity';
    const url = identityPool ? settings.identityPoolPath : settings.userPoolPath;
    const headers = {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `${identityPool ? 'AWSCognitoIdentityService' : 'AWSCognitoIdentityProviderService'}.${operation}`,
    };
    if (typeof gateway === 'string') {
      const response = await fetch(`${gateway}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return {
        status: response.status,
        errorType: response.headers.get('x-amzn-errortype') ?? undefined,
        body: (await response.json()) as ReplyBody,
      };
    }
    const response = await gateway.inject({
      method: 'POST',
      url,
      headers,
      payload: JSON.stringify(body),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    return {
      status: response.statusCode,
      errorType: response.headers['x-amzn-errortype'] as string | undefined,
      body: response.json(),
    };
  }

  const respond = (challenge: string, session: string, responses: Record<string, string>) =>
    call('RespondToAuthChallenge', {
      ClientId: settings.userPoolClientId,
      ChallengeName: challenge,
      Session: session,
      ChallengeResponses: responses,
    });

  /** InitiateAuth with SRP_A, then the PASSWORD_VERIFIER answer. */
  async function passwordStep(login: string, password: string): Promise<Reply> {
    const a = hexToBigInt(randomBytes(128).toString('hex'));
    const A = modPow(g, a, N);
    const started = await call('InitiateAuth', {
      ClientId: settings.userPoolClientId,
      AuthFlow: 'CUSTOM_AUTH',
      AuthParameters: { USERNAME: login, SRP_A: A.toString(16), CHALLENGE_NAME: 'SRP_A' },
      ClientMetadata: { timezoneOffset: '-60' },
    });
    if (started.status !== 200 || started.body.ChallengeName !== 'PASSWORD_VERIFIER') return started;
    const { SALT, SRP_B, SECRET_BLOCK, USER_ID_FOR_SRP } = started.body.ChallengeParameters;
    const B = hexToBigInt(SRP_B);
    const u = computeU(A, B);
    const x = computeX(poolName, USER_ID_FOR_SRP, password, SALT);
    const S = modPow(B - k * modPow(g, x, N), a + u * x, N);
    const timestamp = 'Tue Jan 2 03:04:05 UTC 2024';
    return respond('PASSWORD_VERIFIER', started.body.Session, {
      USERNAME: USER_ID_FOR_SRP,
      PASSWORD_CLAIM_SECRET_BLOCK: SECRET_BLOCK,
      TIMESTAMP: timestamp,
      PASSWORD_CLAIM_SIGNATURE: claimSignature(
        passwordAuthenticationKey(S, u),
        poolName,
        USER_ID_FOR_SRP,
        SECRET_BLOCK,
        timestamp,
      ),
    });
  }

  /** Password, then the emailed code (read by `readCode`): the tokens of a signed-in user. */
  async function signIn(username: string, password: string, readCode: () => Promise<string>) {
    const challenge = await passwordStep(username, password);
    if (challenge.body.ChallengeName !== 'CUSTOM_CHALLENGE') {
      throw new Error(`sign-in of ${username} stopped: ${JSON.stringify(challenge.body)}`);
    }
    const done = await respond('CUSTOM_CHALLENGE', challenge.body.Session, {
      USERNAME: username,
      ANSWER: await readCode(),
    });
    if (done.status !== 200) throw new Error(`code refused for ${username}: ${JSON.stringify(done.body)}`);
    return { ...done.body.AuthenticationResult, RefreshToken: done.body.AuthenticationResult.RefreshToken! };
  }

  /** Identity-pool credentials for an id token, as Amplify's fetchAuthSession gets them. */
  async function credentials(idToken: string) {
    const logins = { [`cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`]: idToken };
    const id = await call('GetId', { IdentityPoolId: settings.identityPoolId, Logins: logins }, 'identity');
    const issued = await call(
      'GetCredentialsForIdentity',
      { IdentityId: id.body.IdentityId, Logins: logins },
      'identity',
    );
    const { AccessKeyId, SecretKey, SessionToken } = issued.body.Credentials;
    return { accessKeyId: AccessKeyId, secretAccessKey: SecretKey, sessionToken: SessionToken };
  }

  return { call, respond, passwordStep, signIn, credentials };
}
