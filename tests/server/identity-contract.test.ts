/**
 * The real aws-amplify v6 client against the stand-in over HTTP: if Amplify changes what it sends
 * or expects, this is where it shows.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  fetchAuthSession,
  fetchUserAttributes,
  getCurrentUser,
  resetPassword,
  signIn,
  signOut,
  updatePassword,
} from 'aws-amplify/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identitySettings as settings } from '../../server/config.ts';
import { migrate, type Db } from '../../server/db/adapter.ts';
import { openTestDb } from './support/test-db.ts';
import { createIdentity, type Identity } from '../../server/identity/index.ts';

const PASSWORD = 'Amplify-Pass-1';

let db: Db;
let identity: Identity;
let app: FastifyInstance;
/** X-Amz-Target of every call the client made, to prove which operations Amplify used. */
const targets: string[] = [];

let userCount = 0;
async function newUser(options: { temporary?: boolean } = {}) {
  const username = `amplify${++userCount}`;
  const email = `${username}@example.com`;
  const created = await identity.createUser({
    username,
    email,
    familyName: 'Contract',
    groups: ['SUPER_ADMIN', 'PARTNER'],
    password: options.temporary ? undefined : PASSWORD,
    temporary: options.temporary,
  });
  return { username, email, ...created };
}

async function latestCode(email: string): Promise<string> {
  const mails = (await identity.readOutbox()).filter((mail) => mail.to === email);
  return mails[mails.length - 1].code!;
}

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

const customSrp = { authFlowType: 'CUSTOM_WITH_SRP' as const, clientMetadata: { timezoneOffset: '-120' } };

async function signInFully(login: string, email: string, password = PASSWORD) {
  const started = await signIn({ username: login, password, options: customSrp });
  expect(started.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE');
  const done = await confirmSignIn({ challengeResponse: await latestCode(email) });
  expect(done).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
}

async function rejection(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  db = await openTestDb();
  await migrate(db);
  identity = createIdentity(db, { local: true, log: () => {} });
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    const target = request.headers['x-amz-target'];
    if (typeof target === 'string') targets.push(target.split('.')[1]);
  });
  await identity.register(app);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: settings.userPoolId,
        userPoolClientId: settings.userPoolClientId,
        identityPoolId: settings.identityPoolId,
        userPoolEndpoint: `${base}${settings.userPoolPath}`,
        identityPoolEndpoint: `${base}${settings.identityPoolPath}`,
      },
    },
  });
});

afterEach(async () => {
  await signOut();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('aws-amplify against the identity stand-in', () => {
  it('signs in with CUSTOM_WITH_SRP and an emailed code, then gets groups and credentials', async () => {
    const user = await newUser();
    const started = await signIn({ username: user.email, password: PASSWORD, options: customSrp });
    expect(started.isSignedIn).toBe(false);
    expect(started.nextStep).toMatchObject({
      signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
      additionalInfo: { message: 'CODE_SENT', CODE_DELIVERY_DESTINATION: 'a***@e***' },
    });
    expect(await confirmSignIn({ challengeResponse: await latestCode(user.email) })).toEqual({
      isSignedIn: true,
      nextStep: { signInStep: 'DONE' },
    });

    const session = await fetchAuthSession();
    expect(session.tokens?.idToken?.payload).toMatchObject({
      'cognito:username': user.username,
      'cognito:groups': ['SUPER_ADMIN', 'PARTNER'],
      email: user.email,
      family_name: 'Contract',
    });
    expect(session.identityId).toMatch(new RegExp(`^${settings.region}:`));
    const credentials = session.credentials!;
    expect(credentials.expiration!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(await identity.findCredentials(credentials.accessKeyId)).toMatchObject({
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
      identityId: session.identityId,
      username: user.username,
    });
    expect(targets).toEqual(
      expect.arrayContaining(['InitiateAuth', 'RespondToAuthChallenge', 'GetId', 'GetCredentialsForIdentity']),
    );

    expect(await getCurrentUser()).toMatchObject({ username: user.username });
    expect(await fetchUserAttributes()).toMatchObject({ email: user.email, family_name: 'Contract' });
  });

  it('revokes the refresh token on signOut', async () => {
    const user = await newUser();
    await signInFully(user.username, user.email);
    targets.length = 0;
    await signOut();
    expect(targets).toContain('RevokeToken');
    expect((await fetchAuthSession()).tokens).toBeUndefined();
    const { rows } = await db.query<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM identity_refresh_tokens WHERE username = $1',
      [user.username],
    );
    expect(rows).toEqual([{ revoked: true }]);
  });

  it('reports a wrong password as NotAuthorizedException', async () => {
    const user = await newUser();
    const error = await rejection(signIn({ username: user.username, password: 'Wrong-Pass-1', options: customSrp }));
    expect(error).toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    const unknown = await rejection(signIn({ username: 'ghost', password: PASSWORD, options: customSrp }));
    expect(unknown).toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
  });

  it('answers a wrong code with another custom challenge, and blocks on the third', async () => {
    const user = await newUser();
    await signIn({ username: user.username, password: PASSWORD, options: customSrp });
    const code = await latestCode(user.email);
    const retry = await confirmSignIn({ challengeResponse: wrongCode(code) });
    expect(retry).toMatchObject({
      isSignedIn: false,
      nextStep: {
        signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE',
        additionalInfo: { message: 'INVALID_CODE', attemptsLeft: '2' },
      },
    });
    const resent = await confirmSignIn({ challengeResponse: 'RESEND' });
    expect(resent.nextStep).toMatchObject({ additionalInfo: { message: 'OTP_REQUEST_PROCESSED' } });
    const fresh = await latestCode(user.email);
    await confirmSignIn({ challengeResponse: wrongCode(fresh) });
    const blocked = await rejection(confirmSignIn({ challengeResponse: wrongCode(fresh) }));
    expect(blocked).toMatchObject({ name: 'NotAuthorizedException', message: 'Account is blocked for 2 minutes.' });
    const again = await rejection(signIn({ username: user.username, password: PASSWORD, options: customSrp }));
    expect(again).toMatchObject({ name: 'NotAuthorizedException', message: 'Account is blocked for 2 minutes.' });
  });

  it('accepts the right code after a wrong one', async () => {
    const user = await newUser();
    await signIn({ username: user.username, password: PASSWORD, options: customSrp });
    const code = await latestCode(user.email);
    await confirmSignIn({ challengeResponse: wrongCode(code) });
    expect(await confirmSignIn({ challengeResponse: code })).toMatchObject({ isSignedIn: true });
  });

  it('walks a temporary password through NEW_PASSWORD_REQUIRED, then the code', async () => {
    const user = await newUser({ temporary: true });
    const started = await signIn({ username: user.username, password: user.temporaryPassword!, options: customSrp });
    expect(started.nextStep).toEqual({
      signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED',
      missingAttributes: [],
    });
    const weak = await rejection(confirmSignIn({ challengeResponse: 'weakweak' }));
    expect(weak.name).toBe('InvalidPasswordException');
    expect(weak.message).toMatch(/^Password does not conform to policy/);
    const next = await confirmSignIn({ challengeResponse: 'Chosen-Pass-7' });
    expect(next.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE');
    expect(await confirmSignIn({ challengeResponse: await latestCode(user.email) })).toMatchObject({
      isSignedIn: true,
    });
    await signOut();
    await signInFully(user.username, user.email, 'Chosen-Pass-7');
  });

  it('refreshes tokens through GetTokensFromRefreshToken', async () => {
    const user = await newUser();
    await signInFully(user.username, user.email);
    const before = (await fetchAuthSession()).tokens!.idToken!.toString();
    targets.length = 0;
    const after = (await fetchAuthSession({ forceRefresh: true })).tokens!.idToken!;
    expect(after.toString()).not.toBe(before);
    expect(after.payload['cognito:username']).toBe(user.username);
    expect(targets).toContain('GetTokensFromRefreshToken');
    expect(targets).not.toContain('InitiateAuth');
  });

  it('resets a forgotten password with the emailed code', async () => {
    const user = await newUser();
    const reset = await resetPassword({ username: user.email });
    expect(reset.nextStep).toMatchObject({
      resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE',
      codeDeliveryDetails: { deliveryMedium: 'EMAIL', attributeName: 'email' },
    });
    const code = await latestCode(user.email);
    const mismatch = await rejection(
      confirmResetPassword({ username: user.email, confirmationCode: wrongCode(code), newPassword: 'Reset-Pass-5' }),
    );
    expect(mismatch).toMatchObject({
      name: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
    });
    await confirmResetPassword({ username: user.email, confirmationCode: code, newPassword: 'Reset-Pass-5' });
    const old = await rejection(signIn({ username: user.username, password: PASSWORD, options: customSrp }));
    expect(old.name).toBe('NotAuthorizedException');
    await signInFully(user.username, user.email, 'Reset-Pass-5');
  });

  it('changes the password of the signed-in user', async () => {
    const user = await newUser();
    await signInFully(user.username, user.email);
    const wrong = await rejection(updatePassword({ oldPassword: 'Not-Mine-1', newPassword: 'Updated-Pass-3' }));
    expect(wrong).toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await updatePassword({ oldPassword: PASSWORD, newPassword: 'Updated-Pass-3' });
    await signOut();
    await signInFully(user.username, user.email, 'Updated-Pass-3');
  });
});
