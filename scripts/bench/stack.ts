import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { migrate, openDb, type Db } from '../../server/db/adapter.ts';
import { insertRecords } from '../../server/gateway/record-store.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';
import { createIdentity, type Identity } from '../../server/identity/index.ts';
import { DEMO_PASSWORD } from '../../server/seed/demo-network.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { signRequest, type SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from '../../tests/server/support/cognito-client.ts';
import { median, ms, percentile } from './measure.ts';
import { servicePoints } from './service-points.ts';

/**
 * What the gateway benchmarks share (scripts/bench/gateway-list.ts, dashboard.ts): the seeded demo network
 * on a file-backed PGlite in a temporary folder, topped up to a bench's size; the gateway over Fastify
 * inject with the superadmin's SigV4-signed requests; samples timed by group.
 */

const API_BASE = 'http://localhost:8080';

export interface SeededNetwork {
  db: Db;
  identity: Identity;
  /** How many service points the top-up added to the seed's. */
  added: number;
  /** How long adding them took. */
  addedMs: number;
}

/**
 * The demo network as the app seeds it (migrations, then the demo seed) in a temporary folder, topped up
 * to `servicePointCount` service points made as the seed makes them (service-points.ts); `work` runs on
 * it, then the database is closed and the folder removed.
 */
export async function withSeededNetwork<T>(
  servicePointCount: number,
  work: (network: SeededNetwork) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webtool-bench-'));
  const db = await openDb({ dataDir });
  try {
    await migrate(db);
    const identity = createIdentity(db, { local: true, log: () => {} });
    await seedDemo(db, identity);
    const resource = loadResources().get('service_points')!;
    const seeded = Number(
      (await db.query<{ n: string }>("SELECT count(*) AS n FROM records WHERE resource = 'service_points'")).rows[0].n,
    );
    const extra = servicePoints(servicePointCount).slice(seeded);
    const started = performance.now();
    await insertRecords(
      db,
      resource,
      extra.map((doc) => ({
        key: String(doc.service_point_id),
        doc,
        partnerType: 'location_owner',
        partnerId: String(doc.location_owner_id),
      })),
    );
    return await work({ db, identity, added: extra.length, addedMs: performance.now() - started });
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface SignedGateway {
  /**
   * A SigV4-signed GET of `apiPath` (e.g. `webtool/service_points`) as the superadmin, through Fastify
   * inject; anything but 200 throws, naming `what` answered.
   */
  get<T>(apiPath: string, query: Record<string, string | number>, what: string): Promise<T>;
}

/** The gateway on the network's database, ready, with the superadmin signed in; closed after `work`. */
export async function withSignedGateway<T>(
  { db, identity }: SeededNetwork,
  work: (gateway: SignedGateway) => Promise<T>,
): Promise<T> {
  const app = await buildApp({ db, identity });
  await app.ready();
  try {
    const session = await signIn(app, identity);
    return await work({
      async get<R>(apiPath: string, query: Record<string, string | number>, what: string) {
        const { url, init } = await signRequest(API_BASE, { method: 'GET', path: apiPath, query }, session);
        const response = await app.inject({
          method: 'GET',
          url: url.replace(API_BASE, ''),
          headers: { ...init.headers, host: new URL(API_BASE).host },
        });
        if (response.statusCode !== 200) throw new Error(`${what} answered ${response.statusCode}: ${response.body}`);
        return response.json() as R;
      },
    });
  } finally {
    await app.close();
  }
}

/** The superadmin signed in through the identity stand-in (password, then the emailed code): its signing session. */
export async function signIn(app: Awaited<ReturnType<typeof buildApp>>, identity: Identity) {
  const cognito = cognitoClient(app);
  const email = 'superadmin@demo.locker.test';
  const tokens = await cognito.signIn('superadmin', DEMO_PASSWORD, async () => {
    const mails = (await identity.readOutbox()).filter((mail) => mail.to === email && mail.code);
    return mails[mails.length - 1].code!;
  });
  const session: SigningSession = {
    region: 'eu-west-1',
    idToken: tokens.IdToken,
    accessToken: tokens.AccessToken,
    credentials: await cognito.credentials(tokens.IdToken),
  };
  return session;
}

/** How long `work` took, in milliseconds. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Samples in milliseconds, all of them and by the groups each was added to. */
export class Samples {
  readonly all: number[] = [];
  readonly byGroup = new Map<string, number[]>();

  add(took: number, ...groups: string[]) {
    this.all.push(took);
    for (const group of groups) this.byGroup.set(group, [...(this.byGroup.get(group) ?? []), took]);
  }

  /** One note line a group: its median and p95, `verdict` (if given) after them. */
  groupLines(verdict?: (p95: number) => string): string[] {
    return [...this.byGroup].map(([name, samples]) => {
      const p95 = percentile(samples, 95);
      const line = `  ${name.padEnd(24)} median ${ms(median(samples))}, p95 ${ms(p95)}`;
      return verdict ? `${line}  ${verdict(p95)}` : line;
    });
  }
}
