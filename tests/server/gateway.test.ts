import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { API_BASE, startStack, type Stack } from './support/stack.ts';
import { countRecords } from './support/seed-finders.ts';
import { signRequest } from '../../src/dataProvider/signed-fetch.ts';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';

let stack: Stack;
let operator: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
});
afterAll(() => stack.close());

const list = (session: SigningSession, path: string, query: Record<string, string | number> = {}) =>
  stack.send(session, { method: 'GET', path, query });

/** How many service points the seed holds (the test seed's, not the demo's 2,400). */
const servicePointCount = () => countRecords(stack.db, 'service_points');

async function recordCount() {
  const result = await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM records');
  return Number(result.rows[0].n);
}

describe('webtool gateway: credentials', () => {
  it('serves a signed list call with total and the requested page', async () => {
    const { status, body, headers } = await list(operator, 'webtool/service_points', { limit: 15, offset: 30 });
    expect(status).toBe(200);
    // The page's documents go out as the database wrote them (JsonText), still as JSON.
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body.total).toBe(await servicePointCount());
    expect(body.total).toBeGreaterThan(45);
    expect((body.data as unknown[]).length).toBe(15);
  });

  it('refuses a call without credentials with 401 and a JSON message', async () => {
    const response = await stack.app.inject({ method: 'GET', url: '/webtool/service_points' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, message: 'Login is expired.' });
  });

  it('refuses a tampered signature', async () => {
    const { url, init } = await signRequest(API_BASE, { method: 'GET', path: 'webtool/service_points' }, operator);
    const headers: Record<string, string> = { ...init.headers, host: 'localhost:8080' };
    headers.authorization = headers.authorization.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    const response = await stack.app.inject({ method: 'GET', url: url.replace(API_BASE, ''), headers });
    expect(response.statusCode).toBe(401);
  });

  it('refuses expired tokens and credentials', async () => {
    stack.clock.offsetMs = -2 * 3600 * 1000;
    const old = await stack.signIn('carrier');
    stack.clock.offsetMs = 0;
    const { status } = await list(old, 'webtool/couriers');
    expect(status).toBe(401);
  });

  it('accepts the single-sign-on token pair', async () => {
    const { status } = await list({ ...operator, credentials: undefined }, 'webtool/couriers');
    expect(status).toBe(200);
  });
});

describe('webtool gateway: bad input gets a clean 4xx and writes nothing', () => {
  it('malformed JSON, even correctly signed', async () => {
    const before = await recordCount();
    const payload = '{"code": "AB12",';
    const signer = new SignatureV4({
      credentials: operator.credentials!,
      region: 'eu-west-1',
      service: 'execute-api',
      sha256: Sha256,
    });
    const signed = await signer.sign({
      method: 'POST',
      protocol: 'http:',
      hostname: 'localhost',
      port: 8080,
      path: '/webtool/couriers',
      query: {},
      headers: { host: 'localhost:8080', 'content-type': 'application/json', 'x-auth-token': operator.idToken },
      body: payload,
    });
    const response = await stack.app.inject({
      method: 'POST',
      url: '/webtool/couriers',
      headers: signed.headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The request body is not valid JSON.');
    expect(await recordCount()).toBe(before);
  });

  it('malformed JSON without credentials is refused as unauthenticated', async () => {
    const response = await stack.app.inject({
      method: 'POST',
      url: '/webtool/couriers',
      headers: { 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect(response.statusCode).toBe(401);
  });

  it('unknown opnames', async () => {
    expect((await list(operator, 'webtool/couriers', { opname: 'drop_everything' })).status).toBe(400);
    const posted = await stack.send(operator, { method: 'POST', path: 'webtool/couriers', body: { opname: 'nope' } });
    expect(posted.status).toBe(400);
    expect(posted.body.message).toBe('Unknown opname: nope');
  });

  it('an oversized body', async () => {
    const before = await recordCount();
    const response = await stack.app.inject({
      method: 'POST',
      url: '/webtool/couriers',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ code: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('The request body is too large.');
    expect(await recordCount()).toBe(before);
  });

  it('SQL metacharacters in search and filters are just text', async () => {
    for (const search of ["'; DROP TABLE records; --", '%', '_', '\\', "O'Brien"]) {
      const { status, body } = await list(operator, 'webtool/service_points', { search });
      expect(status).toBe(200);
      expect(body.total).toBe(0);
    }
    expect((await list(operator, 'webtool/service_points', { limit: 1 })).body.total).toBe(await servicePointCount());
  });

  it('bad list parameters', async () => {
    const bad: Record<string, string | number>[] = [
      { limit: 'abc' },
      { limit: 0 },
      { limit: 100000 },
      { offset: -1 },
      { order_by_dir: 'sideways' },
      { order_by: 'name; DROP TABLE records' },
      { no_such_field: 1 },
      { status: 'seven' },
    ];
    for (const query of bad) {
      const { status, body } = await list(operator, 'webtool/service_points', query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body.message).toBeTruthy();
    }
  });

  it('unknown paths and methods', async () => {
    expect((await list(operator, 'webtool/no_such_area')).status).toBe(404);
    expect((await stack.send(operator, { method: 'PUT', path: 'webtool/couriers', body: {} })).status).toBe(405);
  });
});

describe('lookup lists', () => {
  it('returns the items of a list type, and refuses a missing or odd type', async () => {
    const { status, body } = await list(operator, 'webtool/lists', { type: 'location_types' });
    expect(status).toBe(200);
    expect(body.data).toContainEqual({ column_id: 1, column_name: 'Supermarket' });
    expect((await list(operator, 'webtool/lists')).status).toBe(400);
    expect((await list(operator, 'webtool/lists', { type: "x'; --" })).status).toBe(400);
    expect((await list(operator, 'webtool/lists', { type: 'no_such_list' })).body.total).toBe(0);
  });
});

describe('navigation data', () => {
  it('returns the role, partner and policies of the caller', async () => {
    const carrier = await stack.signIn('carrier');
    const { status, body } = await list(carrier, 'webtool/identity_access/nav_drawer', { userinfo: '' });
    expect(status).toBe(200);
    const data = body.data as Record<string, Record<string, unknown>>;
    expect(data.partner_info).toMatchObject({ partner_type: 'carrier', partner_id: '1', partner_name: 'NordPost' });
    expect(data.role.role_name).toBe('carrier_1_admin');
    expect((data.permissions as unknown as { feature_id: number }[]).map((p) => p.feature_id)).toContain(256);
  });
});
