/**
 * The Cognito user-pool operations aws-amplify v6 calls, with the custom-auth flow of the webtool:
 * SRP password check, then (for a temporary password) a new password, then an emailed code.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { identitySettings } from '../config.ts';
import { DatabaseUnavailableError } from '../db/adapter.ts';
import { CognitoError, invalidParameter, notAuthorized, requireString, stringMap } from './errors.ts';
import type { Outbox } from './outbox.ts';
import { createPasswordAttempts, PASSWORD_ATTEMPTS_EXCEEDED } from './password-attempts.ts';
import { assertPasswordPolicy, generateCode } from './passwords.ts';
import {
  computeVerifier,
  createPasswordVerifier,
  createServerEphemeral,
  hexToBigInt,
  isHex,
  N,
  verifyPasswordClaim,
} from './srp.ts';
import type { AuthSession, Store, User } from './store.ts';
import { isExpiredTokenError, type AccessClaims, type Tokens } from './tokens.ts';

type Body = Record<string, unknown>;
/** What an operation knows of the request besides its body. */
export interface CallContext {
  sourceIp: string;
}
export type Operation = (body: Body, context: CallContext) => Promise<object>;

const INCORRECT_PASSWORD = 'Incorrect username or password.';
const INVALID_SESSION = 'Invalid session for the user.';
const EXPIRED_SESSION = 'Invalid session for the user, session is expired.';
const INVALID_REFRESH_TOKEN = 'Invalid Refresh Token';
const USER_DISABLED = 'User is disabled.';
const CODE_MISMATCH = 'Invalid verification code provided, please try again.';
const EXPIRED_CODE = 'Invalid code provided, please request a code again.';

/** j***@e*** as Cognito shows a delivery destination. */
export function maskEmail(email: string): string {
  const [local, domain = ''] = email.split('@');
  return `${local.charAt(0)}***@${domain.charAt(0)}***`;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(sha256(given));
  const b = Buffer.from(sha256(expected));
  return timingSafeEqual(a, b);
}

export function createUserPool(deps: { store: Store; tokens: Tokens; outbox: Outbox; now: () => number }) {
  const { store, tokens, outbox } = deps;
  const settings = identitySettings;
  const poolName = settings.userPoolId.split('_')[1];
  const blockedMessage = `Account is blocked for ${settings.blockSeconds / 60} minutes.`;
  // Decoy salts for unknown users stay stable within a process, as a real user's salt would.
  const decoyKey = randomBytes(32);
  const passwordAttempts = createPasswordAttempts(deps);

  const now = () => new Date(deps.now());
  const later = (seconds: number) => new Date(deps.now() + seconds * 1000);
  const newSessionId = () => randomBytes(96).toString('base64');

  function assertClient(body: Body): void {
    const clientId = requireString(body, 'ClientId');
    if (clientId !== settings.userPoolClientId) {
      throw new CognitoError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }

  const isBlocked = (user: User) => user.blockedUntil !== null && user.blockedUntil.getTime() > deps.now();

  async function startSrp(login: string, srpA: string) {
    if (!isHex(srpA) || hexToBigInt(srpA) % N === 0n) throw invalidParameter('Invalid SRP_A.');
    await store.purgeExpired(now());
    const user = await store.findUserByLogin(login);
    if (user && isBlocked(user)) throw notAuthorized(blockedMessage);
    const userId = user?.username ?? login;
    const salt = user?.salt ?? createHmac('sha256', decoyKey).update(login).digest('hex').slice(0, 32);
    const verifier = user?.verifier ?? computeVerifier(poolName, login, randomUUID(), salt);
    const { b, B } = createServerEphemeral(verifier);
    const session: AuthSession = {
      session: newSessionId(),
      username: user?.username ?? null,
      login,
      stage: 'PASSWORD_VERIFIER',
      srpA,
      srpB: b,
      srpBigB: B,
      secretBlock: randomBytes(64).toString('base64'),
      code: null,
      expiresAt: later(settings.authSessionTtl),
    };
    await store.createSession(session);
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      Session: session.session,
      ChallengeParameters: {
        SALT: salt,
        SRP_B: B,
        SECRET_BLOCK: session.secretBlock,
        USER_ID_FOR_SRP: userId,
        USERNAME: userId,
      },
    };
  }

  /** Emails a fresh code and opens the CUSTOM_CHALLENGE step. */
  async function sendCodeChallenge(user: User, message: 'CODE_SENT' | 'OTP_REQUEST_PROCESSED') {
    const code = generateCode();
    const session = newSessionId();
    await store.createSession({
      session,
      username: user.username,
      login: user.username,
      stage: 'CUSTOM_CHALLENGE',
      srpA: null,
      srpB: null,
      srpBigB: null,
      secretBlock: null,
      code,
      expiresAt: later(settings.codeTtl),
    });
    await outbox.send({
      to: user.email,
      subject: 'Your webtool validation code',
      body: `Your validation code is ${code}. It is valid for ${settings.codeTtl / 60} minutes.`,
      code,
    });
    return codeChallenge(user, session, message);
  }

  function codeChallenge(user: User, session: string, message: string) {
    return {
      ChallengeName: 'CUSTOM_CHALLENGE',
      Session: session,
      ChallengeParameters: {
        USERNAME: user.username,
        CODE_DELIVERY_DELIVERY_MEDIUM: 'EMAIL',
        CODE_DELIVERY_DESTINATION: maskEmail(user.email),
        message,
        attemptsLeft: String(settings.maxCodeAttempts - user.failedCodeCount),
      },
    };
  }

  async function signedIn(user: User) {
    await store.clearCodeFailures(user.username);
    const refreshToken = randomBytes(96).toString('base64url');
    const originJti = randomUUID();
    const authTime = now();
    await store.insertRefreshToken(sha256(refreshToken), {
      originJti,
      username: user.username,
      clientId: settings.userPoolClientId,
      authTime,
      expiresAt: later(settings.refreshTokenTtl),
    });
    const issued = await tokens.issue(user, { originJti, authTime });
    return {
      ChallengeParameters: {},
      AuthenticationResult: { ...issued, RefreshToken: refreshToken, TokenType: 'Bearer' },
    };
  }

  /** New id and access tokens for a refresh token; Cognito keeps the refresh token as it is. */
  async function refresh(refreshToken: string, clientId: string) {
    const record = await store.findRefreshToken(sha256(refreshToken));
    if (!record || record.revokedAt || record.expiresAt.getTime() <= deps.now() || record.clientId !== clientId) {
      throw notAuthorized(INVALID_REFRESH_TOKEN);
    }
    const user = await store.findUser(record.username);
    if (!user || !user.enabled) throw notAuthorized(INVALID_REFRESH_TOKEN);
    const issued = await tokens.issue(user, { originJti: record.originJti, authTime: record.authTime });
    return { AuthenticationResult: { ...issued, TokenType: 'Bearer' } };
  }

  /** The user behind an access token still valid for the user-pool API (not signed out). */
  async function authenticate(accessToken: string): Promise<{ user: User; claims: AccessClaims }> {
    let claims: AccessClaims;
    try {
      claims = await tokens.verifyAccessToken(accessToken);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error;
      throw notAuthorized(isExpiredTokenError(error) ? 'Access Token has expired' : 'Invalid Access Token');
    }
    if (await store.isOriginRevoked(claims.origin_jti)) throw notAuthorized('Access Token has been revoked');
    const user = await store.findUser(claims.username);
    if (!user) throw new CognitoError('UserNotFoundException', 'User does not exist.');
    if (!user.enabled) throw notAuthorized(USER_DISABLED);
    return { user, claims };
  }

  async function openSession(id: string, challengeName: string): Promise<AuthSession> {
    const session = await store.findSession(id);
    if (!session || session.stage !== challengeName) throw notAuthorized(INVALID_SESSION);
    if (session.expiresAt.getTime() <= deps.now()) {
      await store.consumeSession(id);
      throw notAuthorized(EXPIRED_SESSION);
    }
    return session;
  }

  /** Takes the session for this answer; a second concurrent answer loses. */
  async function consume(session: AuthSession): Promise<void> {
    if (!(await store.consumeSession(session.session))) throw notAuthorized(INVALID_SESSION);
  }

  function assertActive(user: User): void {
    if (!user.enabled) throw notAuthorized(USER_DISABLED);
    if (isBlocked(user)) throw notAuthorized(blockedMessage);
  }

  async function sessionUser(session: AuthSession): Promise<User> {
    const user = session.username ? await store.findUser(session.username) : undefined;
    if (!user) throw notAuthorized(INVALID_SESSION);
    assertActive(user);
    return user;
  }

  async function answerPasswordVerifier(session: AuthSession, responses: Record<string, string>, context: CallContext) {
    await consume(session);
    const signature = responses.PASSWORD_CLAIM_SIGNATURE;
    const timestamp = responses.TIMESTAMP;
    if (!signature || !timestamp || responses.PASSWORD_CLAIM_SECRET_BLOCK !== session.secretBlock) {
      throw invalidParameter('Missing or invalid PASSWORD_CLAIM_SIGNATURE, PASSWORD_CLAIM_SECRET_BLOCK or TIMESTAMP.');
    }
    const user = session.username ? await store.findUser(session.username) : undefined;
    // An unknown login is counted as a known one is, so the lockout says nothing about who exists.
    const attempt = { login: user?.username ?? session.login, sourceIp: context.sourceIp };
    if (await passwordAttempts.locked(attempt)) throw notAuthorized(PASSWORD_ATTEMPTS_EXCEEDED);
    const proven =
      user &&
      verifyPasswordClaim({
        poolName,
        userId: user.username,
        verifier: user.verifier,
        A: session.srpA!,
        b: session.srpB!,
        B: session.srpBigB!,
        secretBlock: session.secretBlock!,
        timestamp,
        signature,
      });
    if (!user || !proven) {
      await passwordAttempts.recordFailure(attempt);
      throw notAuthorized(INCORRECT_PASSWORD);
    }
    await passwordAttempts.recordSuccess(attempt);
    assertActive(user);
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      const expiresAt = user.temporaryPasswordExpiresAt;
      if (expiresAt && expiresAt.getTime() <= deps.now()) {
        throw notAuthorized('Temporary password has expired and must be reset by an administrator.');
      }
      const next = newSessionId();
      await store.createSession({
        ...session,
        session: next,
        stage: 'NEW_PASSWORD_REQUIRED',
        srpA: null,
        srpB: null,
        srpBigB: null,
        secretBlock: null,
        expiresAt: later(settings.authSessionTtl),
      });
      return {
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: next,
        ChallengeParameters: {
          USER_ID_FOR_SRP: user.username,
          requiredAttributes: '[]',
          userAttributes: JSON.stringify({ email: user.email, family_name: user.familyName }),
        },
      };
    }
    return sendCodeChallenge(user, 'CODE_SENT');
  }

  async function answerNewPassword(session: AuthSession, responses: Record<string, string>) {
    const password = responses.NEW_PASSWORD;
    if (!password) throw invalidParameter('Missing required parameter NEW_PASSWORD');
    // Checked before the session is used up, so the user can try another password.
    assertPasswordPolicy(password);
    await consume(session);
    const user = await sessionUser(session);
    await store.completeNewPassword(user.username, createPasswordVerifier(poolName, user.username, password));
    return sendCodeChallenge(user, 'CODE_SENT');
  }

  /**
   * The sign-in goes on after the block on the same Session, so the waiting user is not sent back
   * to the password: the code sent before is void, a new one is asked for (RESEND) once it ends.
   */
  async function refuseUntilUnblocked(session: AuthSession, blockedUntil: Date): Promise<never> {
    await store.createSession({
      ...session,
      code: null,
      expiresAt: new Date(blockedUntil.getTime() + settings.codeTtl * 1000),
    });
    throw notAuthorized(blockedMessage);
  }

  async function answerCode(session: AuthSession, responses: Record<string, string>) {
    const answer = responses.ANSWER;
    if (!answer) throw invalidParameter('Missing required parameter ANSWER');
    await consume(session);
    const user = session.username ? await store.findUser(session.username) : undefined;
    if (!user) throw notAuthorized(INVALID_SESSION);
    if (!user.enabled) throw notAuthorized(USER_DISABLED);
    if (isBlocked(user)) await refuseUntilUnblocked(session, user.blockedUntil!);
    if (answer === 'RESEND') return sendCodeChallenge(user, 'OTP_REQUEST_PROCESSED');
    if (sameSecret(answer, session.code ?? '')) return signedIn(user);

    const failures = await store.recordWrongCode(user.username);
    if (failures >= settings.maxCodeAttempts) {
      const until = later(settings.blockSeconds);
      await store.block(user.username, until);
      await refuseUntilUnblocked(session, until);
    }
    // As a custom-auth retry: the same code, still valid until its own expiry, on a new Session.
    const next = newSessionId();
    await store.createSession({ ...session, session: next });
    return codeChallenge({ ...user, failedCodeCount: failures }, next, 'INVALID_CODE');
  }

  const operations: Record<string, Operation> = {
    async InitiateAuth(body) {
      assertClient(body);
      const flow = requireString(body, 'AuthFlow');
      const parameters = stringMap(body, 'AuthParameters');
      if (flow === 'CUSTOM_AUTH') {
        if (!parameters.USERNAME) throw invalidParameter('Missing required parameter USERNAME');
        if (parameters.CHALLENGE_NAME !== 'SRP_A' || !parameters.SRP_A) {
          throw invalidParameter('Missing required parameter SRP_A');
        }
        return startSrp(parameters.USERNAME, parameters.SRP_A);
      }
      if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
        if (!parameters.REFRESH_TOKEN) throw invalidParameter('Missing required parameter REFRESH_TOKEN');
        return { ChallengeParameters: {}, ...(await refresh(parameters.REFRESH_TOKEN, settings.userPoolClientId)) };
      }
      throw invalidParameter(`${flow} flow not enabled for this client`);
    },

    async RespondToAuthChallenge(body, context) {
      assertClient(body);
      const challengeName = requireString(body, 'ChallengeName');
      const session = await openSession(requireString(body, 'Session'), challengeName);
      const responses = stringMap(body, 'ChallengeResponses');
      switch (session.stage) {
        case 'PASSWORD_VERIFIER':
          return answerPasswordVerifier(session, responses, context);
        case 'NEW_PASSWORD_REQUIRED':
          return answerNewPassword(session, responses);
        case 'CUSTOM_CHALLENGE':
          return answerCode(session, responses);
      }
    },

    async GetTokensFromRefreshToken(body) {
      assertClient(body);
      return refresh(requireString(body, 'RefreshToken'), requireString(body, 'ClientId'));
    },

    async RevokeToken(body) {
      assertClient(body);
      await store.revokeRefreshToken(sha256(requireString(body, 'Token')), settings.userPoolClientId, now());
      return {};
    },

    async GlobalSignOut(body) {
      const { user } = await authenticate(requireString(body, 'AccessToken'));
      await store.revokeAllRefreshTokens(user.username, now());
      return {};
    },

    async GetUser(body) {
      const { user } = await authenticate(requireString(body, 'AccessToken'));
      return {
        Username: user.username,
        UserAttributes: [
          { Name: 'sub', Value: user.sub },
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'family_name', Value: user.familyName },
        ],
      };
    },

    async ChangePassword(body) {
      const { user } = await authenticate(requireString(body, 'AccessToken'));
      const previous = requireString(body, 'PreviousPassword');
      const proposed = requireString(body, 'ProposedPassword');
      if (!sameSecret(computeVerifier(poolName, user.username, previous, user.salt), user.verifier)) {
        throw notAuthorized(INCORRECT_PASSWORD);
      }
      assertPasswordPolicy(proposed);
      await store.setPassword(user.username, createPasswordVerifier(poolName, user.username, proposed), null);
      return {};
    },

    async ForgotPassword(body) {
      assertClient(body);
      const login = requireString(body, 'Username');
      const user = await store.findUserByLogin(login);
      if (user?.status === 'FORCE_CHANGE_PASSWORD') {
        throw notAuthorized('User password cannot be reset in the current state.');
      }
      if (user?.enabled) {
        const code = generateCode();
        await store.saveResetCode(user.username, code, later(settings.resetCodeTtl));
        await outbox.send({
          to: user.email,
          subject: 'Your webtool password reset code',
          body: `Your password reset code is ${code}. It is valid for ${settings.resetCodeTtl / 60} minutes.`,
          code,
        });
      }
      // Unknown and disabled users get the same answer: the response says nothing about who exists.
      const destination = user?.email ?? (login.includes('@') ? login : `${login}@${login}`);
      return {
        CodeDeliveryDetails: { Destination: maskEmail(destination), DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      };
    },

    async ConfirmForgotPassword(body) {
      assertClient(body);
      const login = requireString(body, 'Username');
      const code = requireString(body, 'ConfirmationCode');
      const password = requireString(body, 'Password');
      const user = await store.findUserByLogin(login);
      const reset = user && (await store.findResetCode(user.username));
      if (!user || !reset) throw new CognitoError('CodeMismatchException', CODE_MISMATCH);
      if (reset.expiresAt.getTime() <= deps.now() || reset.failedAttempts >= settings.maxCodeAttempts) {
        throw new CognitoError('ExpiredCodeException', EXPIRED_CODE);
      }
      if (!sameSecret(code, reset.code)) {
        await store.recordWrongResetCode(user.username);
        throw new CognitoError('CodeMismatchException', CODE_MISMATCH);
      }
      assertPasswordPolicy(password);
      await store.setPassword(user.username, createPasswordVerifier(poolName, user.username, password), null);
      await store.deleteResetCode(user.username);
      return {};
    },
  };

  return operations;
}
