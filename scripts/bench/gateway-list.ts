import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { migrate, openDb } from '../../server/db/adapter.ts';
import { insertRecords } from '../../server/gateway/record-store.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { DEMO_PASSWORD } from '../../server/seed/demo-network.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { signRequest, type SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { cognitoClient } from '../../tests/server/support/cognito-client.ts';
import { ms, percentile, median, type BenchResult } from './measure.ts';
import { servicePoints } from './service-points.ts';

const SERVICE_POINTS = 100_000;
const API_BASE = 'http://localhost:8080';
const TARGET_P95_MS = 50;

/** City (about 5 % of rows), owner name (20 %), an id fragment (a few rows), nothing, and none. */
const searches = ['', 'oslo', 'coop', '77777', 'zzzz'];
const sorts = ['service_point_id', 'name', 'city'];
const offsets = [0, 15, 1500, 50_000];

/**
 * Gateway list query on 100,000 service points through the real request path: SigV4-signed GETs
 * of webtool/service_points as the superadmin, over Fastify inject, on a file-backed PGlite in a
 * temporary folder. Baseline: as many primary-key lookups through the same database adapter.
 */
export async function gatewayListBench(rounds = 3): Promise<BenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webtool-bench-'));
  const db = await openDb({ dataDir });
  try {
    await migrate(db);
    const identity = createIdentity(db, { local: true, log: () => {} });
    await seedDemo(db, identity);
    const resource = loadResources().get('service_points')!;
    const existing = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM records WHERE resource = 'service_points'",
    );
    const seeded = Number(existing.rows[0].n);
    const extra = servicePoints(SERVICE_POINTS).slice(seeded);
    let started = performance.now();
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
    const insertMs = performance.now() - started;

    const app = await buildApp({ db, identity });
    await app.ready();
    try {
      const session = await signIn(app, identity);
      const list = async (query: Record<string, string | number>) => {
        const { url, init } = await signRequest(
          API_BASE,
          { method: 'GET', path: 'webtool/service_points', query },
          session,
        );
        const response = await app.inject({
          method: 'GET',
          url: url.replace(API_BASE, ''),
          headers: { ...init.headers, host: new URL(API_BASE).host },
        });
        if (response.statusCode !== 200) throw new Error(`list answered ${response.statusCode}: ${response.body}`);
        return response.json() as { data: unknown[]; total: number };
      };

      started = performance.now();
      const first = await list({ offset: 0, limit: 15 });
      const firstMs = performance.now() - started;
      if (first.total !== SERVICE_POINTS)
        throw new Error(`expected ${SERVICE_POINTS} service points, got ${first.total}`);

      const cases = searches.flatMap((search) =>
        sorts.flatMap((field) =>
          ['asc', 'desc'].flatMap((dir) => offsets.map((offset) => ({ search, field, dir, offset }))),
        ),
      );
      const byClass = new Map<string, number[]>();
      const ours: number[] = [];
      const oursCpu: number[] = [];
      const baseline: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const c of cases) {
          const query = { search: c.search, order_by: c.field, order_by_dir: c.dir, offset: c.offset, limit: 15 };
          const cpuBefore = process.cpuUsage();
          let start = performance.now();
          await list(query);
          const took = performance.now() - start;
          const cpu = process.cpuUsage(cpuBefore);
          ours.push(took);
          oursCpu.push((cpu.user + cpu.system) / 1000);
          for (const group of [`search ${JSON.stringify(c.search)}`, `offset ${c.offset}`]) {
            byClass.set(group, [...(byClass.get(group) ?? []), took]);
          }
          // Interleaved, so that both see the same load on the machine.
          const key = String(1 + ((ours.length * 7919) % SERVICE_POINTS));
          start = performance.now();
          await db.query('SELECT doc, version FROM records WHERE resource = $1 AND key = $2', ['service_points', key]);
          baseline.push(performance.now() - start);
        }
      }

      const searchList = searches.map((search) => JSON.stringify(search)).join(', ');
      const p95 = percentile(ours, 95);
      const baseP95 = percentile(baseline, 95);
      return {
        name: 'Gateway list, 100k service points (p95)',
        ours: `${ms(p95)} (median ${ms(median(ours))})`,
        baseline: `${ms(baseP95)} (median ${ms(median(baseline))})`,
        ratio: p95 / baseP95,
        target: `p95 < ${TARGET_P95_MS} ms`,
        pass: p95 < TARGET_P95_MS,
        notes: [
          `${ours.length} signed GET webtool/service_points (Fastify inject, superadmin): searches ${searchList} x order_by ${sorts.join(', ')} x asc/desc x offset ${offsets.join(', ')}, limit 15, ${rounds} rounds.`,
          `Baseline: ${baseline.length} primary-key lookups through the same adapter (SELECT doc, version ... WHERE resource = $1 AND key = $2).`,
          `CPU time of this process (all its threads) per request: median ${ms(median(oursCpu))}, p95 ${ms(percentile(oursCpu, 95))}; close to the wall-clock figures when the time goes to computing, not waiting.`,
          `Loading ${extra.length} service points took ${ms(insertMs)}; the first list (sort keys of every record, VACUUM and ANALYZE) ${ms(firstMs)}.`,
          ...[...byClass].map(
            ([name, samples]) =>
              `  ${name.padEnd(24)} median ${ms(median(samples))}, p95 ${ms(percentile(samples, 95))}`,
          ),
        ],
      };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function signIn(app: Awaited<ReturnType<typeof buildApp>>, identity: ReturnType<typeof createIdentity>) {
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
