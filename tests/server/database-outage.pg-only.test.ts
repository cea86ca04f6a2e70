import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, openDb } from '../../server/db/adapter.ts';
import { identitySettings } from '../../server/config.ts';
import { startPostgres, type PostgresServer } from '../../scripts/postgres-server.mjs';
import { DATABASE_UNAVAILABLE } from '../../src/contract/errors.ts';
import { startStack, type Stack } from './support/stack.ts';

// A server of its own, not the run's shared one: this test stops and restarts it.
let server: PostgresServer;
let stack: Stack;
const CONNECT_TIMEOUT_MS = 1_000;
/** No request may take longer, database or not: a connection is given up on after CONNECT_TIMEOUT_MS. */
const ANSWER_WITHIN_MS = 5_000;

beforeAll(async () => {
  server = await startPostgres();
  const db = await openDb({
    databaseUrl: server.url,
    pool: { size: 4, connectTimeoutMs: CONNECT_TIMEOUT_MS, statementTimeoutMs: 5_000 },
  });
  stack = await startStack({ db });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  server?.remove();
});

describe('the connection pool', () => {
  const sleeping = async (databaseUrl: string) => {
    const watcher = await openDb({ databaseUrl });
    const counted = await watcher.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'",
    );
    await watcher.close();
    return Number(counted.rows[0].n);
  };

  it('opens at most its size of connections, and a request waits for one only as long as the connect timeout', async () => {
    const db = await openDb({ databaseUrl: server.url, pool: { size: 2, connectTimeoutMs: 300 } });
    const sleeps = [1, 2].map(() => db.query('SELECT pg_sleep(1.5)'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await sleeping(server.url)).toBe(2);
    const started = performance.now();
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(performance.now() - started).toBeLessThan(1_000);
    await Promise.all(sleeps);
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
  });

  it('cancels a statement past the statement timeout, inside a transaction too, and goes on with the next', async () => {
    const db = await openDb({ databaseUrl: server.url, pool: { size: 1, statementTimeoutMs: 200 } });
    await expect(db.query('SELECT pg_sleep(2)')).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(db.transaction((tx) => tx.query('SELECT pg_sleep(2)'))).rejects.toBeInstanceOf(
      DatabaseUnavailableError,
    );
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await db.close();
  });
});

interface Outcome {
  write: boolean;
  /** The courier code a write created, or tried to. */
  code: string;
  status: number;
  ms: number;
  retryAfter: unknown;
  errorCode: unknown;
  /** Sent while the server was down or coming back, or after it answered again. */
  phase: 'up' | 'down' | 'back';
}

const until = async (done: () => boolean, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
};

it('answers 503 with Retry-After while the database is down, recovers by itself, and half-writes nothing', async () => {
  const operator = await stack.signIn('operator');
  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'up';
  let sent = 0;
  let running = true;

  async function client() {
    while (running) {
      const write = sent % 2 === 0;
      const code = `OUT-${sent++}`;
      const sentIn = phase;
      const started = performance.now();
      const response = write
        ? await stack.send(operator, { method: 'POST', path: 'webtool/couriers', body: { carrier_id: 1, code } })
        : await stack.send(operator, { method: 'GET', path: 'webtool/couriers', query: { offset: 0, limit: 20 } });
      outcomes.push({
        write,
        code,
        status: response.status,
        ms: performance.now() - started,
        retryAfter: response.headers['retry-after'],
        errorCode: response.body.code,
        phase: sentIn,
      });
      // A client told to come back later does not hammer the gateway.
      if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  const clients = [client(), client(), client()];
  const answered = (wanted: Outcome['phase'], ok: boolean) =>
    outcomes.filter((o) => o.phase === wanted && o.status < 300 === ok).length;

  expect(await until(() => answered('up', true) >= 20, 30_000)).toBe(true);
  server.stop('fast');
  phase = 'down';
  expect(await until(() => answered('down', false) >= 20, 30_000)).toBe(true);

  const signIn = await stack.app.inject({
    method: 'POST',
    url: identitySettings.userPoolPath,
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    payload: JSON.stringify({
      ClientId: identitySettings.userPoolClientId,
      AuthFlow: 'CUSTOM_AUTH',
      AuthParameters: { USERNAME: 'operator', SRP_A: 'ab', CHALLENGE_NAME: 'SRP_A' },
    }),
  });
  expect(signIn.statusCode).toBe(503);
  expect(signIn.headers['x-amzn-errortype']).toBe(`${DATABASE_UNAVAILABLE.identityErrorType}:`);
  expect(signIn.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE.retryAfterSeconds));

  server.start();
  expect(await until(() => outcomes.some((o) => o.phase === 'down' && o.status < 300), 30_000)).toBe(true);
  phase = 'back';
  expect(await until(() => answered('back', true) >= 20, 30_000)).toBe(true);
  running = false;
  await Promise.all(clients);

  // Every answer came in time, and was a success or the 503 of an outage.
  expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(ANSWER_WITHIN_MS);
  const refused = outcomes.filter((o) => o.status >= 300);
  expect(new Set(refused.map((o) => `${o.status} ${String(o.retryAfter)} ${String(o.errorCode)}`))).toEqual(
    new Set([`503 ${DATABASE_UNAVAILABLE.retryAfterSeconds} ${DATABASE_UNAVAILABLE.code}`]),
  );
  expect(refused.filter((o) => o.write).length).toBeGreaterThan(0);
  expect(answered('back', false)).toBe(0);

  // The couriers in the database are exactly those whose creation was answered 201, each with its
  // audit row: a refused write left nothing, an answered one lost nothing.
  const created = outcomes.filter((o) => o.write && o.status === 201).map((o) => o.code);
  const stored = await stack.db.query<{ code: string; audit_rows: string }>(
    `SELECT r.doc->>'code' AS code, count(a.id) AS audit_rows FROM records r
     LEFT JOIN audit_log a ON a.resource = r.resource AND a.key = r.key AND a.action = 'create'
     WHERE r.resource = 'couriers' AND r.doc->>'code' LIKE 'OUT-%' GROUP BY r.doc->>'code'`,
  );
  expect(stored.rows.map((row) => row.code).sort()).toEqual(created.sort());
  expect(stored.rows.filter((row) => row.audit_rows !== '1')).toEqual([]);
  const orphans = await stack.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM audit_log a WHERE a.resource = 'couriers'
     AND NOT EXISTS (SELECT 1 FROM records r WHERE r.resource = a.resource AND r.key = a.key)`,
  );
  expect(orphans.rows[0].n).toBe('0');
}, 180_000);
