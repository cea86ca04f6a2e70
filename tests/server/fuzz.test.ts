import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';
import { identityAccessRoutes } from '../../server/gateway/identity-access.ts';
import { webtoolLogsRoutes } from '../../server/gateway/webtool-logs.ts';
import { API_BASE, startStack, type Stack } from './support/stack.ts';
import { queryString, signRaw } from './support/raw-signer.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';

/**
 * Malformed and random bodies and query strings, signed as the operator, against every endpoint
 * and method: the answer is a clean 4xx with a message (or a 2xx for a genuinely valid call), never
 * a 5xx, and a refused call leaves the records and the audit log untouched.
 */

const resources = [...loadResources().values()];
const endpoints = [
  ...new Set([
    ...resources.map((resource) => resource.endpoint),
    ...Object.keys({ ...identityAccessRoutes({} as never), ...webtoolLogsRoutes }).map((route) => route.split(' ')[1]),
    'lists',
  ]),
].sort();
const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
const schemaFields = [...new Set(resources.flatMap((resource) => resource.fields.map((field) => field.source)))];
const host = new URL(API_BASE).host;

const nasty = fc.constantFrom(
  "' OR 1=1 --",
  "'; DROP TABLE records; --",
  '"; SELECT pg_sleep(1); --',
  '%',
  '_',
  '\\',
  '\u0000',
  '$1',
  '{"$ne":null}',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '𝕦𝕟𝕚𝕔𝕠𝕕𝕖',
);
const pollutionKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty');
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nasty,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, -1, 0, 1e308, -0, '', [], {}),
);
/** An object shaped like a record: known field names and control fields, with wrong or odd values. */
const recordLike = fc.dictionary(
  fc.oneof(fc.constantFrom(...schemaFields, 'version', 'opname', 'id'), pollutionKey, fc.string({ maxLength: 8 })),
  anyValue,
  { maxKeys: 8 },
);
const deepNesting = fc.integer({ min: 50, max: 400 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { nested: value };
  return value;
});
const hugeString = fc
  .integer({ min: 100_000, max: 900_000 })
  .map((size) => ({ name: 'x'.repeat(size), search: '%'.repeat(size % 1000) }));

/** Either raw text (possibly not JSON) or a JSON value to serialise. */
const body = fc.oneof(
  { weight: 4, arbitrary: recordLike.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', 'null', '"text"', '{"__proto__":{"admin":true}}') },
  { weight: 1, arbitrary: pollutionKey.map((key) => `{"${key}":{"polluted":true},"version":1}`) },
  { weight: 1, arbitrary: deepNesting.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: hugeString.map((value) => JSON.stringify(value)) },
);
const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom('offset', 'limit', 'search', 'order_by', 'order_by_dir', 'opname', ...schemaFields),
    fc.string({ minLength: 1, maxLength: 8 }),
  ),
  fc.oneof(nasty, fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constantFrom('-1', '1e9', 'NaN', 'asc')),
  { maxKeys: 5 },
);

let stack: Stack;
let operator: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
  fingerprint = await recordsFingerprint(stack.db);
});
afterAll(() => stack?.close());

/** Every stored record (md5) and the number of audit entries (see records-fingerprint.ts). */
async function snapshot() {
  const { records, audit } = await fingerprint();
  return `${records}:${audit}`;
}

async function sendRaw(method: string, endpoint: string, params: Record<string, string>, payload?: string) {
  const path = `/webtool/${endpoint}`;
  const headers = signRaw({ method, host, path, query: params, body: payload }, operator);
  const search = queryString(params);
  const response = await stack.app.inject({
    method: method as 'GET',
    url: search ? `${path}?${search}` : path,
    headers: { ...headers, host },
    payload,
  });
  let json: unknown;
  try {
    json = response.json();
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json: json as { message?: unknown } | undefined };
}

describe('the raw signer', () => {
  it('is accepted by the gateway, and a tampered body is not', async () => {
    const ok = await sendRaw('GET', 'service_points', { limit: '1', search: 'Coop Nord' });
    expect(ok.status).toBe(200);
    const headers = signRaw({ method: 'POST', host, path: '/webtool/couriers', body: '{}' }, operator);
    const tampered = await stack.app.inject({
      method: 'POST',
      url: '/webtool/couriers',
      headers: { ...headers, host },
      payload: '{"a":1}',
    });
    expect(tampered.statusCode).toBe(401);
  });
});

describe.each(endpoints.map((endpoint) => [endpoint] as const))('fuzzing webtool/%s', (endpoint) => {
  it.each(methods.map((method) => [method] as const))(
    '%s answers a clean 4xx and writes nothing',
    async (method) => {
      let baseline = await snapshot();
      const outcomes = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(query, body, async (params, payload) => {
          const answer = await sendRaw(method, endpoint, params, method === 'GET' ? undefined : payload);
          outcomes.set(answer.status, (outcomes.get(answer.status) ?? 0) + 1);
          const after = await snapshot();
          if (answer.status >= 200 && answer.status < 300) {
            baseline = after;
            return;
          }
          expect(answer.status).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
          expect(typeof answer.json?.message).toBe('string');
          expect(after).toBe(baseline);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        { numRuns: 12, seed: 20261121, endOnFailure: true },
      );
      expect([...outcomes.keys()].some((status) => status >= 400)).toBe(true);
    },
    60_000,
  );
});
