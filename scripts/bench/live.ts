import { buildApp } from '../../server/app.ts';
import { migrate, openDb } from '../../server/db/adapter.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { signRequest } from '../../src/dataProvider/signed-fetch.ts';
import type { StreamChange } from '../../src/contract/live.ts';
import { signIn } from './gateway-list.ts';
import { ms, median, percentile, type BenchResult } from './measure.ts';

const CLIENTS = 200;
const CHANGES = 40;
const CHANGE_EVERY_MS = 100;
const TARGET_P95_MS = 1000;

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
    let ready = 0;
    const clients = Array.from({ length: CLIENTS }, async () => {
      const { url, init } = await signRequest(base, { method: 'GET', path: 'webtool/stream' }, session);
      const response = await fetch(url, { ...init, signal: controller.signal });
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
              const at = started.get(`${change.resource}/${change.id}`);
              if (at !== undefined) latencies.push(now - at);
            }
          }
        }
      } catch {
        // closed at the end
      }
    });
    while (ready < CLIENTS) await new Promise((resolve) => setTimeout(resolve, 20));
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
    await Promise.allSettled(clients);
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
        'one gateway process on PGlite; two processes on PostgreSQL are covered by tests/server/multi-process.pg-only.test.ts (not timed here)',
      ],
    };
  } finally {
    controller.abort();
    await app.close();
    await db.close();
  }
}
