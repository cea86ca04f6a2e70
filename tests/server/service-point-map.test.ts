import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { MapPoint } from '../../src/contract/service-point-map.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let owner: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, locationowner: owner, carrier } = await signInAll(stack, ['operator', 'locationowner', 'carrier']));
});
afterAll(() => stack.close());

const mapPoints = async (session: SigningSession, query: Record<string, string> = {}) => {
  const response = await stack.send(session, {
    method: 'GET',
    path: 'webtool/service_points',
    query: { opname: 'map_points', ...query },
  });
  expect(response.status).toBe(200);
  return response.body as { data: MapPoint[]; total: number };
};

/** The service points with coordinates, read straight from the records, narrowed by an SQL condition on `doc`. */
async function directIds(condition = 'true', params: unknown[] = []) {
  const rows = await stack.db.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = 'service_points' AND jsonb_typeof(doc->'latitude') = 'number'
       AND jsonb_typeof(doc->'longitude') = 'number' AND ${condition} ORDER BY key`,
    params,
  );
  return rows.rows.map((row) => Number(row.key));
}

describe('GET webtool/service_points opname=map_points', () => {
  it('answers every service point the operator sees, with coordinates, status and open work counted', async () => {
    const answer = await mapPoints(operator);
    const ids = await directIds();
    expect(ids.length).toBeGreaterThan(0);
    expect(answer.data.map((point) => point.id)).toEqual(ids);
    expect(answer.total).toBe(ids.length);
    const sample = answer.data[0];
    expect(Object.keys(sample).sort()).toEqual(['id', 'lat', 'lng', 'name', 'open_alerts', 'open_tickets', 'status']);

    // The open tickets (not Closed) and open alerts (no ticket, or one not Closed) of the points, counted directly.
    const tickets = await stack.db.query<{ sp: string; n: string }>(
      `SELECT doc->>'sp_id' AS sp, count(*) AS n FROM records WHERE resource = 'maintenance/tickets'
         AND coalesce(doc->>'status', '') <> '2' GROUP BY 1`,
    );
    const alerts = await stack.db.query<{ sp: string; n: string }>(
      `SELECT a.doc->>'service_point_id' AS sp, count(*) AS n FROM records a
         LEFT JOIN records t ON t.resource = 'maintenance/tickets' AND t.key = a.doc->>'ticket_id'
       WHERE a.resource = 'alerts' AND (a.doc->>'ticket_id' IS NULL OR coalesce(t.doc->>'status', '') <> '2')
       GROUP BY 1`,
    );
    const byPoint = new Map(answer.data.map((point) => [String(point.id), point]));
    const withTickets = tickets.rows.filter((row) => byPoint.has(row.sp));
    expect(withTickets.length).toBeGreaterThan(0);
    for (const row of withTickets) expect(byPoint.get(row.sp)!.open_tickets).toBe(Number(row.n));
    for (const row of alerts.rows.filter((r) => byPoint.has(r.sp))) {
      expect(byPoint.get(row.sp)!.open_alerts).toBe(Number(row.n));
    }
    const ticketTotal = withTickets.reduce((sum, row) => sum + Number(row.n), 0);
    expect(answer.data.reduce((sum, point) => sum + (point.open_tickets ?? 0), 0)).toBe(ticketTotal);
  });

  it('applies the list filters (status, country) as the list does, and refuses an unknown one', async () => {
    const [first] = (await mapPoints(operator)).data;
    const status = String(first.status);
    const byStatus = await mapPoints(operator, { status });
    expect(byStatus.data.map((point) => point.id)).toEqual(await directIds(`doc->>'status' = $1`, [status]));
    expect(byStatus.data.every((point) => String(point.status) === status)).toBe(true);
    const country = await stack.db.query<{ country: string }>(
      `SELECT doc->>'country' AS country FROM records WHERE resource = 'service_points' AND key = $1`,
      [String(first.id)],
    );
    const both = await mapPoints(operator, { status, country: country.rows[0].country });
    expect(both.data.map((point) => point.id)).toEqual(
      await directIds(`doc->>'status' = $1 AND doc->>'country' = $2`, [status, country.rows[0].country]),
    );
    expect(both.data.length).toBeLessThanOrEqual(byStatus.data.length);
    // The list's own page answers the same total for the same filters (points without coordinates aside).
    const list = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { status, limit: '1' },
    });
    expect((list.body as { total: number }).total).toBeGreaterThanOrEqual(byStatus.total);
    const unknown = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { opname: 'map_points', no_such_field: '1' },
    });
    expect(unknown.status).toBe(400);
  });

  it('scopes a location owner to its own service points and a carrier exactly as its list', async () => {
    const own = await mapPoints(owner);
    const ownerId = await stack.db.query<{ id: string }>(
      `SELECT doc->>'location_owner_id' AS id FROM records WHERE resource = 'service_points' AND key = $1`,
      [String(own.data[0]?.id ?? 0)],
    );
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.map((point) => point.id)).toEqual(
      await directIds(`doc->>'location_owner_id' = $1`, [ownerId.rows[0].id]),
    );
    const all = await mapPoints(operator);
    expect(own.data.length).toBeLessThan(all.data.length);

    const seen = await mapPoints(carrier);
    const list = await stack.send(carrier, { method: 'GET', path: 'webtool/service_points', query: { limit: '1' } });
    const listTotal = (list.body as { total: number }).total;
    const withoutCoordinates = (
      await stack.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM records WHERE resource = 'service_points'
         AND NOT (jsonb_typeof(doc->'latitude') = 'number' AND jsonb_typeof(doc->'longitude') = 'number')`,
      )
    ).rows[0].n;
    expect(seen.total).toBe(listTotal - Number(withoutCoordinates));
    // A carrier reads no tickets or alerts: its counts are left out, not shown as zero.
    expect(seen.data.every((point) => point.open_tickets === null && point.open_alerts === null)).toBe(true);
  });
});
