import { buildApp } from '../../server/app.ts';
import { migrate, openDb } from '../../server/db/adapter.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { signRequest, type SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import {
  createScratchDatabase,
  sendOver,
  signInOver,
  startGatewayProcess,
  type GatewayProcess,
} from '../../tests/server/support/gateway-process.ts';
import { findPostgres, startPostgres } from '../postgres-server.mjs';
import type { StreamChange } from '../../src/contract/live.ts';
import { signIn } from './gateway-list.ts';
import { ms, median, percentile, type BenchResult } from './measure.ts';

const CLIENTS = 200;
const CHANGES = 40;
const CHANGE_EVERY_MS = 100;
const TARGET_P95_MS = 1000;

/**
 * `count` signed streams of `GET webtool/stream` on the gateway at `base`, each calling `onChange` with
 * each change it read and when; `ready` once every stream said ready.
 */
async function openStreams(
  base: string,
  session: SigningSession,
  count: number,
  onChange: (change: StreamChange, now: number) => void,
  signal: AbortSignal,
) {
  let ready = 0;
  const clients = Array.from({ length: count }, async () => {
    const { url, init } = await signRequest(base, { method: 'GET', path: 'webtool/stream' }, session);
    const response = await fetch(url, { ...init, signal });
    if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith('event: ready')) ready += 1;
          if (!block.startsWith('event: changes')) continue;
          const now = performance.now();
          for (const change of JSON.parse(block.slice(block.indexOf('data: ') + 6)) as StreamChange[]) {
            onChange(change, now);
          }
        }
      }
    } catch {
      // closed at the end
    }
  });
  const failed = Promise.race(clients.map((client) => client.then(() => new Promise<never>(() => {}))));
  const allReady = (async () => {
    const deadline = Date.now() + 120_000;
    while (ready < count) {
      if (Date.now() > deadline) throw new Error(`${ready} of ${count} streams ready after 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return { ready: Promise.race([allReady, failed]), done: Promise.allSettled(clients) };
}

/**
 * Live updates (issue 31.2): 200 signed-in streams (`GET webtool/stream`, real sockets) on one gateway
 * over PGlite; 40 committed changes of alerts, one every 100 ms, each written in its own transaction.
 * Measured: from the write's start to each stream reading the change (commit, NOTIFY, the feed, the
 * per-stream filter and 100 ms gathering, the socket, the client's parse), p95 over every (change,
 * client). Baseline: the write alone (its transaction). Target: p95 under 1 s.
 */
export async function liveBench(): Promise<BenchResult> {
  const db = await openDb({});
  await migrate(db);
  const identity = createIdentity(db, { local: true, log: () => {} });
  await seedDemo(db, identity, { size: 'test' });
  const app = await buildApp({ db, identity });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const controller = new AbortController();
  try {
    const session = await signIn(app, identity);
    const alerts = (
      await db.query<{ key: string }>(`SELECT key FROM records WHERE resource = 'alerts' ORDER BY key LIMIT $1`, [
        CHANGES,
      ])
    ).rows.map((row) => row.key);
    const started = new Map<string, number>();
    const latencies: number[] = [];
    const streams = await openStreams(
      base,
      session,
      CLIENTS,
      (change, now) => {
        const at = started.get(`${change.resource}/${change.id}`);
        if (at !== undefined) latencies.push(now - at);
      },
      controller.signal,
    );
    await streams.ready;
    const writes: number[] = [];
    for (const key of alerts) {
      const at = performance.now();
      started.set(`alerts/${key}`, at);
      await db.transaction((tx) =>
        tx.query(`UPDATE records SET version = version + 1 WHERE resource = 'alerts' AND key = $1`, [key]),
      );
      writes.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
    }
    const expected = alerts.length * CLIENTS;
    const deadline = Date.now() + 10_000;
    while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await streams.done;
    const p95 = percentile(latencies, 95);
    const write = median(writes);
    return {
      name: `live updates (${CLIENTS} streams, PGlite)`,
      ours: `p95 ${ms(p95)}`,
      baseline: `write ${ms(write)}`,
      ratio: p95 / TARGET_P95_MS,
      target: `p95 < ${TARGET_P95_MS} ms`,
      pass: latencies.length === expected && p95 < TARGET_P95_MS,
      notes: [
        `${latencies.length} of ${expected} deliveries (${alerts.length} changes x ${CLIENTS} streams); median ${ms(median(latencies))}, max ${ms(Math.max(...latencies))}`,
        'one gateway process on PGlite; across two processes on PostgreSQL: npm run bench -- live-pg',
      ],
    };
  } finally {
    controller.abort();
    await app.close();
    await db.close();
  }
}

/**
 * Live updates across two gateway processes on PostgreSQL (issue 31.2): a throw-away PostgreSQL server
 * (scripts/postgres-server.mjs), the test-size demo seed, two gateway processes as `npm start` runs
 * them (server/main.ts, each its own LISTEN connection). 200 operator streams on process B; 40 alerts
 * saved through process A's API (signed PATCH, the write pipeline, pg_notify on commit), one every
 * 100 ms. Measured: from the PATCH's start on A to each stream on B reading the change (A's request,
 * commit, PostgreSQL's NOTIFY to B's listener, B's per-stream filter and 100 ms gathering, the socket,
 * the client's parse), p95 over every (change, stream). Baseline: the PATCH alone. Target: p95 < 1 s.
 */
export async function liveTwoProcessBench(): Promise<BenchResult> {
  const name = `live updates (${CLIENTS} streams, 2 processes, PostgreSQL)`;
  let binDir: string;
  try {
    binDir = findPostgres();
  } catch (error) {
    return {
      name,
      ours: 'skipped',
      baseline: '-',
      ratio: Number.NaN,
      target: `p95 < ${TARGET_P95_MS} ms`,
      pass: false,
      notes: [`PostgreSQL unavailable: ${(error as Error).message}`],
    };
  }
  const server = await startPostgres({ binDir });
  const controller = new AbortController();
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let gateways: GatewayProcess[] = [];
  try {
    database = await createScratchDatabase(server.url, 'webtool_live');
    const db = await openDb({ databaseUrl: database.url });
    try {
      await migrate(db);
      await seedDemo(db, createIdentity(db, { local: true, log: () => {} }), { size: 'test' });
    } finally {
      await db.close();
    }
    gateways = await Promise.all([
      startGatewayProcess({ databaseUrl: database.url }),
      startGatewayProcess({ databaseUrl: database.url }),
    ]);
    const [a, b] = gateways;
    const operator = await signInOver(a.url, 'operator', a.url);
    const listed = await sendOver(a.url, operator, {
      method: 'GET',
      path: 'webtool/alerts',
      query: { offset: '0', limit: String(CHANGES) },
    });
    const alerts = listed.body.data as { alert_id: number; version: number }[];
    if (!alerts.length) throw new Error('the seed holds no alert to save');
    // Each change is known by the alert and its new version: the seed's alerts are saved in turn, again
    // when there are fewer than CHANGES of them.
    const started = new Map<string, number>();
    const latencies: number[] = [];
    const streams = await openStreams(
      b.url,
      operator,
      CLIENTS,
      (change, now) => {
        const at = started.get(`${change.resource}/${change.id}@${change.version}`);
        if (at !== undefined) latencies.push(now - at);
      },
      controller.signal,
    );
    await streams.ready;
    const writes: number[] = [];
    for (let n = 0; n < CHANGES; n += 1) {
      const alert = alerts[n % alerts.length];
      const at = performance.now();
      started.set(`alerts/${alert.alert_id}@${alert.version + 1}`, at);
      const saved = await sendOver(a.url, operator, {
        method: 'PATCH',
        path: 'webtool/alerts',
        body: { alert_id: alert.alert_id, version: alert.version, troubleshooting_comment: `Bench change ${n}` },
      });
      if (saved.status !== 200) throw new Error(`PATCH alerts answered ${saved.status}: ${JSON.stringify(saved.body)}`);
      alert.version += 1;
      writes.push(performance.now() - at);
      await new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
    }
    const expected = CHANGES * CLIENTS;
    const deadline = Date.now() + 10_000;
    while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await streams.done;
    const p95 = percentile(latencies, 95);
    const write = median(writes);
    return {
      name,
      ours: `p95 ${ms(p95)}`,
      baseline: `PATCH on A ${ms(write)}`,
      ratio: p95 / TARGET_P95_MS,
      target: `p95 < ${TARGET_P95_MS} ms`,
      pass: latencies.length === expected && p95 < TARGET_P95_MS,
      notes: [
        `${latencies.length} of ${expected} deliveries (${CHANGES} saves of the seed's ${alerts.length} alerts through process A x ${CLIENTS} streams on process B); median ${ms(median(latencies))}, max ${ms(Math.max(...latencies))}`,
        `PATCH on A: median ${ms(write)}, p95 ${ms(percentile(writes, 95))}; the processes: ${gateways.map((g) => g.child.pid).join(' and ')}`,
      ],
    };
  } finally {
    controller.abort();
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await database?.drop().catch(() => undefined);
    server.remove();
  }
}
