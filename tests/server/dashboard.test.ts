import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { WidgetData } from '../../src/schema/dashboard.ts';
import type { DebugInfo } from '../../src/contract/debug-info.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * Issue 30: `GET webtool/dashboard/widget?name=` (spec 02 §2, §7): each widget's figures against a
 * direct count on the same data, a carrier's figures of its own, every refused filter with its
 * message; and `GET webtool/debug` for the operator company only, without a token in it.
 */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let support: SigningSession;
let analyst: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  [operator, carrier, support, analyst] = await Promise.all(
    ['superadmin', 'carrier', 'support', 'analyst'].map((user) => stack.signIn(user)),
  );
}, 120_000);
afterAll(() => stack?.close());

const DAY_MS = 24 * 3600 * 1000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const FROM = day(29);
const TO = day(0);
const FROM_TIME = `${FROM}T00:00:00.000Z`;
const BEFORE_TIME = new Date(Date.parse(`${TO}T00:00:00Z`) + DAY_MS).toISOString();

async function widget(session: SigningSession, name: string, query: Record<string, string> = {}) {
  const answer = await stack.send(session, {
    method: 'GET',
    path: 'webtool/dashboard/widget',
    query: { name, from_date: FROM, to_date: TO, ...query },
  });
  return answer;
}

async function figures(session: SigningSession, name: string, query: Record<string, string> = {}) {
  const answer = await widget(session, name, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as WidgetData;
}

async function count(sql: string, params: unknown[] = []) {
  return Number((await stack.db.query<{ n: string }>(sql, params)).rows[0].n);
}

const NOT_TEST = `coalesce(p.doc->>'test_piece', 'false') <> 'true'`;
const IN_PERIOD = `p.doc->>'created_at' >= $1 AND p.doc->>'created_at' < $2`;

describe('widget figures match a direct count', () => {
  it('parcels: booked in the period, not test, by outcome; the shipment search finds as many', async () => {
    const data = await figures(operator, 'parcels', { bucket: 'week' });
    const direct = await count(
      `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD}`,
      [FROM_TIME, BEFORE_TIME],
    );
    expect(direct).toBeGreaterThan(0);
    expect(data.totals.parcels).toBe(direct);
    expect(data.series!.reduce((sum, point) => sum + Number(point.values.parcels), 0)).toBe(direct);
    // Weeks start on Monday, and the first holds the period's first day.
    for (const point of data.series!) expect(new Date(`${point.bucket}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(Date.parse(data.series![0].bucket)).toBeLessThanOrEqual(Date.parse(FROM));
    const pickedUp = await count(
      `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD}
       AND p.doc->>'state' = '201'`,
      [FROM_TIME, BEFORE_TIME],
    );
    expect(data.totals.picked_up).toBe(pickedUp);

    // One carrier, as the shipment search reads the same filters.
    const one = await figures(operator, 'parcels', { carrier_ids: '1', bucket: 'week' });
    const search = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/shipments',
      query: { from_date: FROM, to_date: TO, carrier_id: '1', test_piece: 'false', limit: '1' },
    });
    expect(search.status).toBe(200);
    expect(one.totals.parcels).toBe(Number(search.body.total));
    expect(one.totals.parcels).toBeLessThan(direct);
  });

  it('delivery_pickup: deliveries and pickups by when they happened', async () => {
    const data = await figures(operator, 'delivery_pickup');
    const events = (codes: number[]) =>
      count(
        `SELECT count(*) AS n FROM piece_events e JOIN records p ON p.resource = 'shipments' AND p.key = e.piece_id
         WHERE ${NOT_TEST} AND e.at >= $1 AND e.at < $2 AND e.event_code = ANY($3::int[])`,
        [FROM_TIME, BEFORE_TIME, codes],
      );
    expect(data.totals.delivered).toBe(await events([103, 1212]));
    expect(data.totals.picked_up).toBe(await events([201]));
    expect(data.totals.collected).toBe(await events([202, 203, 204]));
    expect(Number(data.totals.delivered)).toBeGreaterThan(0);
    expect(data.series).toHaveLength(30);
  });

  it('user_ratings: how many ratings and their average, per star', async () => {
    const data = await figures(operator, 'user_ratings', { bucket: 'month' });
    const rows = (
      await stack.db.query<{ rating: number }>(
        `SELECT (e.details->>'rating')::int AS rating FROM piece_events e
         JOIN records p ON p.resource = 'shipments' AND p.key = e.piece_id
         WHERE ${NOT_TEST} AND e.event_code = 1201 AND e.at >= $1 AND e.at < $2`,
        [FROM_TIME, BEFORE_TIME],
      )
    ).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(data.totals.ratings).toBe(rows.length);
    const average = rows.reduce((sum, row) => sum + row.rating, 0) / rows.length;
    expect(data.totals.average).toBeCloseTo(average, 1);
    expect(data.breakdown!.map((row) => row.values.ratings).reduce((a, b) => a + b, 0)).toBe(rows.length);
    expect(data.breakdown!.find((row) => row.key === '4')!.values.ratings).toBe(
      rows.filter((row) => row.rating === 4).length,
    );
  });

  it('booking_life: average hours to delivery and in the locker, of the parcels booked in the period', async () => {
    const data = await figures(operator, 'booking_life', { carrier_ids: '1' });
    const lives = (
      await stack.db.query<{ booked: string; delivered: string | null; ended: string | null }>(
        `SELECT p.doc->>'created_at' AS booked,
           min(e.at) FILTER (WHERE e.event_code IN (103, 1212)) AS delivered,
           min(e.at) FILTER (WHERE e.event_code IN (201, 202, 203, 204, 205, 446)) AS ended
         FROM records p JOIN piece_events e ON e.piece_id = p.key
         WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD} AND p.doc->>'carrier_id' = '1'
         GROUP BY p.key, p.doc->>'created_at'`,
        [FROM_TIME, BEFORE_TIME],
      )
    ).rows.filter((life) => life.delivered);
    const hours = (later: string, earlier: string) => (Date.parse(later) - Date.parse(earlier)) / 3600000;
    const toDelivery = lives.map((life) => hours(life.delivered!, life.booked));
    const stays = lives
      .filter((life) => life.ended && Date.parse(life.ended) > Date.parse(life.delivered!))
      .map((life) => hours(life.ended!, life.delivered!));
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    expect(lives.length).toBeGreaterThan(0);
    expect(data.totals.to_delivery).toBeCloseTo(mean(toDelivery), 0);
    expect(data.totals.in_locker).toBeCloseTo(mean(stays), 0);
    expect(data.totals.completed).toBe(stays.length);
  });

  it('service_point, hardware_units, compartments_capacity: today, by status or size', async () => {
    const points = await figures(operator, 'service_point');
    expect(points.totals.service_points).toBe(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points'`),
    );
    expect(points.breakdown!.find((row) => row.key === '7')?.values.service_points).toBe(
      await count(
        `SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND doc->>'status' = '7'
         AND coalesce(doc->>'is_terminated', 'false') <> 'true'`,
      ),
    );
    const units = await figures(operator, 'hardware_units');
    expect(units.totals.units).toBe(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points/hardware_units'`),
    );
    const capacity = await figures(operator, 'compartments_capacity');
    expect(capacity.totals.compartments).toBe(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'compartments'`),
    );
    expect(capacity.totals.occupied).toBe(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'compartments' AND doc->>'is_occupied' = 'true'`),
    );
    expect(capacity.breakdown!.map((row) => row.key)).toEqual(
      ['small', 'medium', 'large'].filter((size) => capacity.breakdown!.some((row) => row.key === size)),
    );
  });

  it('an area narrows every widget to the service points in it', async () => {
    const { city } = (
      await stack.db.query<{ city: string }>(
        `SELECT doc->>'city' AS city FROM records WHERE resource = 'service_points' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0];
    const points = await figures(operator, 'service_point', { area_key: 'city', area_value: city.toUpperCase() });
    expect(points.totals.service_points).toBe(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND doc->>'city' = $1`, [city]),
    );
    const parcels = await figures(operator, 'parcels', { area_key: 'city', area_value: city });
    expect(parcels.totals.parcels).toBe(
      await count(
        `SELECT count(*) AS n FROM records p JOIN records s ON s.resource = 'service_points' AND s.key = p.doc->>'service_point_id'
         WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD} AND s.doc->>'city' = $3`,
        [FROM_TIME, BEFORE_TIME, city],
      ),
    );
  });

  it('leaves test shipments out', async () => {
    const tests = await count(
      `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND p.doc->>'test_piece' = 'true' AND ${IN_PERIOD}`,
      [FROM_TIME, BEFORE_TIME],
    );
    const all = await count(`SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND ${IN_PERIOD}`, [
      FROM_TIME,
      BEFORE_TIME,
    ]);
    const data = await figures(operator, 'parcels');
    expect(data.totals.parcels).toBe(all - tests);
  });
});

describe('who sees which figures', () => {
  it('a carrier sees its own parcels and the service points it serves, and may not name another carrier', async () => {
    const own = await figures(carrier, 'parcels');
    expect(own.filters.carrier_ids).toEqual([1]);
    expect(own.totals.parcels).toBe(
      await count(
        `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD} AND p.doc->>'carrier_id' = '1'`,
        [FROM_TIME, BEFORE_TIME],
      ),
    );
    expect((await figures(carrier, 'parcels', { carrier_ids: '1' })).totals.parcels).toBe(own.totals.parcels);
    const points = await figures(carrier, 'service_point');
    expect(points.totals.service_points).toBe(
      await count(
        `SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND doc->'carriers_access' @> '[1]'::jsonb`,
      ),
    );
    const served = `SELECT key FROM records WHERE resource = 'service_points' AND doc->'carriers_access' @> '[1]'::jsonb`;
    const units = await figures(carrier, 'hardware_units');
    expect(units.totals.units).toBe(
      await count(
        `SELECT count(*) AS n FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' IN (${served})`,
      ),
    );
    expect(Number(units.totals.units)).toBeGreaterThan(0);
    const capacity = await figures(carrier, 'compartments_capacity');
    expect(capacity.totals.compartments).toBe(
      await count(
        `SELECT count(*) AS n FROM records c WHERE c.resource = 'compartments' AND c.doc->>'hardware_id' IN (
           SELECT key FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' IN (${served}))`,
      ),
    );
    for (const ids of ['2', '1,2']) {
      const refused = await widget(carrier, 'parcels', { carrier_ids: ids });
      expect(refused.status).toBe(403);
      expect(refused.body.message_key).toBe('gateway.dashboard.carrier_not_readable');
      expect(refused.body.args).toEqual({ carrier_id: 2 });
    }
  });

  it('a support provider sees the parcels of its service points', async () => {
    const data = await figures(support, 'parcels');
    expect(data.totals.parcels).toBe(
      await count(
        `SELECT count(*) AS n FROM records p WHERE p.resource = 'shipments' AND ${NOT_TEST} AND ${IN_PERIOD}
         AND p.doc->>'support_provider_id' = '1'`,
        [FROM_TIME, BEFORE_TIME],
      ),
    );
  });

  it('a user without permission 177 is refused', async () => {
    const refused = await widget(analyst, 'parcels');
    expect(refused.status).toBe(403);
    expect(refused.body.message_key).toBe('http.no_permission');
  });
});

describe('refused filters, each with its message', () => {
  const cases: [string, Record<string, string>, string, Record<string, unknown>?][] = [
    ['a period that ends before it starts', { from_date: day(3), to_date: day(10) }, 'period_reversed'],
    ['an unknown widget', { name: 'weather' }, 'unknown_widget'],
    ['an unknown bucket', { bucket: 'hour' }, 'unknown_bucket'],
    ['an area key without a value', { area_key: 'city' }, 'area_value_required'],
    ['an unknown area key', { area_key: 'planet', area_value: 'Mars' }, 'unknown_area_key'],
    ['carrier ids that are not numbers', { carrier_ids: '1,abc' }, 'carrier_ids_expected'],
    ['a year by day', { from_date: day(364), to_date: day(0), bucket: 'day' }, 'period_too_long_day', { max: 92 }],
    [
      'three years by week',
      { from_date: day(1000), to_date: day(0), bucket: 'week' },
      'period_too_long_week',
      { max: 371 },
    ],
  ];
  for (const [title, query, key, args] of cases) {
    it(`refuses ${title}`, async () => {
      const refused = await widget(operator, query.name ?? 'parcels', query);
      expect(refused.status).toBe(400);
      expect(refused.body.message_key).toBe(`gateway.dashboard.${key}`);
      if (args) expect(refused.body.args).toEqual(args);
      expect(String(refused.body.message)).not.toMatch(/%\{/);
    });
  }

  it('refuses a malformed date and an unknown filter', async () => {
    const date = await widget(operator, 'parcels', { from_date: '2026-13-45' });
    expect(date.status).toBe(400);
    expect(date.body.message_key).toBe('gateway.date_expected');
    const filter = await widget(operator, 'parcels', { colour: 'blue' });
    expect(filter.status).toBe(400);
    expect(filter.body.message_key).toBe('gateway.unknown_filter');
  });

  it('takes a year by month, and the last 30 days by day when no period is given', async () => {
    const year = await figures(operator, 'parcels', { from_date: day(364), bucket: 'month' });
    expect(year.series!.length).toBeGreaterThanOrEqual(12);
    const answer = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/dashboard/widget',
      query: { name: 'parcels' },
    });
    expect(answer.status).toBe(200);
    const data = answer.body.data as WidgetData;
    expect(data.filters).toMatchObject({ from_date: FROM, to_date: TO, bucket: 'day' });
    expect(data.series).toHaveLength(30);
  });
});

describe('GET webtool/debug', () => {
  it('shows an operator the versions and its resolved access, without a token', async () => {
    const answer = await stack.send(operator, { method: 'GET', path: 'webtool/debug' });
    expect(answer.status).toBe(200);
    const data = answer.body.data as DebugInfo;
    expect(data.gateway.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(data.database.server_version).toMatch(/PostgreSQL/);
    expect(data.database.last_migration).toMatch(/^\d{3}-/);
    expect(data.access).toMatchObject({ username: 'superadmin', partner_type: 'operator', super_admin: true });
    expect(data.access.levels).toContainEqual({ feature: 'dashboard', level: 'advance' });
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(operator.idToken);
    expect(text).not.toMatch(/eyJ[\w-]{10,}/);
  });

  it('is refused to a carrier', async () => {
    const answer = await stack.send(carrier, { method: 'GET', path: 'webtool/debug' });
    expect(answer.status).toBe(403);
  });
});
