import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAccess, type CallerAccess } from '../../server/gateway/caller-access.ts';
import { assertDashboardAccess, directWidgetData, SERVICE_POINT_COUNT_OWNERS } from '../../server/gateway/dashboard.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';
import { appendEvent, createPiece, readPiece } from '../../server/gateway/rules/shared/piece-store.ts';
import { demoUsers } from '../../server/seed/demo-network.ts';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { WidgetData } from '../../src/schema/dashboard.ts';
import type { Piece } from '../../src/types/generated/piece.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * Issue 30 (speed): the piece widgets read daily rollups (migration 047) kept by the database in the
 * writing transaction. After the seed and after random writes (new pieces, events appended through the
 * piece store, pieces moved, marked as tests or deleted, events removed, a write rolled back), every
 * widget's answer through the gateway equals the same widget computed straight from the raw rows
 * (`directWidgetData`), for callers of each reach and for views by day, week and month, by carrier and area.
 */

const CANDIDATES = ['superadmin', 'carrier', 'support', 'hardware', 'locationowner', 'maintenance'];
/** The candidates that hold the dashboard (permission 177). */
const USERS: string[] = [];
const PIECE_WIDGETS = ['parcels', 'delivery_pickup', 'booking_life', 'user_ratings'] as const;
const DAY_MS = 24 * 3600 * 1000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

let stack: Stack;
const sessions = new Map<string, SigningSession>();
const accesses = new Map<string, CallerAccess>();
const resources = loadResources();

beforeAll(async () => {
  stack = await startStack();
  for (const username of CANDIDATES) {
    const role = demoUsers.find((user) => user.username === username)!.role!;
    const access = await resolveAccess(stack.db, { username, groups: [role], via: 'sigv4' });
    try {
      assertDashboardAccess(access);
    } catch {
      continue;
    }
    USERS.push(username);
    accesses.set(username, access);
    sessions.set(username, await stack.signIn(username));
  }
}, 120_000);
afterAll(() => stack?.close());

/** A deterministic random source, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

async function views(): Promise<Record<string, string>[]> {
  const { city } = (
    await stack.db.query<{ city: string }>(
      `SELECT doc->>'city' AS city FROM records WHERE resource = 'service_points' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    )
  ).rows[0];
  return [
    { from_date: day(29), to_date: day(0), bucket: 'day' },
    { from_date: day(89), to_date: day(0), bucket: 'week', carrier_ids: '1' },
    { from_date: day(200), to_date: day(3), bucket: 'month' },
    { from_date: day(40), to_date: day(10), bucket: 'day', area_key: 'city', area_value: city.toUpperCase() },
    { from_date: day(29), to_date: day(0), bucket: 'week', area_key: 'region', area_value: '1' },
  ];
}

/** Every piece widget (or those given), for every caller and view: the gateway's answer equals the raw rows' aggregate. */
async function expectRollupsMatch(
  widgets: readonly string[] = PIECE_WIDGETS,
  extraViews: Record<string, string>[] = [],
) {
  let compared = 0;
  for (const query of [...(await views()), ...extraViews]) {
    for (const username of USERS) {
      for (const name of widgets) {
        if (username !== 'superadmin' && username !== 'carrier' && query.carrier_ids) continue;
        // A carrier may name its own carrier only (another is refused, tests/server/dashboard.test.ts).
        if (username === 'carrier' && query.carrier_ids?.includes(',')) continue;
        const answer = await stack.send(sessions.get(username)!, {
          method: 'GET',
          path: 'webtool/dashboard/widget',
          query: { name, ...query },
        });
        expect(answer.status, `${username} ${name} ${JSON.stringify(answer.body)}`).toBe(200);
        const data = answer.body.data as WidgetData;
        const direct = await directWidgetData(
          stack.db,
          accesses.get(username)!,
          resources,
          name as WidgetData['widget'],
          data.filters,
        );
        expect(data, `${username} ${name} ${JSON.stringify(query)}`).toEqual(direct);
        compared += 1;
      }
    }
  }
  return compared;
}

describe('dashboard rollups', () => {
  it('the seed fills them: every piece widget equals the raw rows for each caller and view', async () => {
    // The network's view (grain 0), a carrier's, and a partner that reads by service point or support provider (grain 1).
    expect(USERS).toEqual(expect.arrayContaining(['superadmin', 'carrier']));
    expect(USERS.length).toBeGreaterThan(2);
    expect(await expectRollupsMatch()).toBeGreaterThan(40);
    const superadmin = await stack.send(sessions.get('superadmin')!, {
      method: 'GET',
      path: 'webtool/dashboard/widget',
      query: { name: 'parcels', from_date: day(29), to_date: day(0) },
    });
    expect(Number((superadmin.body.data as WidgetData).totals.parcels)).toBeGreaterThan(0);
  });

  it('random writes keep them equal to the raw rows, a rolled-back write included', async () => {
    const next = random(30);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const keys = (
      await stack.db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = 'shipments' ORDER BY doc->>'created_at' DESC LIMIT 60`,
      )
    ).rows.map((row) => row.key);
    const points = (
      await stack.db.query<{ key: string }>(`SELECT key FROM records WHERE resource = 'service_points' LIMIT 20`)
    ).rows.map((row) => row.key);
    const before = await stack.db.query(`SELECT count(*) AS n FROM dashboard_daily`);
    expect(Number(before.rows[0].n)).toBeGreaterThan(0);
    const { city } = (
      await stack.db.query<{ city: string }>(
        `SELECT doc->>'city' AS city FROM records WHERE resource = 'service_points' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0];
    const when = () => new Date(Date.now() - Math.floor(next() * 45 * DAY_MS));
    let written = 0;
    for (let step = 0; step < 40; step += 1) {
      const action = Math.floor(next() * 8);
      const key = pick(keys);
      try {
        await stack.db.transaction(async (tx) => {
          if (action === 0) {
            // A new piece, copied from a stored one, booked at a random time with its first event.
            const model = (await readPiece(tx, key)) as Piece;
            const id = `ROLLUP${step}`;
            await createPiece(
              tx,
              { ...model, piece_id: id, piece_barcode: `JJDROLLUP${step}`, test_piece: false, tokens: [] },
              { event: 102, actor: 'rollup-test', at: when() },
            );
            keys.push(id);
          } else if (action === 1) {
            await appendEvent(tx, key, 1201, { rating: 1 + Math.floor(next() * 5) }, 'rollup-test', when());
          } else if (action === 2) {
            await appendEvent(tx, key, pick([103, 201, 202, 106, 110, 205]), {}, 'rollup-test', when());
          } else if (action === 3) {
            // The piece moved to another service point and carrier (a write of the pipeline's kind).
            await tx.query(
              `UPDATE records SET doc = doc || jsonb_build_object('service_point_id', $2::int, 'carrier_id', $3::int)
               WHERE resource = 'shipments' AND key = $1`,
              [key, Number(pick(points)), 1 + Math.floor(next() * 3)],
            );
          } else if (action === 4) {
            await tx.query(
              `UPDATE records SET doc = doc || jsonb_build_object('test_piece', $2::boolean) WHERE resource = 'shipments' AND key = $1`,
              [key, next() < 0.5],
            );
          } else if (action === 5) {
            await tx.query(
              `DELETE FROM piece_events WHERE id = (SELECT max(id) FROM piece_events WHERE piece_id = $1)`,
              [key],
            );
          } else if (action === 6) {
            // A service point moved to another city (and region): its pieces count in their new area.
            await tx.query(
              `UPDATE records SET doc = doc || jsonb_build_object('city', $2::text, 'region_id', $3::int)
               WHERE resource = 'service_points' AND key = (SELECT doc->>'service_point_id' FROM records
                 WHERE resource = 'shipments' AND key = $1)`,
              [key, next() < 0.5 ? city : `Other ${step}`, 1 + Math.floor(next() * 3)],
            );
          } else {
            await tx.query(`DELETE FROM records WHERE resource = 'shipments' AND key = $1`, [key]);
            await tx.query(`DELETE FROM piece_events WHERE piece_id = $1`, [key]);
          }
          // One write in five is rolled back after it is done: the rollups go back with it.
          if (next() < 0.2) throw new Error('rolled back');
        });
        written += 1;
      } catch {
        // A refused event (not allowed in the piece's state) or a rollback: nothing of it stays.
      }
    }
    expect(written).toBeGreaterThan(15);
    await expectRollupsMatch();
    // Each day's count of booked pieces per carrier is that of the raw rows, on every day (not only the views').
    const drift = await stack.db.query(
      `WITH raw AS (
         SELECT ((p.doc->>'created_at')::timestamptz AT TIME ZONE 'UTC')::date AS day, coalesce(p.doc->>'carrier_id', '') AS carrier,
           count(*) AS n
         FROM records p WHERE p.resource = 'shipments' AND coalesce(p.doc->>'test_piece', 'false') <> 'true' GROUP BY 1, 2),
       rolled AS (SELECT day, carrier_id AS carrier, n FROM dashboard_daily WHERE grain = 0 AND kind = 'parcels' AND n <> 0)
       SELECT coalesce(raw.day, rolled.day) AS day, coalesce(raw.carrier, rolled.carrier) AS carrier, raw.n AS raw, rolled.n AS rolled
       FROM raw FULL JOIN rolled ON raw.day = rolled.day AND raw.carrier = rolled.carrier
       WHERE raw.n IS DISTINCT FROM rolled.n`,
    );
    expect(drift.rows).toEqual([]);
  }, 60_000);

  it('the service point counts (migration 046) equal the service points after random writes, rolled-back ones included', async () => {
    // Several asked carriers: a point serving two of them counts once.
    const carriersViews = [{ from_date: day(29), to_date: day(0), bucket: 'day', carrier_ids: '1,2' }];
    expect(await expectRollupsMatch(['service_point'], carriersViews)).toBeGreaterThan(10);
    const next = random(46);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const points = (
      await stack.db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = 'service_points' ORDER BY key LIMIT 40`,
      )
    ).rows.map((row) => row.key);
    const owners = (
      await stack.db.query<{ owner: string }>(
        `SELECT DISTINCT doc->>'location_owner_id' AS owner FROM records WHERE resource = 'service_points'
         AND doc->>'location_owner_id' IS NOT NULL`,
      )
    ).rows.map((row) => row.owner);
    const { city } = (
      await stack.db.query<{ city: string }>(
        `SELECT doc->>'city' AS city FROM records WHERE resource = 'service_points' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0];
    let written = 0;
    for (let step = 0; step < 30; step += 1) {
      const action = Math.floor(next() * 7);
      const key = pick(points);
      await stack.db
        .transaction(async (tx) => {
          const set = (patch: string, params: unknown[]) =>
            tx.query(`UPDATE records SET doc = doc || ${patch} WHERE resource = 'service_points' AND key = $1`, [
              key,
              ...params,
            ]);
          if (action === 0) {
            await set(`jsonb_build_object('status', $2::int, 'is_terminated', $3::boolean)`, [
              pick([1, 2, 3, 5, 7, 8]),
              next() < 0.2,
            ]);
          } else if (action === 1) {
            // Served by other carriers (none, one, or several with a repeat).
            const served = [1, 2, 3, 4].filter(() => next() < 0.4);
            await set(`jsonb_build_object('carriers_access', $2::jsonb)`, [
              JSON.stringify([...served, ...served.slice(0, 1)]),
            ]);
          } else if (action === 2) {
            await set(`jsonb_build_object('location_owner_id', $2::int, 'city', $3::text, 'country', $4::text)`, [
              Number(pick(owners)),
              next() < 0.5 ? city.toUpperCase() : `Elsewhere ${step}`,
              pick(['FR', 'fr', 'DE']),
            ]);
          } else if (action === 3) {
            // A new service point, copied from a stored one.
            const id = String(900_000 + step);
            await tx.query(
              `INSERT INTO records (resource, key, partner_type, partner_id, doc)
               SELECT resource, $2, partner_type, partner_id, doc || jsonb_build_object('service_point_id', $2::int)
               FROM records WHERE resource = 'service_points' AND key = $1`,
              [key, id],
            );
            points.push(id);
          } else if (action === 4) {
            await tx.query(`DELETE FROM records WHERE resource = 'service_points' AND key = $1`, [key]);
          } else if (action === 5) {
            // One statement writing many points: those of a city terminated, and some fields taken off.
            await tx.query(
              `UPDATE records SET doc = (doc - 'status' - 'region_id') || '{"is_terminated": true}'::jsonb
               WHERE resource = 'service_points' AND lower(doc->>'city') = lower($1)`,
              [city],
            );
          } else {
            await set(`jsonb_build_object('support_provider_id', $2::int, 'region_id', $3::int)`, [
              1 + Math.floor(next() * 3),
              1 + Math.floor(next() * 3),
            ]);
          }
          if (next() < 0.25) throw new Error('rolled back');
        })
        .then(
          () => (written += 1),
          () => undefined,
        );
    }
    expect(written).toBeGreaterThan(12);
    expect(await expectRollupsMatch(['service_point'], carriersViews)).toBeGreaterThan(10);
    // Every status and set of carriers served, network-wide, counts what the service points hold.
    const drift = await stack.db.query(
      `WITH raw AS (
         SELECT CASE WHEN coalesce(s.doc->>'is_terminated', 'false') = 'true' THEN '9' ELSE coalesce(s.doc->>'status', '1') END AS status,
           ARRAY(SELECT DISTINCT c FROM jsonb_array_elements_text(coalesce(s.doc->'carriers_access', '[]')) c ORDER BY c) AS carriers,
           count(*) AS n
         FROM records s WHERE s.resource = 'service_points' GROUP BY 1, 2),
       counted AS (SELECT status_key AS status, carriers, n FROM dashboard_service_points
         WHERE owner_field = '' AND area_key = '' AND n <> 0)
       SELECT coalesce(raw.status, counted.status) AS status, coalesce(raw.carriers, counted.carriers) AS carriers,
         raw.n AS raw, counted.n AS counted
       FROM raw FULL JOIN counted ON raw.status = counted.status AND raw.carriers = counted.carriers
       WHERE raw.n IS DISTINCT FROM counted.n`,
    );
    expect(drift.rows).toEqual([]);
    const negative = await stack.db.query(`SELECT * FROM dashboard_service_points WHERE n < 0`);
    expect(negative.rows).toEqual([]);
  }, 60_000);

  it('a save that changes nothing a service point is counted by writes no count row (migration 050)', async () => {
    const rowVersions = async () =>
      (
        await stack.db.query<{ v: string }>(
          `SELECT xmin::text || ':' || n AS v FROM dashboard_service_points ORDER BY 1`,
        )
      ).rows.map((row) => row.v);
    const before = await rowVersions();
    const { rows } = await stack.db.query<{ key: string }>(
      `SELECT key FROM records WHERE resource = 'service_points' ORDER BY key LIMIT 1`,
    );
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{comments}', to_jsonb('unchanged counts'::text))
       WHERE resource = 'service_points' AND key = $1`,
      [rows[0].key],
    );
    expect(await rowVersions()).toEqual(before);
    // A change of status still moves its groups' counts.
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{status}', to_jsonb(CASE WHEN doc->>'status' = '3' THEN 4 ELSE 3 END))
       WHERE resource = 'service_points' AND key = $1`,
      [rows[0].key],
    );
    expect(await rowVersions()).not.toEqual(before);
  });

  it('a change of any field a service point is grouped by moves its basis (migration 051 skips the rest)', async () => {
    // Every field of the demo's service points, and every field the groups read, set in turn to a value it
    // does not hold: whenever the groups move, the basis the update trigger compares moves too.
    const { rows } = await stack.db.query<{ field: string; grouped: boolean; based: boolean }>(
      `WITH sample AS (SELECT doc FROM records WHERE resource = 'service_points' ORDER BY key LIMIT 6),
       fields AS (
         SELECT DISTINCT jsonb_object_keys(doc) AS field FROM sample
         UNION SELECT jsonb_array_elements_text($1::jsonb)
       ),
       changed AS (
         SELECT f.field, s.doc, s.doc || jsonb_build_object(f.field, v.value) AS moved
         FROM fields f, sample s,
           (VALUES ('"zz-other"'::jsonb), ('7'::jsonb), ('true'::jsonb), ('["zz-other"]'::jsonb), ('null'::jsonb)) v(value)
         WHERE s.doc -> f.field IS DISTINCT FROM v.value
       ),
       judged AS (
         SELECT field,
           ARRAY(SELECT g::text FROM dashboard_service_point_groups(doc) g ORDER BY 1)
             <> ARRAY(SELECT g::text FROM dashboard_service_point_groups(moved) g ORDER BY 1) AS regrouped,
           dashboard_service_point_basis(doc) IS DISTINCT FROM dashboard_service_point_basis(moved) AS rebased
         FROM changed
       )
       SELECT field, bool_or(regrouped) AS grouped, bool_and(rebased OR NOT regrouped) AS based
       FROM judged GROUP BY field ORDER BY field`,
      [JSON.stringify(['status', 'is_terminated', 'carriers_access', 'city', 'country', 'service_point_group_id'])],
    );
    const grouped = rows.filter((row) => row.grouped).map((row) => row.field);
    expect(grouped).toEqual(expect.arrayContaining(['status', 'is_terminated', 'carriers_access', 'city', 'country']));
    expect(rows.filter((row) => !row.based).map((row) => row.field)).toEqual([]);
    expect(rows.length).toBeGreaterThan(grouped.length);
  });

  it('counts every tenancy field of the service points', () => {
    const tenancy = Object.values(resources.get('service_points')!.tenancy).filter((field) => field !== '*');
    expect(tenancy.length).toBeGreaterThan(0);
    for (const field of tenancy) expect(SERVICE_POINT_COUNT_OWNERS).toContain(field);
  });

  it('the compartment counts (migration 046) equal the compartments after random writes, rolled-back ones included', async () => {
    expect(await expectRollupsMatch(['compartments_capacity'])).toBeGreaterThan(10);
    const next = random(4646);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const compartments = (
      await stack.db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = 'compartments' ORDER BY key LIMIT 60`,
      )
    ).rows.map((row) => row.key);
    const units = (
      await stack.db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = 'hardware_units' ORDER BY key LIMIT 10`,
      )
    ).rows.map((row) => row.key);
    const flags = [
      'is_free',
      'is_occupied',
      'is_reserved',
      'is_disabled',
      'is_faulty',
      'is_inactive_comp',
      'is_locked',
    ];
    let written = 0;
    for (let step = 0; step < 30; step += 1) {
      const action = Math.floor(next() * 5);
      const key = pick(compartments);
      await stack.db
        .transaction(async (tx) => {
          if (action === 0) {
            await tx.query(
              `UPDATE records SET doc = doc || jsonb_build_object($2::text, $3::boolean, $4::text, $5::boolean)
               WHERE resource = 'compartments' AND key = $1`,
              [key, pick(flags), next() < 0.5, pick(flags), next() < 0.5],
            );
          } else if (action === 1) {
            // Another size, or none (counted as medium), in another unit.
            await tx.query(
              `UPDATE records SET doc = CASE WHEN $2::text = '' THEN doc - 'size' ELSE doc || jsonb_build_object('size', $2::text) END
                 || jsonb_build_object('hardware_id', $3::text)
               WHERE resource = 'compartments' AND key = $1`,
              [key, pick(['', 'small', 'large']), pick(units)],
            );
          } else if (action === 2) {
            const id = `ROLLUP-C${step}`;
            await tx.query(
              `INSERT INTO records (resource, key, partner_type, partner_id, doc)
               SELECT resource, $2, partner_type, partner_id, doc || jsonb_build_object('compartment_id', $2::text)
               FROM records WHERE resource = 'compartments' AND key = $1`,
              [key, id],
            );
            compartments.push(id);
          } else if (action === 3) {
            await tx.query(`DELETE FROM records WHERE resource = 'compartments' AND key = $1`, [key]);
          } else {
            // One statement writing a whole unit's compartments.
            await tx.query(
              `UPDATE records SET doc = doc || jsonb_build_object('is_occupied', $2::boolean, 'is_free', NOT $2::boolean)
               WHERE resource = 'compartments' AND doc->>'hardware_id' = $1`,
              [pick(units), next() < 0.5],
            );
          }
          if (next() < 0.25) throw new Error('rolled back');
        })
        .then(
          () => (written += 1),
          () => undefined,
        );
    }
    expect(written).toBeGreaterThan(12);
    expect(await expectRollupsMatch(['compartments_capacity'])).toBeGreaterThan(10);
    // Every unit and size counts what its compartments hold.
    const drift = await stack.db.query(
      `WITH raw AS (
         SELECT coalesce(doc->>'hardware_id', '') AS unit, coalesce(doc->>'size', 'medium') AS size, count(*) AS n,
           count(*) FILTER (WHERE coalesce(doc->>'is_occupied', 'false') = 'true') AS occupied
         FROM records WHERE resource = 'compartments' GROUP BY 1, 2),
       counted AS (SELECT hardware_id AS unit, size, compartments AS n, occupied FROM dashboard_compartments WHERE compartments <> 0)
       SELECT * FROM raw FULL JOIN counted ON raw.unit = counted.unit AND raw.size = counted.size
       WHERE raw.n IS DISTINCT FROM counted.n OR raw.occupied IS DISTINCT FROM counted.occupied`,
    );
    expect(drift.rows).toEqual([]);
  }, 60_000);
});
