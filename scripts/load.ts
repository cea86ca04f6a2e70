/**
 * Load test of the local gateway (npm run load; not part of npm test). Starts the gateway on a
 * loopback port with a fresh seeded in-memory database, signs in 50 users and drives 50 concurrent
 * connections with autocannon over list, read-by-id and update calls, each SigV4-signed per
 * request. Prints throughput, p50/p95/p99 latency and the error count; exits 1 on any error.
 *
 * LOAD_SECONDS shortens or lengthens the run (default 60, at most 600).
 */
import autocannon, { type Client, type Request, type Result } from 'autocannon';
import { buildApp } from '../server/app.ts';
import { migrate, openDb } from '../server/db/adapter.ts';
import { createIdentity } from '../server/identity/index.ts';
import { seedDemo } from '../server/seed/index.ts';
import { DEMO_PASSWORD } from '../server/seed/demo-network.ts';
import type { SigningSession } from '../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from '../tests/server/support/cognito-client.ts';
import { queryString, signRaw } from '../tests/server/support/raw-signer.ts';

const CONNECTIONS = 50;
const seconds = Math.min(600, Math.max(1, Number(process.env.LOAD_SECONDS ?? 60) || 60));
const roles = ['operator_infinity_admin', 'carrier_1_admin'];

interface LoadContext {
  user: number;
  version?: number;
}

async function main() {
  const db = await openDb();
  await migrate(db);
  const identity = createIdentity(db, { local: true, log: () => {} });
  await seedDemo(db, identity);
  const app = await buildApp({ db, identity });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no loopback address');
  const host = `127.0.0.1:${address.port}`;

  try {
    const cognito = cognitoClient(app);
    const sessions: SigningSession[] = [];
    for (let n = 0; n < CONNECTIONS; n += 1) {
      const username = `load.user${n}`;
      const email = `${username}@load.locker.test`;
      const role = roles[n % roles.length];
      await identity.createUser({
        username,
        email,
        familyName: role.split('_')[0],
        groups: [role],
        password: DEMO_PASSWORD,
        temporary: false,
      });
      const tokens = await cognito.signIn(username, DEMO_PASSWORD, async () => {
        const mails = (await identity.readOutbox()).filter((mail) => mail.to === email && mail.code);
        return mails[mails.length - 1].code!;
      });
      sessions.push({
        region: 'eu-west-1',
        idToken: tokens.IdToken,
        accessToken: tokens.AccessToken,
        credentials: await cognito.credentials(tokens.IdToken),
      });
    }
    console.log(
      `${sessions.length} users signed in; ${CONNECTIONS} connections for ${seconds} s against http://${host}`,
    );

    const path = '/webtool/service_points';
    /** Each connection edits its own service point, so updates never race each other. */
    const servicePointOf = (context: LoadContext) => 101 + context.user;
    const signed = (
      request: Request,
      context: LoadContext,
      method: string,
      query: Record<string, string>,
      body?: string,
    ) => {
      const headers = signRaw({ method, host, path, query, body }, sessions[context.user]);
      const search = queryString(query);
      return { ...request, method, path: search ? `${path}?${search}` : path, headers: { ...headers, host }, body };
    };

    let nextUser = 0;
    const searches = ['Coop', 'Kiosk', 'Station', 'Mall', 'Oslo'];
    const requests = [
      {
        setupRequest: (request: Request, context: LoadContext) =>
          signed(request, context, 'GET', {
            search: searches[context.user % searches.length],
            order_by: 'name',
            order_by_dir: context.user % 2 ? 'desc' : 'asc',
            offset: String((context.user % 5) * 15),
            limit: '15',
          }),
      },
      {
        setupRequest: (request: Request, context: LoadContext) =>
          signed(request, context, 'GET', { service_point_id: String(servicePointOf(context)) }),
        onResponse: (status: number, body: string, context: LoadContext) => {
          if (status === 200) context.version = (JSON.parse(body) as { data: { version: number }[] }).data[0]?.version;
        },
      },
      {
        setupRequest: (request: Request, context: LoadContext) =>
          signed(
            request,
            context,
            'PATCH',
            {},
            JSON.stringify({
              service_point_id: servicePointOf(context),
              version: context.version ?? 0,
              address: `Load street ${Date.now() % 1000}`,
            }),
          ),
      },
    ];

    const latencies: number[] = [];
    const result = await new Promise<Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `http://${host}`,
          connections: CONNECTIONS,
          duration: seconds,
          timeout: 10,
          initialContext: { user: 0 },
          requests: requests as unknown as Request[],
          setupClient(client: Client) {
            const iterator = (client as unknown as { requestIterator: RequestIteratorInternals }).requestIterator;
            iterator.initialContext = { user: nextUser++ % sessions.length };
            iterator.resetContext();
            iterator.rebuildRequest();
          },
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
      instance.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
    });

    const errors = result.non2xx + result.errors + result.timeouts;
    latencies.sort((a, b) => a - b);
    const at = (p: number) =>
      (latencies.length
        ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
        : NaN
      ).toFixed(1);
    console.log(
      [
        `requests: ${result.requests.total} in ${result.duration} s (${latencies.length} answered)`,
        `throughput: ${result.requests.average.toFixed(1)} req/s`,
        `latency: p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms`,
        `errors: ${errors} (non-2xx ${result.non2xx}: 4xx ${result['4xx']}, 5xx ${result['5xx']}; socket ${result.errors}; timeouts ${result.timeouts})`,
      ].join('\n'),
    );
    process.exitCode = errors > 0 ? 1 : 0;
  } finally {
    await app.close();
    await db.close();
  }
}

/** autocannon's per-connection request iterator: the context must be set after the client exists. */
interface RequestIteratorInternals {
  initialContext: LoadContext;
  resetContext(): void;
  rebuildRequest(): void;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
