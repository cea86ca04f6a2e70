import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { computeCandidates } from '../../server/gateway/location-generator/candidates.ts';
import { readPolygon, ringWithin, type Ring } from '../../server/gateway/location-generator/geometry.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let admin: SigningSession;
let carrier: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;

const BASE = 'webtool/location_generator';
type Answer = { status: number; body: Record<string, unknown> };

beforeAll(async () => {
  stack = await startStack();
  ({ superadmin: admin, carrier } = await signInAll(stack, ['superadmin', 'carrier']));
  fingerprint = await recordsFingerprint(stack.db);
});
afterAll(() => stack?.close());

const send = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
  session = admin,
): Promise<Answer> =>
  stack.send(
    session,
    method === 'GET'
      ? { method, path: `${BASE}/${path}`, query: body as Record<string, string> }
      : { method, path: `${BASE}/${path}`, body },
  );

/** A square of `d` degrees around a point, as GeoJSON. */
const square = (lat: number, lng: number, d: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng - d, lat - d],
      [lng + d, lat - d],
      [lng + d, lat + d],
      [lng - d, lat + d],
      [lng - d, lat - d],
    ],
  ],
});

async function generatorRows() {
  const found = await stack.db.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM generator_areas) || '/' || (SELECT count(*) FROM generator_zones) || '/' ||
            (SELECT count(*) FROM generator_reports) || '/' || (SELECT count(*) FROM generator_conversions) AS n`,
  );
  return found.rows[0].n;
}

/** A refused call: its status and catalogue key, nothing written to the records nor the generator's tables. */
async function refused(call: () => Promise<Answer>, status: number) {
  const before = [await fingerprint(), await generatorRows()];
  const answer = await call();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect([await fingerprint(), await generatorRows()]).toEqual(before);
  return answer.body as { message: string; message_key?: string };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('timed out');
}

describe('the candidate computation', () => {
  it('scores a tiny hand-made input as worked out by hand', () => {
    // Three houses on a line at 55.0 N; 0.001 degrees of latitude is 111.2 m.
    const population = [
      { address_id: 1, latitude: 55.0, longitude: 12.0, residents: 10 },
      { address_id: 2, latitude: 55.001, longitude: 12.0, residents: 30 },
      { address_id: 3, latitude: 55.01, longitude: 12.0, residents: 5 },
    ];
    const ring: Ring = [
      [11.99, 54.99],
      [12.01, 54.99],
      [12.01, 55.02],
      [11.99, 55.02],
      [11.99, 54.99],
    ];
    const candidates = computeCandidates({
      regions: [{ zone_id: 7, ring }],
      population,
      servicePoints: [{ latitude: 55.0103, longitude: 12.0 }], // 33.4 m from house 3: too close
      competitors: [{ latitude: 55.002, longitude: 12.0 }], // 111.2 m from house 2, 222.4 m from house 1
      criteria: { radius_m: 200, min_distance_m: 50, max_candidates: 5, population_weight: 0.5 },
    });
    // Houses 1 and 2 each serve 10 + 30 = 40 (111 m apart, within 200 m): population part 1 for both.
    // Competition: house 1 min(222.4 / 200, 1) = 1; house 2 111.2 / 200 = 0.556.
    // Scores: house 1 100 × (0.5 × 1 + 0.5 × 1) = 100; house 2 100 × (0.5 + 0.5 × 0.556) = 77.8.
    expect(candidates.map((c) => c.address_id)).toEqual([1, 2]);
    expect(candidates[0]).toMatchObject({ rank: 1, zone_id: 7, score: 100 });
    expect(candidates[0].parts).toMatchObject({ population: 40, population_part: 1, competition_part: 1 });
    expect(candidates[0].parts.nearest_competitor_m).toBe(222);
    expect(candidates[1].score).toBeCloseTo(77.8, 1);
    expect(candidates[1].parts.competition_part).toBeCloseTo(0.556, 3);
    expect(candidates[1].parts.nearest_service_point_m).toBe(1034); // 0.0093 degrees
    // A minimum distance of 150 m keeps house 2 away from house 1, taken first.
    const spread = computeCandidates({
      regions: [{ ring }],
      population,
      servicePoints: [],
      competitors: [],
      criteria: { radius_m: 200, min_distance_m: 150, max_candidates: 5, population_weight: 0.5 },
    });
    expect(spread.map((c) => c.address_id)).toEqual([1, 3]);
  });

  it('reads polygons and their containment', () => {
    expect(
      readPolygon({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
          ],
        ],
      }),
    ).toEqual({
      problem: 'catalogue.generator_polygon_invalid',
    });
    const bowtie = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 1],
          [1, 0],
          [0, 1],
        ],
      ],
    };
    expect(readPolygon(bowtie)).toEqual({ problem: 'catalogue.generator_polygon_crossing' });
    const outer = (readPolygon(square(0, 0, 1)) as { ring: Ring }).ring;
    const inner = (readPolygon(square(0, 0, 0.5)) as { ring: Ring }).ring;
    const across = (readPolygon(square(0, 0.9, 0.5)) as { ring: Ring }).ring;
    expect(ringWithin(inner, outer)).toBe(true);
    expect(ringWithin(across, outer)).toBe(false);
  });
});

describe('location generator gateway', () => {
  let areaId: number;
  let zoneId: number;

  it('refuses a carrier every call', async () => {
    expect((await send('GET', 'areas', {}, carrier)).status).toBe(403);
    expect((await send('GET', 'reports', {}, carrier)).status).toBe(403);
    await refused(
      () =>
        send('POST', 'areas', { name: 'Carrier area', country: 'DK', geometry: square(55.68, 12.57, 0.02) }, carrier),
      403,
    );
    await refused(() => send('POST', 'service_point', { report_id: 1, location_ids: [1] }, carrier), 403);
  });

  it('keeps a drawn area and refuses a zone outside it', async () => {
    const area = await send('POST', 'areas', {
      name: 'Test centre',
      country: 'DK',
      geometry: square(55.6761, 12.5683, 0.02),
    });
    expect(area.status, JSON.stringify(area.body)).toBe(200);
    areaId = (area.body.data as { area_id: number }).area_id;
    const zone = await send('POST', 'zones', {
      area_id: areaId,
      name: 'Core',
      geometry: square(55.6761, 12.5683, 0.008),
    });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    zoneId = (zone.body.data as { zone_id: number }).zone_id;

    const outside = await refused(
      () => send('POST', 'zones', { area_id: areaId, name: 'Harbour', geometry: square(55.6761, 12.59, 0.01) }),
      422,
    );
    expect(outside).toMatchObject({
      message_key: 'catalogue.generator_zone_outside_area',
      message: 'The zone "Harbour" lies outside its area',
    });
    // Shrinking the area so that its zone would stick out is refused the same way.
    const shrunk = await refused(
      () => send('PATCH', 'areas', { area_id: areaId, geometry: square(55.6761, 12.5683, 0.004) }),
      422,
    );
    expect(shrunk.message_key).toBe('catalogue.generator_zone_outside_area');
    const crossing = await refused(
      () =>
        send('POST', 'areas', {
          name: 'Bow tie',
          country: 'DK',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [12, 55],
                [12.1, 55.1],
                [12.1, 55],
                [12, 55.1],
              ],
            ],
          },
        }),
      422,
    );
    expect(crossing.message_key).toBe('catalogue.generator_polygon_crossing');
    const taken = await refused(
      () => send('POST', 'areas', { name: 'test CENTRE', country: 'DK', geometry: square(55.6761, 12.5683, 0.01) }),
      422,
    );
    expect(taken).toMatchObject({ errors: { name: { message: 'catalogue.generator_area_name_taken' } } });
    // An area chosen from a municipality takes its addresses' outline.
    const municipality = await send('POST', 'areas', { name: 'Odense', country: 'DK', municipality_id: 3 });
    expect(municipality.status, JSON.stringify(municipality.body)).toBe(200);
    const outline = (municipality.body.data as { geometry: { coordinates: Ring[] } }).geometry.coordinates[0];
    expect(outline.length).toBeGreaterThan(4);
    const odense = (municipality.body.data as { area_id: number }).area_id;
    expect((await send('DELETE', 'areas', { area_id: odense })).status).toBe(200);
  });

  it('refuses a report over no area and generates one over an area as a background job', async () => {
    const none = await refused(() => send('POST', 'reports', { name: 'Nothing', area_ids: [], criteria: {} }), 422);
    expect(none).toMatchObject({
      message_key: 'catalogue.generator_no_area',
      message: 'Choose at least one area for the report',
    });
    const badCriteria = await refused(
      () => send('POST', 'reports', { name: 'Wide', area_ids: [areaId], criteria: { max_candidates: 500 } }),
      422,
    );
    expect(badCriteria).toMatchObject({ errors: { max_candidates: { message: 'catalogue.generator_between' } } });

    const made = await send('POST', 'reports', {
      name: 'Test report',
      area_ids: [areaId],
      zone_ids: [zoneId],
      criteria: { radius_m: 400, min_distance_m: 300, max_candidates: 6, population_weight: 0.8 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const reportId = (made.body.data as { report_id: number }).report_id;
    const page = await until(
      async () =>
        (await send('GET', 'locations', { report_id: String(reportId) })).body.data as {
          report: { status: string };
          locations: {
            location_id: number;
            score: number;
            zone_id: number;
            parts: Record<string, number | null>;
            latitude: number;
            longitude: number;
          }[];
        },
      (data) => data.report.status === 'finished' || data.report.status === 'failed',
    );
    expect(page.report.status).toBe('finished');
    expect(page.locations.length).toBeGreaterThan(1);
    expect(page.locations.length).toBeLessThanOrEqual(6);
    const scores = page.locations.map((location) => location.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const location of page.locations) {
      expect(location.zone_id).toBe(zoneId);
      expect(location.parts.population).toBeGreaterThan(0);
      if (location.parts.nearest_service_point_m !== null)
        expect(location.parts.nearest_service_point_m).toBeGreaterThanOrEqual(300);
    }
    const listed = (await send('GET', 'reports')).body.data as {
      report_id: number;
      status: string;
      locations: number;
    }[];
    expect(listed.find((report) => report.report_id === reportId)).toMatchObject({
      status: 'finished',
      locations: page.locations.length,
    });

    // Bulk conversion: one at a time.
    const [first, second, third] = page.locations;
    await stack.db.query(
      `INSERT INTO generator_conversions (report_id, location_ids, status, created_by) VALUES ($1, $2, 'running', 'other')`,
      [reportId, [first.location_id]],
    );
    const busy = await refused(
      () => send('POST', 'service_point', { report_id: reportId, location_ids: [first.location_id] }),
      409,
    );
    expect(busy.message).toBe('Unable to convert while an existing bulk conversion is in progress');
    const archiving = await refused(() => send('PATCH', 'reports', { report_id: reportId, opname: 'archive' }), 409);
    expect(archiving.message).toBe('Archive process failed');
    await stack.db.query(`DELETE FROM generator_conversions WHERE created_by = 'other'`);

    const conversionOf = async () =>
      (
        (await send('GET', 'locations', { report_id: String(reportId) })).body.data as {
          conversion: {
            status: string;
            done: number;
            total: number;
            results: { location_id: number; status: string; service_point_id?: number; message_key?: string }[];
          };
        }
      ).conversion;
    const one = await send('POST', 'service_point', { report_id: reportId, location_ids: [first.location_id] });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const firstDone = await until(conversionOf, (c) => !['queued', 'running'].includes(c.status));
    expect(firstDone, JSON.stringify(firstDone)).toMatchObject({ status: 'finished', done: 1, total: 1 });

    // The third location's name is taken by a service point renamed meanwhile (the case aside): it fails alone, as does the first.
    const place = await stack.db.query<{ name: string }>(
      `SELECT a.city || ' ' || a.street || ' ' || a.house_number AS name FROM generator_locations l
       JOIN addresses a ON a.address_id = l.address_id WHERE l.location_id = $1`,
      [third.location_id],
    );
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{name}', to_jsonb($1::text))
       WHERE resource = 'service_points' AND key = (SELECT min(key) FROM records WHERE resource = 'service_points')`,
      [place.rows[0].name.toUpperCase()],
    );
    const many = await send('POST', 'service_point', {
      report_id: reportId,
      location_ids: [first.location_id, second.location_id, third.location_id],
    });
    expect(many.status).toBe(200);
    const partial = await until(conversionOf, (c) => !['queued', 'running'].includes(c.status));
    expect(partial.status).toBe('partially_finished');
    const byLocation = new Map(partial.results.map((result) => [result.location_id, result]));
    expect(byLocation.get(first.location_id)).toMatchObject({
      status: 'failed',
      message_key: 'catalogue.generator_already_converted',
    });
    expect(byLocation.get(third.location_id)).toMatchObject({
      status: 'failed',
      message_key: 'catalogue.generator_name_taken',
    });
    const made2 = byLocation.get(second.location_id)!;
    expect(made2.status).toBe('converted');
    // The converted service point opens in the service point screens, New, at the candidate's address.
    const servicePoint = await stack.send(admin, {
      method: 'GET',
      path: 'webtool/service_points',
      query: { service_point_id: made2.service_point_id! },
    });
    expect((servicePoint.body.data as Record<string, unknown>[])[0]).toMatchObject({
      status: 1,
      country: 'DK',
      latitude: second.latitude,
      longitude: second.longitude,
    });
    const archived = await send('PATCH', 'reports', { report_id: reportId, opname: 'archive' });
    expect(archived.status).toBe(200);
  });
});
