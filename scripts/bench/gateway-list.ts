import { ms, percentile, median, type BenchResult } from './measure.ts';
import { Samples, timed, withSeededNetwork, withSignedGateway } from './stack.ts';

/** Other benches sign in as this one does (scripts/bench/stack.ts). */
export { signIn } from './stack.ts';

const SERVICE_POINTS = 100_000;
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
  return withSeededNetwork(SERVICE_POINTS, (network) =>
    withSignedGateway(network, async (gateway) => {
      const { db } = network;
      const list = (query: Record<string, string | number>) =>
        gateway.get<{ data: unknown[]; total: number }>('webtool/service_points', query, 'list');

      let first: { total: number } = { total: 0 };
      const firstMs = await timed(async () => {
        first = await list({ offset: 0, limit: 15 });
      });
      if (first.total !== SERVICE_POINTS)
        throw new Error(`expected ${SERVICE_POINTS} service points, got ${first.total}`);

      const cases = searches.flatMap((search) =>
        sorts.flatMap((field) =>
          ['asc', 'desc'].flatMap((dir) => offsets.map((offset) => ({ search, field, dir, offset }))),
        ),
      );
      const samples = new Samples();
      // A search's first request counts its matches; the next ones find the count kept (server/gateway/kept-counts.ts).
      const firstOfSearch = new Map<string, number>();
      const oursCpu: number[] = [];
      const baseline: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const c of cases) {
          const query = { search: c.search, order_by: c.field, order_by_dir: c.dir, offset: c.offset, limit: 15 };
          const cpuBefore = process.cpuUsage();
          const took = await timed(() => list(query));
          const cpu = process.cpuUsage(cpuBefore);
          samples.add(took, `search ${JSON.stringify(c.search)}`, `offset ${c.offset}`);
          if (c.search && !firstOfSearch.has(c.search)) firstOfSearch.set(c.search, took);
          oursCpu.push((cpu.user + cpu.system) / 1000);
          // Interleaved, so that both see the same load on the machine.
          const key = String(1 + ((samples.all.length * 7919) % SERVICE_POINTS));
          baseline.push(
            await timed(() =>
              db.query('SELECT doc, version FROM records WHERE resource = $1 AND key = $2', ['service_points', key]),
            ),
          );
        }
      }

      const ours = samples.all;
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
          `Loading ${network.added} service points took ${ms(network.addedMs)}; the first list (sort keys of every record, VACUUM and ANALYZE) ${ms(firstMs)}.`,
          `Each search's first request, which counts its matches (later ones, sorted or paged otherwise, find the count kept until a record changes): ${[...firstOfSearch].map(([search, took]) => `${JSON.stringify(search)} ${ms(took)}`).join(', ')}.`,
          ...samples.groupLines(),
        ],
      };
    }),
  );
}
