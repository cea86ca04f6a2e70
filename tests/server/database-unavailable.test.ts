import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { identitySettings as settings } from '../../server/config.ts';
import { DatabaseUnavailableError, type Db } from '../../server/db/adapter.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { DATABASE_UNAVAILABLE } from '../../src/contract/errors.ts';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { openSeededTestDb } from './support/test-db.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * How every kind of route answers when the database is out, on either engine: the database is
 * switched off by failing each statement as the adapter does on a lost server. The real outage,
 * a PostgreSQL server stopped and started under load, is database-outage.pg-only.test.ts.
 */
let down = false;
const outage = () => Promise.reject(new DatabaseUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432')));
function switchable(db: Db): Db {
  return {
    query: (sql, params) => (down ? outage() : db.query(sql, params)),
    transaction: (fn, options) => (down ? outage() : db.transaction((tx) => fn(switchable(tx)), options)),
    close: () => db.close(),
  };
}

let stack: Stack;
let operator: SigningSession;
beforeAll(async () => {
  stack = await startStack({ db: switchable(await openSeededTestDb()) });
  operator = await stack.signIn('operator');
});
afterAll(async () => {
  down = false;
  await stack?.close();
});

const retryAfter = String(DATABASE_UNAVAILABLE.retryAfterSeconds);

describe('while the database is out', () => {
  beforeAll(() => {
    down = true;
  });
  afterAll(() => {
    down = false;
  });

  it.each([
    ['a list', { method: 'GET' as const, path: 'webtool/couriers', query: { offset: 0, limit: 10 } }],
    ['a create', { method: 'POST' as const, path: 'webtool/couriers', body: { carrier_id: 1, code: 'DOWN-1' } }],
  ])('%s through the gateway answers 503 with Retry-After and the catalogue message', async (_name, request) => {
    const response = await stack.send(operator, request);
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe(retryAfter);
    expect(response.body).toEqual({
      success: false,
      message: DATABASE_UNAVAILABLE.message,
      message_key: DATABASE_UNAVAILABLE.messageKey,
      code: DATABASE_UNAVAILABLE.code,
    });
  });

  it('a fresh gateway process checking a token answers 503, not 401 (which would sign the user out)', async () => {
    // A new identity has not read its signing key yet: checking a token needs the database.
    const identity = createIdentity(stack.db, { local: true, log: () => {} });
    const fresh = await buildApp({ db: stack.db, identity });
    const response = await fresh.inject({
      method: 'GET',
      url: '/webtool/couriers',
      headers: { authorization: `${operator.accessToken},${operator.idToken}` },
    });
    await fresh.close();
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(retryAfter);
  });

  it('the identity stand-in answers as Cognito would, with Retry-After', async () => {
    const response = await stack.app.inject({
      method: 'POST',
      url: settings.userPoolPath,
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      payload: JSON.stringify({
        ClientId: settings.userPoolClientId,
        AuthFlow: 'CUSTOM_AUTH',
        AuthParameters: { USERNAME: 'operator', SRP_A: 'ab', CHALLENGE_NAME: 'SRP_A' },
      }),
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['x-amzn-errortype']).toBe(`${DATABASE_UNAVAILABLE.identityErrorType}:`);
    expect(response.headers['retry-after']).toBe(retryAfter);
    expect(response.json()).toEqual({
      __type: DATABASE_UNAVAILABLE.identityErrorType,
      message: DATABASE_UNAVAILABLE.message,
    });
  });

  it("the hosted sign-in's token endpoint answers OAuth's temporarily_unavailable, with Retry-After", async () => {
    const response = await stack.app.inject({
      method: 'POST',
      url: `${settings.oauthPath}/oauth2/token`,
      headers: { host: 'localhost:8080', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: settings.userPoolClientId,
        refresh_token: 'any',
      }).toString(),
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(retryAfter);
    expect(response.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: DATABASE_UNAVAILABLE.message,
    });
  });
});

it('serves again as soon as the database is back, with nothing of the refused create stored', async () => {
  const listed = await stack.send(operator, { method: 'GET', path: 'webtool/couriers', query: { search: 'DOWN-1' } });
  expect(listed.status).toBe(200);
  expect(listed.body.total).toBe(0);
});
