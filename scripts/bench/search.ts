import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { migrate, openDb, type Db } from '../../server/db/adapter.ts';
import { insertRecords } from '../../server/gateway/record-store.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { signRequest } from '../../src/dataProvider/signed-fetch.ts';
import { signIn } from './gateway-list.ts';
import { ms, median, percentile, type BenchResult } from './measure.ts';
import { servicePoints } from './service-points.ts';

const SERVICE_POINTS = 100_000;
const PIECES = 1_000_000;
/** End users of the bench's pieces: one for every ten pieces. */
const END_USERS = 100_000;
const API_BASE = 'http://localhost:8080';
const TARGET_P95_MS = 100;

/**
 * Tops a freshly seeded demo database up to the bench's network: 100,000 service points, 100,000 end
 * users and a million pieces, each with a pickup token (also used to look at the plans by hand).
 */
export async function topUpSearchNetwork(db: Db) {
  const resource = loadResources().get('service_points')!;
  const seeded = Number(
    (await db.query<{ n: string }>("SELECT count(*) AS n FROM records WHERE resource = 'service_points'")).rows[0].n,
  );
  await insertRecords(
    db,
    resource,
    servicePoints(SERVICE_POINTS)
      .slice(seeded)
      .map((doc) => ({
        key: String(doc.service_point_id),
        doc,
        partnerType: 'location_owner',
        partnerId: String(doc.location_owner_id),
      })),
  );
  const chunk = 50_000;
  for (let first = 1; first <= END_USERS; first += chunk) {
    const last = Math.min(END_USERS, first + chunk - 1);
    await db.query(
      `INSERT INTO records (resource, key, doc, search)
       SELECT 'shipments/endusers', (900000000 + n)::text, doc, lower(concat_ws(' ', doc->>'name', doc->>'phone', doc->>'email'))
       FROM (SELECT n, jsonb_build_object('enduser_id', 900000000 + n, 'name', 'Bench User ' || n,
              'phone', '+48 6' || lpad((n / 1000)::text, 2, '0') || ' ' || lpad((n % 1000)::text, 3, '0') || ' 123',
              'email', 'bench.user' || n || '@example.com', 'country', 'PL', 'marked_for_deletion', false) AS doc
             FROM generate_series($1::int, $2::int) n) users`,
      [first, last],
    );
  }
  for (let first = 1; first <= PIECES; first += chunk) {
    const last = Math.min(PIECES, first + chunk - 1);
    await db.query(
      `INSERT INTO records (resource, key, partner_type, partner_id, doc, search)
       SELECT 'shipments', 'BENCH' || n, 'carrier', (1 + n % 6)::text, jsonb_build_object(
         'piece_id', 'BENCH' || n, 'piece_barcode', 'JJDBENCH' || n, 'carrier_id', 1 + n % 6,
         'service_point_id', 1 + (n::bigint * 7919) % ${SERVICE_POINTS}, 'piece_type', 1, 'state', 201, 'active', true,
         'test_piece', false, 'enduser_id', 900000001 + n % ${END_USERS},
         'tokens', jsonb_build_array(jsonb_build_object('token_type', 'end_user_pickup', 'status', 'available',
           'code', lpad(((n::bigint * 48271) % 1000000)::text, 6, '0'))),
         'created_at', to_char((now() - (n % 90) * interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
         lower('BENCH' || n || ' JJDBENCH' || n)
       FROM generate_series($1::int, $2::int) n`,
      [first, last],
    );
  }
  await db.query("SELECT gin_clean_pending_list('records_search_trgm'::regclass)");
  await db.query('ANALYZE');
}

/**
 * The app bar's search (GET webtool/search, issue 31.1) on 100,000 service points and a million pieces,
 * through the real request path (SigV4-signed, Fastify inject, superadmin: every kind searched, no
 * tenancy to narrow it, the worst case; file-backed PGlite). The demo seed is topped up in SQL with
 * pieces, each with a pickup token, and end users with phone numbers and e-mails. The queries: a
 * barcode's start, a whole barcode, a pickup code, a phone in national form, an e-mail's start, a
 * service point name fragment, a city. Baseline: the service point list's free search for the same
 * name fragment (GET webtool/service_points?search=), the list a user would otherwise open.
 */
export async function searchBench(rounds = 3): Promise<BenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webtool-bench-'));
  const db = await openDb({ dataDir });
  try {
    await migrate(db);
    const identity = createIdentity(db, { local: true, log: () => {} });
    await seedDemo(db, identity);
    const started = performance.now();
    await topUpSearchNetwork(db);
    const loadMs = performance.now() - started;
    const point = (
      await db.query<{ name: string; city: string }>(
        `SELECT doc->>'name' AS name, doc->>'city' AS city FROM records WHERE resource = 'service_points' AND key = '54321'`,
      )
    ).rows[0];
    const fragment = point.name.split(/\s+/).find((word) => word.length >= 5) ?? point.name.slice(0, 6);
    const queries: Record<string, string> = {
      'barcode prefix': 'JJDBENCH12345',
      'whole barcode': 'JJDBENCH777777',
      'piece id prefix': 'BENCH4242',
      'pickup code': String((424242 * 48271) % 1000000).padStart(6, '0'),
      'phone, national': '612 345 123',
      'e-mail prefix': 'bench.user4242',
      'name fragment': fragment.toLowerCase().slice(1),
      city: point.city,
      'service point id': '54321',
    };

    const app = await buildApp({ db, identity });
    await app.ready();
    try {
      const session = await signIn(app, identity);
      const get = async (pathName: string, query: Record<string, string>) => {
        const { url, init } = await signRequest(API_BASE, { method: 'GET', path: pathName, query }, session);
        const response = await app.inject({
          method: 'GET',
          url: url.replace(API_BASE, ''),
          headers: { ...init.headers, host: new URL(API_BASE).host },
        });
        if (response.statusCode !== 200)
          throw new Error(`${pathName} answered ${response.statusCode}: ${response.body}`);
        return response.json() as { groups?: { kind: string; items: unknown[] }[] };
      };
      // Warm-up, and a check that each query finds what it is meant to.
      const found: string[] = [];
      for (const [label, q] of Object.entries(queries)) {
        const answer = await get('webtool/search', { q });
        const kinds = (answer.groups ?? []).map((group) => `${group.kind} ${group.items.length}`).join(', ');
        found.push(`  ${label.padEnd(18)} "${q}": ${kinds || 'nothing'}`);
      }
      await get('webtool/service_points', { search: queries['name fragment'] });
      const ours: number[] = [];
      const baseline: number[] = [];
      const byQuery = new Map<string, number[]>();
      for (let round = 0; round < rounds; round += 1) {
        for (const [label, q] of Object.entries(queries)) {
          let start = performance.now();
          await get('webtool/search', { q });
          const took = performance.now() - start;
          ours.push(took);
          byQuery.set(label, [...(byQuery.get(label) ?? []), took]);
          start = performance.now();
          await get('webtool/service_points', { search: queries['name fragment'] });
          baseline.push(performance.now() - start);
        }
      }
      const p95 = percentile(ours, 95);
      const baseP95 = percentile(baseline, 95);
      return {
        name: 'Search box, 100k service points, 1M pieces (p95)',
        ours: `${ms(p95)} (median ${ms(median(ours))})`,
        baseline: `${ms(baseP95)} (median ${ms(median(baseline))})`,
        ratio: p95 / baseP95,
        target: `p95 < ${TARGET_P95_MS} ms`,
        pass: p95 < TARGET_P95_MS,
        notes: [
          `${ours.length} signed GET webtool/search (superadmin, every kind searched): ${Object.keys(queries).length} queries x ${rounds} rounds, on ${SERVICE_POINTS} service points, ${PIECES} pieces with a pickup code each, ${END_USERS} end users.`,
          `Baseline: the service point list's free search for the name fragment (GET webtool/service_points?search=).`,
          `Topping up the network took ${ms(loadMs)}.`,
          'What each query found:',
          ...found,
          ...[...byQuery].map(
            ([label, samples]) =>
              `  ${label.padEnd(18)} median ${ms(median(samples))}, p95 ${ms(percentile(samples, 95))}`,
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
