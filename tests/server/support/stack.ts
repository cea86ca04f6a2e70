import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../../server/app.ts';
import { migrate, type Db } from '../../../server/db/adapter.ts';
import { openSeededTestDb } from './test-db.ts';
import { createIdentity, type Identity } from '../../../server/identity/index.ts';
import { isSeeded, seedDemo } from '../../../server/seed/index.ts';
import { DEMO_PASSWORD, demoUsers } from '../../../server/seed/demo-network.ts';
import { signRequest, type GatewayRequest, type SigningSession } from '../../../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from './cognito-client.ts';

export const API_BASE = 'http://localhost:8080';

export interface Stack {
  app: FastifyInstance;
  db: Db;
  identity: Identity;
  /** Identity clock: tests move it to make tokens old. */
  clock: { offsetMs: number };
  signIn(username: string): Promise<SigningSession>;
  /** A signed webtool call as the browser makes it. */
  send(
    session: SigningSession,
    request: GatewayRequest,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * The whole gateway on a freshly seeded database of the test file's own: a copy of the run's seeded
 * template (see test-db.ts, openSeededTestDb), or `db` when given, migrated and seeded here unless
 * it already holds the seed (e.g. `openSeededTestDb()` wrapped by the test).
 */
export async function startStack(
  options: { db?: Db; webhooks?: AppOptions['webhooks']; live?: AppOptions['live'] } = {},
): Promise<Stack> {
  const db = options.db ?? (await openSeededTestDb());
  await migrate(db);
  const clock = { offsetMs: 0 };
  const identity = createIdentity(db, { local: true, now: () => Date.now() + clock.offsetMs, log: () => {} });
  if (!(await isSeeded(db))) await seedDemo(db, identity, { size: 'test' });
  const app = await buildApp({
    db,
    identity,
    // No timed webhook dispatch unless the test asks for it: the seed's pending events fall due minutes after the
    // seed was made, and a dispatch then would change records under a test that checks "nothing written" (a slow
    // run reaches that time). Webhook tests call dispatchDue() or pass their own dispatchMs.
    webhooks: { dispatchMs: 0, ...options.webhooks },
    live: { now: () => Date.now() + clock.offsetMs, ...options.live },
  });
  await app.ready();
  const cognito = cognitoClient(app);

  async function latestCode(email: string) {
    const mails = (await identity.readOutbox()).filter((mail) => mail.to === email && mail.code);
    return mails[mails.length - 1].code!;
  }

  return {
    app,
    db,
    identity,
    clock,
    async signIn(username) {
      const user = demoUsers.find((u) => u.username === username);
      const email = user?.email ?? `${username}@example.com`;
      const tokens = await cognito.signIn(username, DEMO_PASSWORD, () => latestCode(email));
      return {
        region: 'eu-west-1',
        idToken: tokens.IdToken,
        accessToken: tokens.AccessToken,
        credentials: await cognito.credentials(tokens.IdToken),
      };
    },
    async send(session, request) {
      // The gateway keeps what its change feed says when it changes (the callers' roles): a record a test
      // changed in SQL just before is heard first, as the next call in production would find it.
      await app.live.feed.heard();
      const { url, init } = await signRequest(API_BASE, request, session);
      const response = await app.inject({
        method: request.method,
        url: url.replace(API_BASE, ''),
        headers: { ...init.headers, host: new URL(API_BASE).host },
        payload: init.body,
      });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    async close() {
      await app.close();
      await db.close();
    },
  };
}
