import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/adapter.ts';
import { features } from '../../../src/schema/features.ts';
import { accessLevel } from '../../../src/schema/permissions.ts';
import { ServicePointStatus } from '../../../src/types/generated/codes.ts';
import type { JobQueue, JobWork } from '../background-jobs.ts';
import { resolveAccess, type CallerAccess } from '../caller-access.ts';
import { badRequest, HttpError, keyedError, noPermission, notFound } from '../http-error.ts';
import type { Caller } from '../request-auth.ts';
import type { ResourceDefinition } from '../resource-registry.ts';
import type { WritesOf } from '../write-pipeline.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { CRITERIA_LIMITS, computeCandidates, DEFAULT_CRITERIA, type Criteria, type Region } from './candidates.ts';
import {
  boxOf,
  convexHull,
  grownRing,
  polygonOf,
  readPolygon,
  ringWithin,
  type Polygon,
  type Ring,
} from './geometry.ts';

/**
 * The location generator's gateway (spec 02 §7: `location_generator/{locations|reports|zones|areas}`, and
 * `location_generator/service_point` POST to convert), for the operator company with feature 242. Areas and
 * zones are polygons (a zone within its area); a report is computed, and a conversion made, as background
 * jobs; the reports and conversions keep their status in their own rows so the lists and polls read them.
 */

export const REPORT_JOB = 'location_generator_report';
export const CONVERSION_JOB = 'location_generator_conversion';
const BASE = 'location_generator';
const SERVICE_POINTS = 'service_points';

function assertGeneratorAccess(access: CallerAccess) {
  if (!access.seesAll || accessLevel(access.permissions, features.location_generator) === undefined) {
    throw noPermission();
  }
}

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Body) : {};
const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, string | undefined>;

function idOf(value: unknown, name: string): number {
  if (value === undefined || value === null || value === '') throw badRequest('gateway.param_required', { name });
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw badRequest('gateway.single_value', { name });
  return id;
}

function nameOf(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw fieldError('name', 'validation.required');
  if (name.length > 70) throw fieldError('name', 'validation.max_length', { max: 70 });
  return name;
}

const fieldError = (field: string, message: string, args?: Record<string, unknown>) =>
  keyedError(422, 'http.save_failed', undefined, { errors: { [field]: { message, ...(args && { args }) } } });

function ringOf(value: unknown): Ring {
  const read = readPolygon(value);
  if ('problem' in read) throw keyedError(422, read.problem);
  return read.ring;
}

function countryOf(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) throw fieldError('country', 'validation.required');
  return value;
}

interface AreaRow {
  area_id: number;
  name: string;
  country: string;
  municipality_id: number | null;
  geometry: Polygon;
  version: number;
}
interface ZoneRow {
  zone_id: number;
  area_id: number;
  name: string;
  geometry: Polygon;
  version: number;
}

const AREA_COLUMNS = 'area_id, name, country, municipality_id, geometry, version';
const ZONE_COLUMNS = 'zone_id, area_id, name, geometry, version';

async function areaById(db: Db, id: number, lock = false) {
  const found = await db.query<AreaRow>(
    `SELECT ${AREA_COLUMNS} FROM generator_areas WHERE area_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!found.rows[0]) throw notFound();
  return found.rows[0];
}

/** The outline of a municipality of the address index: the hull of its addresses, 200 m wider. */
export async function municipalityRing(db: Db, country: string, municipalityId: number): Promise<Ring> {
  const points = await db.query<{ latitude: number; longitude: number }>(
    'SELECT latitude, longitude FROM addresses WHERE country = $1 AND municipality_id = $2',
    [country, municipalityId],
  );
  const hull = convexHull(points.rows.map((row) => [row.longitude, row.latitude]));
  if (hull.length < 4) throw fieldError('municipality_id', 'validation.unknown_reference');
  return grownRing(hull, 200);
}

function stale(version: unknown, stored: number) {
  if (version === undefined) return;
  if (typeof version !== 'number' || version !== stored) throw keyedError(409, 'catalogue.stale_version');
}

async function uniqueAreaName(db: Db, name: string, except?: number) {
  const found = await db.query('SELECT 1 FROM generator_areas WHERE lower(name) = lower($1) AND area_id <> $2', [
    name,
    except ?? 0,
  ]);
  if (found.rows.length) throw fieldError('name', 'catalogue.generator_area_name_taken');
}

const outside = (zone: string) => keyedError(422, 'catalogue.generator_zone_outside_area', { zone });

function criteriaOf(value: unknown): Criteria {
  const input = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const criteria = { ...DEFAULT_CRITERIA };
  for (const key of Object.keys(CRITERIA_LIMITS) as (keyof Criteria)[]) {
    const raw = input[key];
    if (raw === undefined || raw === null || raw === '') continue;
    const number = Number(raw);
    const [min, max] = CRITERIA_LIMITS[key];
    if (
      !Number.isFinite(number) ||
      number < min ||
      number > max ||
      (key === 'max_candidates' && !Number.isInteger(number))
    ) {
      throw fieldError(key, 'catalogue.generator_between', { min, max });
    }
    criteria[key] = number;
  }
  return criteria;
}

function idList(value: unknown, name: string): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest('gateway.single_value', { name });
  return [...new Set(value.map((id) => idOf(id, name)))];
}

export interface GeneratorDeps {
  jobs: JobQueue;
}

export function locationGeneratorRoutes({ jobs }: GeneratorDeps): Record<string, SpecialRoute> {
  const guarded =
    (route: SpecialRoute): SpecialRoute =>
    async (ctx) => {
      assertGeneratorAccess(ctx.access);
      return route(ctx);
    };

  const routes: Record<string, SpecialRoute> = {
    [`GET ${BASE}/areas`]: async ({ db }) => {
      const areas = await db.query<AreaRow & { zones: number }>(
        `SELECT ${AREA_COLUMNS}, (SELECT count(*)::int FROM generator_zones z WHERE z.area_id = a.area_id) AS zones
         FROM generator_areas a ORDER BY lower(name)`,
      );
      return { success: true, data: areas.rows, total: areas.rows.length };
    },

    [`POST ${BASE}/areas`]: async ({ request, db, access }) => {
      const body = bodyOf(request);
      const name = nameOf(body.name);
      const country = countryOf(body.country);
      const municipalityId =
        body.municipality_id === undefined || body.municipality_id === null || body.municipality_id === ''
          ? null
          : idOf(body.municipality_id, 'municipality_id');
      const ring =
        municipalityId === null ? ringOf(body.geometry) : await municipalityRing(db, country, municipalityId);
      await uniqueAreaName(db, name);
      const created = await db.query<AreaRow>(
        `INSERT INTO generator_areas (name, country, municipality_id, geometry, created_by)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${AREA_COLUMNS}`,
        [name, country, municipalityId, JSON.stringify(polygonOf(ring)), access.caller.username],
      );
      return { success: true, data: created.rows[0] };
    },

    [`PATCH ${BASE}/areas`]: async ({ request, db }) => {
      const body = bodyOf(request);
      const id = idOf(body.area_id, 'area_id');
      return db.transaction(async (tx) => {
        const area = await areaById(tx, id, true);
        stale(body.version, area.version);
        const name = body.name === undefined ? area.name : nameOf(body.name);
        if (name !== area.name) await uniqueAreaName(tx, name, id);
        const ring = body.geometry === undefined ? area.geometry.coordinates[0] : ringOf(body.geometry);
        const zones = await tx.query<ZoneRow>(`SELECT ${ZONE_COLUMNS} FROM generator_zones WHERE area_id = $1`, [id]);
        for (const zone of zones.rows) {
          if (!ringWithin(zone.geometry.coordinates[0], ring)) throw outside(zone.name);
        }
        const updated = await tx.query<AreaRow>(
          `UPDATE generator_areas SET name = $2, geometry = $3, version = version + 1, updated_at = now()
           WHERE area_id = $1 RETURNING ${AREA_COLUMNS}`,
          [id, name, JSON.stringify(polygonOf(ring))],
        );
        return { success: true, data: updated.rows[0] };
      });
    },

    [`DELETE ${BASE}/areas`]: async ({ request, db }) => {
      const id = idOf(bodyOf(request).area_id ?? queryOf(request).area_id, 'area_id');
      await areaById(db, id);
      const used = await db.query(
        `SELECT 1 FROM generator_reports WHERE $1 = ANY(area_ids) AND status IN ('queued', 'running') LIMIT 1`,
        [id],
      );
      if (used.rows.length) throw keyedError(409, 'catalogue.generator_area_in_use');
      await db.query('DELETE FROM generator_areas WHERE area_id = $1', [id]);
      return { success: true };
    },

    [`GET ${BASE}/zones`]: async ({ request, db }) => {
      const areaId = queryOf(request).area_id;
      const zones = await db.query<ZoneRow>(
        `SELECT ${ZONE_COLUMNS} FROM generator_zones ${areaId ? 'WHERE area_id = $1' : ''} ORDER BY area_id, lower(name)`,
        areaId ? [idOf(areaId, 'area_id')] : [],
      );
      return { success: true, data: zones.rows, total: zones.rows.length };
    },

    [`POST ${BASE}/zones`]: async ({ request, db, access }) => {
      const body = bodyOf(request);
      const areaId = idOf(body.area_id, 'area_id');
      const name = nameOf(body.name);
      const ring = ringOf(body.geometry);
      const area = await areaById(db, areaId);
      if (!ringWithin(ring, area.geometry.coordinates[0])) throw outside(name);
      const created = await db.query<ZoneRow>(
        `INSERT INTO generator_zones (area_id, name, geometry, created_by) VALUES ($1, $2, $3, $4)
         RETURNING ${ZONE_COLUMNS}`,
        [areaId, name, JSON.stringify(polygonOf(ring)), access.caller.username],
      );
      return { success: true, data: created.rows[0] };
    },

    [`PATCH ${BASE}/zones`]: async ({ request, db }) => {
      const body = bodyOf(request);
      const id = idOf(body.zone_id, 'zone_id');
      return db.transaction(async (tx) => {
        const found = await tx.query<ZoneRow>(
          `SELECT ${ZONE_COLUMNS} FROM generator_zones WHERE zone_id = $1 FOR UPDATE`,
          [id],
        );
        const zone = found.rows[0];
        if (!zone) throw notFound();
        stale(body.version, zone.version);
        const name = body.name === undefined ? zone.name : nameOf(body.name);
        const ring = body.geometry === undefined ? zone.geometry.coordinates[0] : ringOf(body.geometry);
        const area = await areaById(tx, zone.area_id);
        if (!ringWithin(ring, area.geometry.coordinates[0])) throw outside(name);
        const updated = await tx.query<ZoneRow>(
          `UPDATE generator_zones SET name = $2, geometry = $3, version = version + 1 WHERE zone_id = $1
           RETURNING ${ZONE_COLUMNS}`,
          [id, name, JSON.stringify(polygonOf(ring))],
        );
        return { success: true, data: updated.rows[0] };
      });
    },

    [`DELETE ${BASE}/zones`]: async ({ request, db }) => {
      const id = idOf(bodyOf(request).zone_id ?? queryOf(request).zone_id, 'zone_id');
      const deleted = await db.query('DELETE FROM generator_zones WHERE zone_id = $1 RETURNING zone_id', [id]);
      if (!deleted.rows.length) throw notFound();
      return { success: true };
    },

    [`GET ${BASE}/reports`]: async ({ request, db }) => {
      const archived = queryOf(request).archived === 'true';
      const reports = await db.query(
        `SELECT r.report_id, r.name, r.country, r.area_ids, r.zone_ids, r.criteria, r.status, r.message, r.archived,
                r.created_by, r.created_at, r.finished_at,
                (SELECT count(*)::int FROM generator_locations l WHERE l.report_id = r.report_id) AS locations,
                (SELECT count(*)::int FROM generator_locations l
                  WHERE l.report_id = r.report_id AND l.conversion_status = 'converted') AS converted,
                (SELECT string_agg(a.name, ', ' ORDER BY a.name) FROM generator_areas a
                  WHERE a.area_id = ANY(r.area_ids)) AS area_names
         FROM generator_reports r WHERE r.archived = $1 ORDER BY r.created_at DESC, r.report_id DESC`,
        [archived],
      );
      return { success: true, data: reports.rows, total: reports.rows.length };
    },

    [`POST ${BASE}/reports`]: async ({ request, db, access }) => {
      const body = bodyOf(request);
      const name = nameOf(body.name);
      const areaIds = idList(body.area_ids, 'area_ids');
      const zoneIds = idList(body.zone_ids, 'zone_ids');
      if (!areaIds.length) throw keyedError(422, 'catalogue.generator_no_area');
      const criteria = criteriaOf(body.criteria);
      const areas = await db.query<AreaRow>(`SELECT ${AREA_COLUMNS} FROM generator_areas WHERE area_id = ANY($1)`, [
        areaIds,
      ]);
      if (areas.rows.length !== areaIds.length) throw keyedError(422, 'catalogue.generator_no_area');
      const countries = new Set(areas.rows.map((area) => area.country));
      if (countries.size !== 1) throw keyedError(422, 'catalogue.generator_one_country');
      if (zoneIds.length) {
        const zones = await db.query('SELECT 1 FROM generator_zones WHERE zone_id = ANY($1) AND area_id = ANY($2)', [
          zoneIds,
          areaIds,
        ]);
        if (zones.rows.length !== zoneIds.length) throw keyedError(422, 'catalogue.generator_zone_not_in_areas');
      }
      const report = await db.transaction(async (tx) => {
        const created = await tx.query<{ report_id: number }>(
          `INSERT INTO generator_reports (name, country, area_ids, zone_ids, criteria, status, created_by)
           VALUES ($1, $2, $3, $4, $5, 'queued', $6) RETURNING report_id`,
          [name, [...countries][0], areaIds, zoneIds, JSON.stringify(criteria), access.caller.username],
        );
        return created.rows[0];
      });
      const jobId = await jobs.enqueue(REPORT_JOB, access.caller.username, { report_id: report.report_id });
      await db.query('UPDATE generator_reports SET job_id = $2 WHERE report_id = $1', [report.report_id, jobId]);
      return { success: true, data: { report_id: report.report_id, status: 'queued' } };
    },

    /** `PATCH reports {report_id, opname: 'archive'}`: a report that is still being made cannot be archived. */
    [`PATCH ${BASE}/reports`]: async ({ request, db }) => {
      const body = bodyOf(request);
      const id = idOf(body.report_id, 'report_id');
      if (body.opname !== 'archive' && body.opname !== 'unarchive') {
        throw badRequest('gateway.param_required', { name: 'opname' });
      }
      return db.transaction(async (tx) => {
        const found = await tx.query<{ status: string }>(
          'SELECT status FROM generator_reports WHERE report_id = $1 FOR UPDATE',
          [id],
        );
        if (!found.rows[0]) throw notFound();
        const converting = await tx.query(
          `SELECT 1 FROM generator_conversions WHERE report_id = $1 AND status IN ('queued', 'running')`,
          [id],
        );
        if (['queued', 'running'].includes(found.rows[0].status) || converting.rows.length) {
          throw keyedError(409, 'catalogue.generator_archive_failed');
        }
        await tx.query('UPDATE generator_reports SET archived = $2 WHERE report_id = $1', [
          id,
          body.opname === 'archive',
        ]);
        return { success: true };
      });
    },

    /** A report's locations with their scores, and its latest conversion (what the page polls). */
    [`GET ${BASE}/locations`]: async ({ request, db }) => {
      const id = idOf(queryOf(request).report_id, 'report_id');
      const report = await db.query(
        `SELECT report_id, name, country, area_ids, zone_ids, criteria, status, message, archived, created_at, finished_at
         FROM generator_reports WHERE report_id = $1`,
        [id],
      );
      if (!report.rows[0]) throw notFound();
      const locations = await db.query(
        `SELECT l.location_id, l.rank, l.zone_id, z.name AS zone_name, l.address_id, l.label, l.latitude, l.longitude,
                l.score, l.parts, l.service_point_id, l.conversion_status, l.conversion_message
         FROM generator_locations l LEFT JOIN generator_zones z ON z.zone_id = l.zone_id
         WHERE l.report_id = $1 ORDER BY l.rank`,
        [id],
      );
      const regions = await db.query(
        `SELECT 'area' AS kind, area_id AS id, name, geometry FROM generator_areas WHERE area_id = ANY($1)
         UNION ALL SELECT 'zone', zone_id, name, geometry FROM generator_zones WHERE zone_id = ANY($2)`,
        [report.rows[0].area_ids, report.rows[0].zone_ids],
      );
      const conversion = await db.query(
        `SELECT conversion_id, status, done, cardinality(location_ids) AS total, results, message, created_at, finished_at
         FROM generator_conversions WHERE report_id = $1 ORDER BY conversion_id DESC LIMIT 1`,
        [id],
      );
      return {
        success: true,
        data: {
          report: report.rows[0],
          locations: locations.rows,
          regions: regions.rows,
          conversion: conversion.rows[0] ?? null,
        },
      };
    },

    /** `POST service_point {report_id, location_ids, location_owner_id?}`: the bulk conversion. */
    [`POST ${BASE}/service_point`]: async ({ request, db, access }) => {
      const body = bodyOf(request);
      const reportId = idOf(body.report_id, 'report_id');
      const locationIds = idList(body.location_ids, 'location_ids');
      if (!locationIds.length) throw badRequest('gateway.param_required', { name: 'location_ids' });
      const ownerId =
        body.location_owner_id === undefined || body.location_owner_id === null || body.location_owner_id === ''
          ? undefined
          : idOf(body.location_owner_id, 'location_owner_id');
      const report = await db.query<{ status: string }>('SELECT status FROM generator_reports WHERE report_id = $1', [
        reportId,
      ]);
      if (!report.rows[0]) throw notFound();
      if (report.rows[0].status !== 'finished') throw keyedError(409, 'catalogue.generator_report_not_finished');
      const found = await db.query('SELECT 1 FROM generator_locations WHERE report_id = $1 AND location_id = ANY($2)', [
        reportId,
        locationIds,
      ]);
      if (found.rows.length !== locationIds.length) throw notFound();
      let conversionId: number;
      try {
        const created = await db.query<{ conversion_id: number }>(
          `INSERT INTO generator_conversions (report_id, location_ids, status, created_by)
           VALUES ($1, $2, 'queued', $3) RETURNING conversion_id`,
          [reportId, locationIds, access.caller.username],
        );
        conversionId = created.rows[0].conversion_id;
      } catch (error) {
        // The unique index on the queued or running conversion: one at a time, across processes.
        if (/generator_conversions_one_running|unique/i.test(String((error as Error).message))) {
          throw keyedError(409, 'catalogue.generator_conversion_running');
        }
        throw error;
      }
      const jobId = await jobs.enqueue(CONVERSION_JOB, access.caller.username, {
        conversion_id: conversionId,
        caller: access.caller,
        ...(ownerId === undefined ? {} : { location_owner_id: ownerId }),
      });
      await db.query('UPDATE generator_conversions SET job_id = $2 WHERE conversion_id = $1', [conversionId, jobId]);
      return { success: true, data: { conversion_id: conversionId, status: 'queued' } };
    },
  };
  return Object.fromEntries(Object.entries(routes).map(([key, route]) => [key, guarded(route)]));
}

/** The regions a report covers: its zones where it names some for an area, else the whole area. */
export function reportRegions(areas: readonly AreaRow[], zones: readonly ZoneRow[]): Region[] {
  return areas.flatMap((area) => {
    const own = zones.filter((zone) => zone.area_id === area.area_id);
    return own.length
      ? own.map((zone) => ({ zone_id: zone.zone_id, ring: zone.geometry.coordinates[0] }))
      : [{ ring: area.geometry.coordinates[0] }];
  });
}

/** Computes a report's candidates into its rows (again from nothing, if a process died half-way). */
export async function runReport(db: Db, reportId: number) {
  const found = await db.query<{ country: string; area_ids: number[]; zone_ids: number[]; criteria: Criteria }>(
    'SELECT country, area_ids, zone_ids, criteria FROM generator_reports WHERE report_id = $1',
    [reportId],
  );
  const report = found.rows[0];
  if (!report) throw new Error(`No location report ${reportId}`);
  await db.query(`UPDATE generator_reports SET status = 'running', message = NULL WHERE report_id = $1`, [reportId]);
  try {
    const areas = await db.query<AreaRow>(`SELECT ${AREA_COLUMNS} FROM generator_areas WHERE area_id = ANY($1)`, [
      report.area_ids,
    ]);
    if (!areas.rows.length) throw new Error('The report names no area that still exists');
    const zones = await db.query<ZoneRow>(`SELECT ${ZONE_COLUMNS} FROM generator_zones WHERE zone_id = ANY($1)`, [
      report.zone_ids,
    ]);
    const regions = reportRegions(areas.rows, zones.rows);
    const boxes = regions.map((region) => boxOf(region.ring));
    // The people and places around the regions: a candidate at an edge counts those beyond it too.
    const margin = (report.criteria.radius_m + 3000) / 110000;
    const box = [
      Math.min(...boxes.map((b) => b[0])) - margin * 2,
      Math.min(...boxes.map((b) => b[1])) - margin,
      Math.max(...boxes.map((b) => b[2])) + margin * 2,
      Math.max(...boxes.map((b) => b[3])) + margin,
    ];
    const inBox = 'latitude BETWEEN $3 AND $5 AND longitude BETWEEN $2 AND $4';
    const population = await db.query<{ address_id: number; latitude: number; longitude: number; residents: number }>(
      `SELECT address_id, latitude, longitude, residents FROM generator_population WHERE country = $1 AND ${inBox}`,
      [report.country, ...box],
    );
    const competitors = await db.query<{ latitude: number; longitude: number }>(
      `SELECT latitude, longitude FROM generator_competitors WHERE country = $1 AND ${inBox}`,
      [report.country, ...box],
    );
    const servicePoints = await db.query<{ latitude: number; longitude: number }>(
      `SELECT (doc->>'latitude')::float8 AS latitude, (doc->>'longitude')::float8 AS longitude FROM records
       WHERE resource = $6 AND doc->>'country' = $1 AND coalesce(doc->>'is_terminated', 'false') <> 'true'
         AND doc->>'status' NOT IN ($7, $8)
         AND (doc->>'latitude')::float8 BETWEEN $3 AND $5 AND (doc->>'longitude')::float8 BETWEEN $2 AND $4`,
      [
        report.country,
        ...box,
        SERVICE_POINTS,
        String(ServicePointStatus.Archived),
        String(ServicePointStatus.Terminated),
      ],
    );
    const candidates = computeCandidates({
      regions,
      population: population.rows,
      servicePoints: servicePoints.rows,
      competitors: competitors.rows,
      criteria: report.criteria,
    });
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM generator_locations WHERE report_id = $1', [reportId]);
      if (candidates.length) {
        const labels = await tx.query<{ address_id: number; label: string; municipality_id: number | null }>(
          'SELECT address_id, label, municipality_id FROM addresses WHERE address_id = ANY($1)',
          [candidates.map((candidate) => candidate.address_id)],
        );
        const byId = new Map(labels.rows.map((row) => [row.address_id, row]));
        await tx.query(
          `INSERT INTO generator_locations
             (report_id, rank, zone_id, address_id, label, municipality_id, latitude, longitude, score, parts)
           SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::int[], $7::float8[], $8::float8[],
                                    $9::float8[], $10::jsonb[])`,
          [
            reportId,
            candidates.map((c) => c.rank),
            candidates.map((c) => c.zone_id ?? null),
            candidates.map((c) => c.address_id),
            candidates.map((c) => byId.get(c.address_id)?.label ?? `${c.latitude}, ${c.longitude}`),
            candidates.map((c) => byId.get(c.address_id)?.municipality_id ?? null),
            candidates.map((c) => c.latitude),
            candidates.map((c) => c.longitude),
            candidates.map((c) => c.score),
            candidates.map((c) => JSON.stringify(c.parts)),
          ],
        );
      }
      await tx.query(`UPDATE generator_reports SET status = 'finished', finished_at = now() WHERE report_id = $1`, [
        reportId,
      ]);
    });
    return { locations: candidates.length };
  } catch (error) {
    await db.query(
      `UPDATE generator_reports SET status = 'failed', message = $2, finished_at = now() WHERE report_id = $1`,
      [reportId, (error as Error).message],
    );
    throw error;
  }
}

interface ConversionResult {
  location_id: number;
  status: 'converted' | 'failed';
  service_point_id?: number;
  message_key?: string;
  args?: Record<string, unknown>;
}

interface LocationRow {
  location_id: number;
  address_id: number | null;
  label: string;
  latitude: number;
  longitude: number;
  service_point_id: number | null;
  conversion_status: string | null;
}

const messageOf = (error: unknown): Pick<ConversionResult, 'message_key' | 'args'> => {
  if (error instanceof HttpError) {
    const key = error.details.message_key;
    const errors = error.details.errors as
      Record<string, { message?: string; args?: Record<string, unknown> }> | undefined;
    const first = errors && Object.values(errors)[0];
    if (first?.message) return { message_key: first.message, ...(first.args && { args: first.args }) };
    if (typeof key === 'string')
      return {
        message_key: key,
        ...(error.details.args ? { args: error.details.args as Record<string, unknown> } : {}),
      };
  }
  return { message_key: 'catalogue.generator_conversion_error' };
};

/**
 * Converts a conversion's locations one by one, each a service point made through the service points' own
 * write pipeline (schema, rules, audit) in its own transaction with the location's mark: one refused location
 * (its name taken, already converted) fails alone. Ends finished, partially finished or failed.
 */
export async function runConversion(
  db: Db,
  writesOf: WritesOf,
  resources: Map<string, ResourceDefinition>,
  payload: { conversion_id: number; caller: Caller; location_owner_id?: number },
  progress: (percent: number) => Promise<void>,
) {
  const id = payload.conversion_id;
  const found = await db.query<{ report_id: number; location_ids: number[] }>(
    'SELECT report_id, location_ids FROM generator_conversions WHERE conversion_id = $1',
    [id],
  );
  const conversion = found.rows[0];
  if (!conversion) throw new Error(`No conversion ${id}`);
  await db.query(`UPDATE generator_conversions SET status = 'running' WHERE conversion_id = $1`, [id]);
  const results: ConversionResult[] = [];
  try {
    const access = await resolveAccess(db, payload.caller);
    assertGeneratorAccess(access);
    const writes = writesOf(access, resources.get(SERVICE_POINTS)!);
    const report = await db.query<{ country: string }>('SELECT country FROM generator_reports WHERE report_id = $1', [
      conversion.report_id,
    ]);
    const locations = await db.query<LocationRow>(
      `SELECT location_id, address_id, label, latitude, longitude, service_point_id, conversion_status
       FROM generator_locations WHERE location_id = ANY($1) ORDER BY rank`,
      [conversion.location_ids],
    );
    for (const location of locations.rows) {
      try {
        const servicePointId = await db.transaction(async (tx) => {
          const mark = await tx.query<LocationRow>(
            `SELECT location_id, service_point_id, conversion_status FROM generator_locations
             WHERE location_id = $1 FOR UPDATE`,
            [location.location_id],
          );
          if (mark.rows[0]?.conversion_status === 'converted') {
            throw keyedError(409, 'catalogue.generator_already_converted');
          }
          const address = await tx.query<{
            street: string;
            house_number: string;
            postal_code: string;
            city: string;
            municipality_name: string | null;
          }>('SELECT street, house_number, postal_code, city, municipality_name FROM addresses WHERE address_id = $1', [
            location.address_id,
          ]);
          const place = address.rows[0];
          // Service point names hold letters, digits, spaces, _ and - only.
          const name = (place ? `${place.city} ${place.street} ${place.house_number}` : location.label)
            .replace(/[^\p{L}\p{M}\p{Nd}_\- ]+/gu, ' ')
            .replace(/\s+/g, ' ')
            .trim();
          const taken = await tx.query(
            `SELECT 1 FROM records WHERE resource = $1 AND lower(doc->>'name') = lower($2) LIMIT 1`,
            [SERVICE_POINTS, name],
          );
          if (taken.rows.length) throw keyedError(409, 'catalogue.generator_name_taken', { name });
          const created = await writes.createWithin(tx, {
            name,
            location_name: place ? `${place.street} ${place.house_number}` : name,
            status: ServicePointStatus.New,
            country: report.rows[0].country,
            ...(place && {
              address: `${place.street} ${place.house_number}`,
              address_id: location.address_id,
              zip: place.postal_code,
              city: place.city,
              ...(place.municipality_name && { municipality: place.municipality_name }),
            }),
            latitude: location.latitude,
            longitude: location.longitude,
            ...(payload.location_owner_id !== undefined && { location_owner_id: payload.location_owner_id }),
            description: `Location generator report ${conversion.report_id}`,
          });
          const spId = Number(created.service_point_id);
          await tx.query(
            `UPDATE generator_locations SET service_point_id = $2, conversion_status = 'converted',
               conversion_message = NULL WHERE location_id = $1`,
            [location.location_id, spId],
          );
          return spId;
        });
        results.push({ location_id: location.location_id, status: 'converted', service_point_id: servicePointId });
      } catch (error) {
        const message = messageOf(error);
        results.push({ location_id: location.location_id, status: 'failed', ...message });
        await db.query(
          `UPDATE generator_locations SET conversion_status = CASE WHEN conversion_status = 'converted'
             THEN 'converted' ELSE 'failed' END, conversion_message = $2 WHERE location_id = $1`,
          [location.location_id, message.message_key],
        );
      }
      await db.query('UPDATE generator_conversions SET done = $2, results = $3 WHERE conversion_id = $1', [
        id,
        results.length,
        JSON.stringify(results),
      ]);
      await progress((100 * results.length) / locations.rows.length);
    }
    const converted = results.filter((result) => result.status === 'converted').length;
    const status = converted === results.length ? 'finished' : converted ? 'partially_finished' : 'failed';
    await db.query(
      `UPDATE generator_conversions SET status = $2, finished_at = now(), results = $3 WHERE conversion_id = $1`,
      [id, status, JSON.stringify(results)],
    );
    return { status, converted };
  } catch (error) {
    await db.query(
      `UPDATE generator_conversions SET status = 'failed', message = $2, finished_at = now() WHERE conversion_id = $1`,
      [id, (error as Error).message],
    );
    throw error;
  }
}

export function locationGeneratorWork(
  db: Db,
  writesOf: WritesOf,
  resources: Map<string, ResourceDefinition>,
): Record<string, JobWork> {
  return {
    [REPORT_JOB]: (payload) => runReport(db, Number(payload.report_id)),
    [CONVERSION_JOB]: (payload, progress) =>
      runConversion(db, writesOf, resources, payload as unknown as Parameters<typeof runConversion>[3], progress),
  };
}
