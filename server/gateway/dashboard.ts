import type { Db } from '../db/adapter.ts';
import type { SchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import { validationMessages } from '../../src/schema/validators/messages.ts';
import { hasPermission } from '../../src/schema/permissions.ts';
import { features } from '../../src/schema/features.ts';
import {
  AREA_KEYS,
  bucketsOf,
  DASHBOARD_WIDGETS,
  MAX_PERIOD_DAYS,
  periodDays,
  PIECE_WIDGETS,
  type BreakdownRow,
  type DashboardFilters,
  type DashboardWidget,
  type SeriesPoint,
  type WidgetData,
} from '../../src/schema/dashboard.ts';
import type { CallerAccess } from './caller-access.ts';
import { keyedError, noPermission } from './http-error.ts';
import { single } from './list-query.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { scopeFor, type Scope } from './tenancy.ts';
import type { SpecialRoute } from './webtool-routes.ts';
import { PieceEvent } from './rules/shared/piece-events.ts';
import { PIECES } from './rules/shared/piece-store.ts';
import { COMPARTMENTS, HARDWARE_UNITS, SERVICE_POINTS } from './rules/shared/hardware-store.ts';

/**
 * `GET webtool/dashboard/widget?name=` (spec 02 §2, §7): the figures of one dashboard widget, computed
 * on each call by SQL aggregates over the pieces, their events, the service points, hardware units and
 * compartments (no stored figures that could drift). Filters: `from_date`, `to_date` (whole UTC days, as
 * the shipment search reads them), `bucket` (day, week, month), `carrier_ids` (comma separated),
 * `area_key` and `area_value` (a service point field, src/schema/dashboard.ts). The query is checked
 * by schemas/dashboard-widget-request.schema.json; each refusal names what is wrong in the user's
 * language (`gateway.dashboard.*`). Who: permission 177 (the dashboard); a carrier sees its own
 * parcels and the service points it serves, and may not name another carrier; every partner sees what
 * its tenancy of pieces, service points and hardware units lets it read. Test shipments are left out.
 */

const REQUEST_SCHEMA = 'dashboard-widget-request';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Piece states by outcome (spec 02 §4), for the parcels widget. */
const OUTCOMES: Record<string, number[]> = {
  picked_up: [PieceEvent.EnduserPickup],
  returned: [PieceEvent.CourierPickup, PieceEvent.ReturnPickup, PieceEvent.ExpiredPiecePickedUp],
  cancelled: [PieceEvent.PieceCancelled, PieceEvent.HardReservationExpired, PieceEvent.SoftReservationExpired],
  processed: [PieceEvent.ParcelProcessedManually, PieceEvent.PieceCollectedByOperator],
};
const DELIVERIES = [PieceEvent.CourierDelivered, PieceEvent.EndUserConnectedToHW];
const END_USER_PICKUPS = [PieceEvent.EnduserPickup];
const COURIER_PICKUPS = [PieceEvent.CourierPickup, PieceEvent.ReturnPickup, PieceEvent.ExpiredPiecePickedUp];
/** The events that end a parcel's stay in the locker. */
const STAY_ENDS = [...END_USER_PICKUPS, ...COURIER_PICKUPS, ...OUTCOMES.processed];
const EXPIRIES = [PieceEvent.PieceExpired, PieceEvent.ForcedExpired];

const FIELD_MESSAGES: Record<string, (value: unknown) => ReturnType<typeof keyedError>> = {
  name: (value) =>
    keyedError(400, 'gateway.dashboard.unknown_widget', {
      name: String(value ?? ''),
      widgets: DASHBOARD_WIDGETS.join(', '),
    }),
  bucket: (value) => keyedError(400, 'gateway.dashboard.unknown_bucket', { bucket: String(value ?? '') }),
  from_date: () => keyedError(400, 'gateway.date_expected', { field: 'from_date' }),
  to_date: () => keyedError(400, 'gateway.date_expected', { field: 'to_date' }),
  carrier_ids: () => keyedError(400, 'gateway.dashboard.carrier_ids_expected'),
  area_key: (value) =>
    keyedError(400, 'gateway.dashboard.unknown_area_key', {
      area_key: String(value ?? ''),
      area_keys: Object.keys(AREA_KEYS).join(', '),
    }),
  area_value: () => keyedError(400, 'gateway.dashboard.area_value_required'),
};

/** The query as the schema reads it: text values, `carrier_ids` as whole numbers where they are. */
function typedQuery(query: Record<string, unknown>, today: Date) {
  const values: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const value = single(raw);
    if (value === undefined || value === '') continue;
    if (!Object.hasOwn(FIELD_MESSAGES, key) && key !== 'name') {
      throw keyedError(400, 'gateway.unknown_filter', { filter: key.slice(0, 40) });
    }
    values[key] =
      key === 'carrier_ids' ? value.split(',').map((id) => (/^\s*\d{1,9}\s*$/.test(id) ? Number(id) : id)) : value;
  }
  const to = (values.to_date as string | undefined) ?? today.toISOString().slice(0, 10);
  values.to_date = to;
  if (values.from_date === undefined && /^\d{4}-\d{2}-\d{2}$/.test(to)) {
    values.from_date = new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  }
  values.bucket ??= 'day';
  return values;
}

/** The filters, checked: each refusal names the first thing wrong, in the order a user reads the form. */
export function checkedFilters(registry: SchemaRegistry, query: Record<string, unknown>, today = new Date()) {
  const values = typedQuery(query, today);
  if (values.name === undefined) throw FIELD_MESSAGES.name('');
  const result = validateRecord<DashboardFilters & { name: DashboardWidget }>(registry, REQUEST_SCHEMA, values);
  if (!result.valid) {
    const order = ['name', 'from_date', 'to_date', 'bucket', 'carrier_ids', 'area_key', 'area_value'];
    const field = order.find((name) => Object.keys(result.errors).some((path) => path.split('.')[0] === name));
    const error = field ? result.errors[field] : undefined;
    if (field === 'to_date' && error?.message === validationMessages.notBefore) {
      throw keyedError(400, 'gateway.dashboard.period_reversed');
    }
    if (field === 'area_value' && error?.message !== validationMessages.required) {
      throw keyedError(400, 'gateway.dashboard.area_value_length', { max: 100 });
    }
    if (field) throw FIELD_MESSAGES[field](values[field]);
    throw keyedError(400, 'gateway.dashboard.bad_filters');
  }
  const filters = result.data;
  const limit = MAX_PERIOD_DAYS[filters.bucket];
  if (periodDays(filters.from_date, filters.to_date) > limit) {
    throw keyedError(400, `gateway.dashboard.period_too_long_${filters.bucket}`, { max: limit });
  }
  return filters;
}

/** Scopes of the caller over the three kinds of record a widget reads, and the carriers it may name. */
interface Reach {
  pieces: Scope;
  servicePoints: Scope;
  units: Scope;
  /** A carrier's own id: its figures are of its parcels and the service points it serves. */
  ownCarrier?: string;
}

function reachOf(access: CallerAccess, resources: Map<string, ResourceDefinition>): Reach {
  const resource = (endpoint: string) => {
    const found = resources.get(endpoint);
    if (!found) throw new Error(`The dashboard reads ${endpoint}, which is not a resource.`);
    return found;
  };
  const reach: Reach = {
    pieces: scopeFor(access, resource(PIECES)),
    servicePoints: scopeFor(access, resource(SERVICE_POINTS)),
    units: scopeFor(access, resource(HARDWARE_UNITS)),
  };
  if (!access.seesAll && access.partnerType === 'carrier') {
    if (access.partner === undefined) throw noPermission();
    reach.ownCarrier = access.partner;
  }
  // A partner that owns no hardware units (a carrier, a support provider) counts those at the service
  // points it reaches: the units' conditions then keep those at its service points only.
  if (reach.units === 'none' && (reach.ownCarrier !== undefined || typeof reach.servicePoints === 'object')) {
    reach.units = 'all';
  }
  return reach;
}

/** The carriers the figures are of: a carrier's own (it may name no other), else those asked for. */
function carriersOf(reach: Reach, asked: number[] | undefined): string[] | undefined {
  if (reach.ownCarrier === undefined) return asked?.map(String);
  const other = asked?.find((id) => String(id) !== reach.ownCarrier);
  if (other !== undefined) {
    throw keyedError(403, 'gateway.dashboard.carrier_not_readable', { carrier_id: other });
  }
  return [reach.ownCarrier];
}

/** A SQL condition builder: values go to `params`, numbered as they are added. */
class Sql {
  readonly params: unknown[] = [];
  value(value: unknown) {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

function scopeCondition(sql: Sql, scope: Scope, alias: string): string | undefined {
  if (scope === 'all') return undefined;
  if (scope === 'none') return 'false';
  return `${alias}.doc->>'${scope.field}' = ${sql.value(scope.value)}`;
}

/** Conditions on service points (alias `s`): the caller's tenancy, the carriers served, the area. */
function servicePointConditions(sql: Sql, reach: Reach, filters: DashboardFilters, carriers: string[] | undefined) {
  const conditions: string[] = [`s.resource = '${SERVICE_POINTS}'`];
  const scoped = scopeCondition(sql, reach.servicePoints, 's');
  if (scoped) conditions.push(scoped);
  if (carriers) {
    conditions.push(
      `EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(s.doc->'carriers_access', '[]'::jsonb)) served
        WHERE served = ANY(${sql.value(carriers)}::text[]))`,
    );
  }
  if (filters.area_key && filters.area_value !== undefined) {
    const area = AREA_KEYS[filters.area_key];
    conditions.push(
      'lookup' in area
        ? `s.doc->>'${area.field}' = ${sql.value(filters.area_value.trim())}`
        : `lower(s.doc->>'${area.field}') = lower(${sql.value(filters.area_value.trim())})`,
    );
  }
  return conditions;
}

/**
 * Conditions on pieces (alias `p`): the caller's tenancy of pieces, the carriers, the area (the piece's
 * service point in it), no test shipment. A partner type that reads no pieces reads those at its own
 * service points (a location owner's), or in its own hardware units (a hardware owner's), never more.
 */
function pieceConditions(sql: Sql, reach: Reach, filters: DashboardFilters, carriers: string[] | undefined) {
  const conditions: string[] = [`p.resource = '${PIECES}'`, `coalesce(p.doc->>'test_piece', 'false') <> 'true'`];
  if (reach.pieces !== 'none') {
    const scoped = scopeCondition(sql, reach.pieces, 'p');
    if (scoped) conditions.push(scoped);
  } else if (reach.servicePoints === 'all' && typeof reach.units === 'object') {
    conditions.push(
      `p.doc->>'hardware_id' IN (SELECT u.key FROM records u WHERE u.resource = '${HARDWARE_UNITS}' AND ${scopeCondition(sql, reach.units, 'u')})`,
    );
  } else if (typeof reach.servicePoints !== 'object') {
    conditions.push('false');
  }
  if (carriers) conditions.push(`p.doc->>'carrier_id' = ANY(${sql.value(carriers)}::text[])`);
  const ownPoints = reach.pieces === 'none' && typeof reach.servicePoints === 'object';
  if (ownPoints || (filters.area_key && filters.area_value !== undefined)) {
    const spConditions = servicePointConditions(sql, reach, filters, undefined);
    conditions.push(`p.doc->>'service_point_id' IN (SELECT s.key FROM records s WHERE ${spConditions.join(' AND ')})`);
  }
  return conditions;
}

/** The piece fields a caller's tenancy of pieces may name, as columns of the rollup's grain 1. */
const ROLLUP_SCOPES: Record<string, string> = { carrier_id: 'carrier_id', support_provider_id: 'support_provider_id' };

/**
 * The same pieces as `pieceConditions`, read from the daily rollup (alias `d`, migration 047): grain 0
 * (by carrier) for the network's or a carrier's view, grain 2 (by carrier and area) for their view of an
 * area, grain 1 (by service point, hardware unit and support provider too) for a partner's own points or
 * units, or a support provider's pieces.
 */
function rollupConditions(sql: Sql, reach: Reach, filters: DashboardFilters, carriers: string[] | undefined) {
  const area = filters.area_key && filters.area_value !== undefined;
  const scope = reach.pieces;
  const byCarrier = scope === 'all' || (typeof scope === 'object' && scope.field === 'carrier_id');
  const conditions: string[] = [`d.grain = ${byCarrier ? (area ? 2 : 0) : 1}`];
  if (byCarrier && filters.area_key && filters.area_value !== undefined) {
    // Grain 2: the pieces' service points in the area, kept by key and value (lower case where the
    // area is a text compared without case).
    const value = filters.area_value.trim();
    conditions.push(
      `d.area_key = ${sql.value(filters.area_key)}`,
      `d.area_value = ${sql.value('lookup' in AREA_KEYS[filters.area_key] ? value : value.toLowerCase())}`,
    );
  }
  if (typeof scope === 'object') {
    const column = ROLLUP_SCOPES[scope.field];
    if (!column) throw new Error(`The dashboard's rollup has no column for the pieces' tenancy ${scope.field}.`);
    conditions.push(`d.${column} = ${sql.value(scope.value)}`);
  } else if (scope === 'none') {
    if (reach.servicePoints === 'all' && typeof reach.units === 'object') {
      conditions.push(
        `d.hardware_id IN (SELECT u.key FROM records u WHERE u.resource = '${HARDWARE_UNITS}' AND ${scopeCondition(sql, reach.units, 'u')})`,
      );
    } else if (typeof reach.servicePoints !== 'object') {
      conditions.push('false');
    }
  }
  if (carriers) conditions.push(`d.carrier_id = ANY(${sql.value(carriers)}::text[])`);
  const ownPoints = scope === 'none' && typeof reach.servicePoints === 'object';
  if (ownPoints || (area && !byCarrier)) {
    const spConditions = servicePointConditions(sql, reach, filters, undefined);
    conditions.push(`d.service_point_id IN (SELECT s.key FROM records s WHERE ${spConditions.join(' AND ')})`);
  }
  const { from_date, to_date } = filters;
  conditions.push(`d.day >= ${sql.value(from_date)}::date`, `d.day <= ${sql.value(to_date)}::date`);
  return conditions;
}

interface Summed {
  n: number;
  total: number;
  /** total / n, computed exactly (numeric) by the database; null for no rows. */
  average: number | null;
}

/** Rollup sums by bucket and kind, and by kind over the whole period (bucket ''). */
async function rollupSums(ctx: WidgetContext, kinds: string[] | 'ratings') {
  const sql = new Sql();
  const where = rollupConditions(sql, ctx.reach, ctx.filters, ctx.carriers);
  const kind = kinds === 'ratings' ? `d.kind LIKE 'rating\\_%'` : `d.kind = ANY(${sql.value(kinds)}::text[])`;
  const bucket = `to_char(date_trunc('${ctx.filters.bucket}', d.day::timestamp), 'YYYY-MM-DD')`;
  const found = await ctx.db.query<{
    bucket: string | null;
    kind: string;
    n: string;
    total: string;
    average: string | null;
  }>(
    `SELECT ${bucket} AS bucket, d.kind, sum(d.n) AS n, sum(d.total) AS total,
       sum(d.total) / nullif(sum(d.n), 0) AS average
     FROM dashboard_daily d WHERE ${kind} AND ${where.join(' AND ')}
     GROUP BY GROUPING SETS ((${bucket}, d.kind), (d.kind))`,
    sql.params,
  );
  const sums = new Map<string, Map<string, Summed>>();
  for (const row of found.rows) {
    const bucket = row.bucket ?? '';
    if (!sums.has(bucket)) sums.set(bucket, new Map());
    sums.get(bucket)!.set(row.kind, {
      n: Number(row.n),
      total: Number(row.total),
      average: row.average === null ? null : Number(row.average),
    });
  }
  const of = (bucket: string, kind: string): Summed => sums.get(bucket)?.get(kind) ?? { n: 0, total: 0, average: null };
  return { of, sums, buckets: bucketsOf(ctx.filters.from_date, ctx.filters.to_date, ctx.filters.bucket) };
}

/** The period's bounds as piece times are stored (ISO text, UTC): from the first day to after the last. */
function bounds(filters: DashboardFilters) {
  return {
    from: `${filters.from_date}T00:00:00.000Z`,
    before: new Date(Date.parse(`${filters.to_date}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

const bucketOf = (bucket: string, expression: string) =>
  `to_char(date_trunc('${bucket}', (${expression}) AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;

type Row = Record<string, string | number | null>;

/** Rows keyed by bucket, laid over every bucket of the period (zero where none). */
function seriesOf(filters: DashboardFilters, rows: Row[], measures: string[], averages: string[] = []): SeriesPoint[] {
  const byBucket = new Map(rows.map((row) => [String(row.bucket), row]));
  return bucketsOf(filters.from_date, filters.to_date, filters.bucket).map((bucket) => {
    const row = byBucket.get(bucket);
    return {
      bucket,
      values: Object.fromEntries(
        measures.map((measure) => {
          const raw = row?.[measure];
          if (averages.includes(measure))
            return [measure, raw === null || raw === undefined ? null : round(Number(raw))];
          return [measure, raw === null || raw === undefined ? 0 : Number(raw)];
        }),
      ),
    };
  });
}

const round = (value: number) => Math.round(value * 10) / 10;
const sumOf = (series: SeriesPoint[], measure: string) =>
  series.reduce((sum, point) => sum + (Number(point.values[measure]) || 0), 0);
const codes = (list: number[]) => `(${list.join(', ')})`;

interface WidgetContext {
  db: Db;
  reach: Reach;
  filters: DashboardFilters;
  carriers: string[] | undefined;
}

type Computed = Omit<WidgetData, 'widget' | 'filters'>;

/** Parcels booked in the period (by creation, as the shipment search's date filter), by outcome. */
async function parcels(ctx: WidgetContext): Promise<Computed> {
  const measures = ['parcels', 'waiting', ...Object.keys(OUTCOMES)];
  const { of, buckets } = await rollupSums(ctx, measures);
  const series = buckets.map((bucket) => ({
    bucket,
    values: Object.fromEntries(measures.map((m) => [m, of(bucket, m).n])),
  }));
  return { measures, series, totals: Object.fromEntries(measures.map((m) => [m, of('', m).n])) };
}

/** Deliveries into lockers and pickups out of them, by when they happened. */
async function deliveryPickup(ctx: WidgetContext): Promise<Computed> {
  const measures = ['delivered', 'picked_up', 'collected', 'expired'];
  const { of, buckets } = await rollupSums(
    ctx,
    measures.map((m) => `ev_${m}`),
  );
  const series = buckets.map((bucket) => ({
    bucket,
    values: Object.fromEntries(measures.map((m) => [m, of(bucket, `ev_${m}`).n])),
  }));
  return { measures, series, totals: Object.fromEntries(measures.map((m) => [m, of('', `ev_${m}`).n])) };
}

/**
 * The average life of a booking, in hours, of the parcels booked in the period: from booking to
 * delivery, from delivery to the end of its stay (picked up, collected, processed), and in all.
 */
async function bookingLife(ctx: WidgetContext): Promise<Computed> {
  const averaged = ['to_delivery', 'in_locker', 'total'];
  const measures = [...averaged, 'completed'];
  const { of, buckets } = await rollupSums(
    ctx,
    averaged.map((m) => `life_${m}`),
  );
  const values = (bucket: string) => {
    const average = (m: string) => of(bucket, `life_${m}`).average;
    return {
      ...Object.fromEntries(averaged.map((m) => [m, average(m) === null ? null : round(average(m)!)])),
      completed: of(bucket, 'life_in_locker').n,
    };
  };
  return { measures, series: buckets.map((bucket) => ({ bucket, values: values(bucket) })), totals: values('') };
}

/** End users' ratings (event 1201, 1 to 5 stars) given in the period: how many and their average. */
async function userRatings(ctx: WidgetContext): Promise<Computed> {
  const { sums, buckets } = await rollupSums(ctx, 'ratings');
  const summed = (bucket: string) => {
    let count = 0;
    let total = 0;
    for (const { n, total: stars } of sums.get(bucket)?.values() ?? []) {
      count += n;
      total += stars;
    }
    return { ratings: count, average: count ? round(total / count) : null };
  };
  const overall = sums.get('');
  return {
    measures: ['ratings', 'average'],
    series: buckets.map((bucket) => ({ bucket, values: summed(bucket) })),
    breakdown: [1, 2, 3, 4, 5].map((star) => ({
      key: String(star),
      values: { ratings: overall?.get(`rating_${star}`)?.n ?? 0 },
    })),
    totals: summed(''),
  };
}

/** The service points' tenancy fields counted by `dashboard_service_points` (migration 046-dashboard-counts). */
export const SERVICE_POINT_COUNT_OWNERS = ['location_owner_id', 'maintenance_provider_id', 'support_provider_id'];

/** The widget's rows: service points by status key ('9' terminated), sorted by status. */
function byStatus(rows: Row[]) {
  const breakdown: BreakdownRow[] = rows
    .map((row) => ({ key: String(row.key), values: { service_points: Number(row.service_points) } }))
    .sort((a, b) => Number(a.key) - Number(b.key));
  const count = breakdown.reduce((sum, row) => sum + row.values.service_points, 0);
  const active = breakdown.find((row) => row.key === '7')?.values.service_points ?? 0;
  return { measures: ['service_points'], breakdown, totals: { service_points: count, active } };
}

/**
 * Service points by status, today: summed from the counted groups kept in the writing transaction
 * (`dashboard_service_points`, migration 046) by owner, area and the carriers served. A tenancy the
 * groups do not hold (a scout's) is counted from the service points themselves.
 */
async function servicePoints(ctx: WidgetContext): Promise<Computed> {
  const { db, reach, filters, carriers } = ctx;
  const scope = reach.servicePoints;
  if (typeof scope === 'object' && !SERVICE_POINT_COUNT_OWNERS.includes(scope.field)) {
    return directServicePoints(ctx);
  }
  const sql = new Sql();
  const conditions =
    scope === 'none'
      ? ['false']
      : typeof scope === 'object'
        ? [`d.owner_field = ${sql.value(scope.field)}`, `d.owner_value = ${sql.value(scope.value)}`]
        : [`d.owner_field = ''`, `d.owner_value = ''`];
  if (filters.area_key && filters.area_value !== undefined) {
    const value = sql.value(filters.area_value.trim());
    conditions.push(
      `d.area_key = ${sql.value(filters.area_key)}`,
      `d.area_value = ${'lookup' in AREA_KEYS[filters.area_key] ? value : `lower(${value})`}`,
    );
  } else {
    conditions.push(`d.area_key = ''`, `d.area_value = ''`);
  }
  if (carriers) conditions.push(`d.carriers && ${sql.value(carriers)}::text[]`);
  const found = await db.query<Row>(
    `SELECT d.status_key AS key, sum(d.n) AS service_points
     FROM dashboard_service_points d WHERE ${conditions.join(' AND ')}
     GROUP BY 1 HAVING sum(d.n) <> 0`,
    sql.params,
  );
  return byStatus(found.rows);
}

/** Service points by status, today, counted from the service points (the groups' reference in tests). */
async function directServicePoints({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = servicePointConditions(sql, reach, filters, carriers);
  const found = await db.query<Row>(
    `SELECT CASE WHEN coalesce(s.doc->>'is_terminated', 'false') = 'true' THEN '9' ELSE coalesce(s.doc->>'status', '1') END AS key,
       count(*) AS service_points
     FROM records s WHERE ${where.join(' AND ')} GROUP BY 1`,
    sql.params,
  );
  return byStatus(found.rows);
}

/**
 * The hardware units the view covers, with `u` their alias: the caller's tenancy of units, and with a
 * carrier or an area (or for a caller who sees only some service points), those at its service points.
 */
function unitConditions(sql: Sql, reach: Reach, filters: DashboardFilters, carriers: string[] | undefined) {
  const conditions = [`u.resource = '${HARDWARE_UNITS}'`];
  const scoped = scopeCondition(sql, reach.units, 'u');
  if (scoped) conditions.push(scoped);
  if (carriers || filters.area_key || reach.servicePoints !== 'all') {
    const spConditions = servicePointConditions(sql, reach, filters, carriers);
    conditions.push(`u.doc->>'service_point_id' IN (SELECT s.key FROM records s WHERE ${spConditions.join(' AND ')})`);
  }
  return conditions;
}

/** Hardware units by status, today, with how many have an alert or a faulty compartment. */
async function hardwareUnits({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = unitConditions(sql, reach, filters, carriers);
  const found = await db.query<Row>(
    `SELECT coalesce(u.doc->>'status', '1') AS key, count(*) AS units,
       count(*) FILTER (WHERE coalesce(u.doc->>'alert', 'false') = 'true') AS with_alert,
       count(*) FILTER (WHERE coalesce((u.doc->>'compartment_fault_count')::int, 0) > 0) AS with_faults
     FROM records u WHERE ${where.join(' AND ')} GROUP BY 1`,
    sql.params,
  );
  const measures = ['units', 'with_alert', 'with_faults'];
  const breakdown: BreakdownRow[] = found.rows
    .map((row) => ({ key: String(row.key), values: Object.fromEntries(measures.map((m) => [m, Number(row[m])])) }))
    .sort((a, b) => Number(a.key) - Number(b.key));
  const totals = Object.fromEntries(measures.map((m) => [m, breakdown.reduce((sum, row) => sum + row.values[m], 0)]));
  return { measures, breakdown, totals };
}

const COMPARTMENT_MEASURES = ['compartments', 'free', 'occupied', 'reserved', 'out_of_service'];

/** The widget's rows: compartments by size (small, medium, large), the totals and the occupancy. */
function bySize(rows: Row[]): Computed {
  const measures = COMPARTMENT_MEASURES;
  const order = ['small', 'medium', 'large'];
  const breakdown: BreakdownRow[] = rows
    .map((row) => ({ key: String(row.key), values: Object.fromEntries(measures.map((m) => [m, Number(row[m])])) }))
    .sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  const totals: Record<string, number | null> = Object.fromEntries(
    measures.map((m) => [m, breakdown.reduce((sum, row) => sum + row.values[m], 0)]),
  );
  const usable = Number(totals.compartments) - Number(totals.out_of_service);
  totals.occupancy = usable > 0 ? round((100 * (Number(totals.occupied) + Number(totals.reserved))) / usable) : null;
  return { measures, breakdown, totals };
}

/**
 * Compartments of the units the view covers, by size, today: free, occupied, reserved, out of service,
 * summed from the counts by unit and size kept in the writing transaction (`dashboard_compartments`,
 * migration 046).
 */
async function compartmentsCapacity({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const units = unitConditions(sql, reach, filters, carriers);
  const found = await db.query<Row>(
    `SELECT c.size AS key, ${COMPARTMENT_MEASURES.map((m) => `sum(c.${m}) AS ${m}`).join(', ')}
     FROM dashboard_compartments c
     WHERE c.hardware_id IN (SELECT u.key FROM records u WHERE ${units.join(' AND ')})
     GROUP BY 1 HAVING sum(c.compartments) <> 0`,
    sql.params,
  );
  return bySize(found.rows);
}

/** Compartments by size counted from the compartments themselves (the counts' reference in tests). */
async function directCompartmentsCapacity({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const units = unitConditions(sql, reach, filters, carriers);
  const flag = (name: string) => `coalesce(c.doc->>'${name}', 'false') = 'true'`;
  const outOfService = ['is_disabled', 'is_faulty', 'is_inactive_comp', 'is_locked'].map(flag).join(' OR ');
  const found = await db.query<Row>(
    `SELECT coalesce(c.doc->>'size', 'medium') AS key, count(*) AS compartments,
       count(*) FILTER (WHERE ${flag('is_free')}) AS free,
       count(*) FILTER (WHERE ${flag('is_occupied')}) AS occupied,
       count(*) FILTER (WHERE ${flag('is_reserved')} AND NOT ${flag('is_occupied')}) AS reserved,
       count(*) FILTER (WHERE NOT ${flag('is_occupied')} AND NOT ${flag('is_reserved')} AND (${outOfService})) AS out_of_service
     FROM records c
     WHERE c.resource = '${COMPARTMENTS}' AND c.doc->>'hardware_id' IN (SELECT u.key FROM records u WHERE ${units.join(' AND ')})
     GROUP BY 1`,
    sql.params,
  );
  return bySize(found.rows);
}

const WIDGETS: Record<DashboardWidget, (ctx: WidgetContext) => Promise<Computed>> = {
  parcels,
  delivery_pickup: deliveryPickup,
  booking_life: bookingLife,
  user_ratings: userRatings,
  service_point: servicePoints,
  hardware_units: hardwareUnits,
  compartments_capacity: compartmentsCapacity,
};

/** One widget's figures for a caller, its filters already checked. */
export async function widgetData(
  db: Db,
  access: CallerAccess,
  resources: Map<string, ResourceDefinition>,
  name: DashboardWidget,
  filters: DashboardFilters,
): Promise<WidgetData> {
  const reach = reachOf(access, resources);
  const carriers = carriersOf(reach, filters.carrier_ids);
  const readsPieces =
    reach.pieces !== 'none' || typeof reach.servicePoints === 'object' || typeof reach.units === 'object';
  if (PIECE_WIDGETS.includes(name) && !readsPieces) throw noPermission();
  const computed = await WIDGETS[name]({ db, reach, filters, carriers });
  return { widget: name, filters: { ...filters, ...(carriers && { carrier_ids: carriers.map(Number) }) }, ...computed };
}

/*
 * The piece widgets computed straight from the raw rows (pieces and their events), as before the
 * rollups, and the service point widget from the service points: the reference the server tests hold the
 * rollup figures to (tests/server/dashboard-rollups.test.ts).
 */

/** Parcels booked in the period (by creation, as the shipment search's date filter), by outcome. */
async function directParcels({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = pieceConditions(sql, reach, filters, carriers);
  const { from, before } = bounds(filters);
  where.push(`p.doc->>'created_at' >= ${sql.value(from)}`, `p.doc->>'created_at' < ${sql.value(before)}`);
  const outcome = Object.entries(OUTCOMES)
    .map(([name, states]) => `count(*) FILTER (WHERE (p.doc->>'state')::int IN ${codes(states)}) AS ${name}`)
    .join(', ');
  const found = await db.query<Row>(
    `SELECT ${bucketOf(filters.bucket, `(p.doc->>'created_at')::timestamptz`)} AS bucket, count(*) AS parcels,
       count(*) FILTER (WHERE coalesce(p.doc->>'active', 'false') = 'true') AS waiting, ${outcome}
     FROM records p WHERE ${where.join(' AND ')} GROUP BY 1`,
    sql.params,
  );
  const measures = ['parcels', 'waiting', ...Object.keys(OUTCOMES)];
  const series = seriesOf(filters, found.rows, measures);
  return { measures, series, totals: Object.fromEntries(measures.map((m) => [m, sumOf(series, m)])) };
}

/** Deliveries into lockers and pickups out of them, by when they happened. */
async function directDeliveryPickup({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = pieceConditions(sql, reach, filters, carriers);
  const { from, before } = bounds(filters);
  const found = await db.query<Row>(
    `SELECT ${bucketOf(filters.bucket, 'e.at')} AS bucket,
       count(*) FILTER (WHERE e.event_code IN ${codes(DELIVERIES)}) AS delivered,
       count(*) FILTER (WHERE e.event_code IN ${codes(END_USER_PICKUPS)}) AS picked_up,
       count(*) FILTER (WHERE e.event_code IN ${codes(COURIER_PICKUPS)}) AS collected,
       count(*) FILTER (WHERE e.event_code IN ${codes(EXPIRIES)}) AS expired
     FROM piece_events e JOIN records p ON p.resource = '${PIECES}' AND p.key = e.piece_id
     WHERE e.event_code IN ${codes([...DELIVERIES, ...END_USER_PICKUPS, ...COURIER_PICKUPS, ...EXPIRIES])}
       AND e.at >= ${sql.value(from)} AND e.at < ${sql.value(before)} AND ${where.join(' AND ')}
     GROUP BY 1`,
    sql.params,
  );
  const measures = ['delivered', 'picked_up', 'collected', 'expired'];
  const series = seriesOf(filters, found.rows, measures);
  return { measures, series, totals: Object.fromEntries(measures.map((m) => [m, sumOf(series, m)])) };
}

/**
 * The average life of a booking, in hours, of the parcels booked in the period: from booking to
 * delivery, from delivery to the end of its stay (picked up, collected, processed), and in all.
 */
async function directBookingLife({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = pieceConditions(sql, reach, filters, carriers);
  const { from, before } = bounds(filters);
  where.push(`p.doc->>'created_at' >= ${sql.value(from)}`, `p.doc->>'created_at' < ${sql.value(before)}`);
  const hours = (later: string, earlier: string) => `extract(epoch FROM (${later} - ${earlier})) / 3600`;
  const life = `SELECT p.key, (p.doc->>'created_at')::timestamptz AS booked,
      min(e.at) FILTER (WHERE e.event_code IN ${codes(DELIVERIES)}) AS delivered,
      min(e.at) FILTER (WHERE e.event_code IN ${codes(STAY_ENDS)}) AS ended
    FROM records p JOIN piece_events e ON e.piece_id = p.key
    WHERE ${where.join(' AND ')} GROUP BY p.key, p.doc->>'created_at'`;
  const averages = `avg(${hours('delivered', 'booked')}) AS to_delivery,
       avg(${hours('ended', 'delivered')}) FILTER (WHERE ended > delivered) AS in_locker,
       avg(${hours('ended', 'booked')}) FILTER (WHERE ended > delivered) AS total,
       count(*) FILTER (WHERE ended > delivered) AS completed`;
  const found = await db.query<Row>(
    `SELECT ${bucketOf(filters.bucket, 'booked')} AS bucket, ${averages} FROM (${life}) lives
     WHERE delivered IS NOT NULL GROUP BY 1`,
    sql.params,
  );
  const overall = await db.query<Row>(
    `SELECT ${averages} FROM (${life}) lives WHERE delivered IS NOT NULL`,
    sql.params,
  );
  const measures = ['to_delivery', 'in_locker', 'total', 'completed'];
  const averaged = ['to_delivery', 'in_locker', 'total'];
  const series = seriesOf(filters, found.rows, measures, averaged);
  const row = overall.rows[0] ?? {};
  return {
    measures,
    series,
    totals: Object.fromEntries(
      measures.map((m) => [
        m,
        averaged.includes(m)
          ? row[m] === null || row[m] === undefined
            ? null
            : round(Number(row[m]))
          : Number(row[m] ?? 0),
      ]),
    ),
  };
}

/** End users' ratings (event 1201, 1 to 5 stars) given in the period: how many and their average. */
async function directUserRatings({ db, reach, filters, carriers }: WidgetContext): Promise<Computed> {
  const sql = new Sql();
  const where = pieceConditions(sql, reach, filters, carriers);
  const { from, before } = bounds(filters);
  const rated = `FROM piece_events e JOIN records p ON p.resource = '${PIECES}' AND p.key = e.piece_id
    WHERE e.event_code = ${PieceEvent.EnduserRated} AND e.details ? 'rating'
      AND e.at >= ${sql.value(from)} AND e.at < ${sql.value(before)} AND ${where.join(' AND ')}`;
  const rating = `(e.details->>'rating')::numeric`;
  const found = await db.query<Row>(
    `SELECT ${bucketOf(filters.bucket, 'e.at')} AS bucket, count(*) AS ratings, avg(${rating}) AS average ${rated} GROUP BY 1`,
    sql.params,
  );
  const stars = await db.query<Row>(
    `SELECT (e.details->>'rating')::int AS stars, count(*) AS ratings ${rated} GROUP BY 1`,
    sql.params,
  );
  const measures = ['ratings', 'average'];
  const series = seriesOf(filters, found.rows, measures, ['average']);
  const byStars = new Map(stars.rows.map((row) => [Number(row.stars), Number(row.ratings)]));
  const count = [...byStars.values()].reduce((sum, n) => sum + n, 0);
  const total = [...byStars.entries()].reduce((sum, [star, n]) => sum + star * n, 0);
  return {
    measures,
    series,
    breakdown: [1, 2, 3, 4, 5].map((star) => ({ key: String(star), values: { ratings: byStars.get(star) ?? 0 } })),
    totals: { ratings: count, average: count ? round(total / count) : null },
  };
}

const DIRECT: Partial<Record<DashboardWidget, (ctx: WidgetContext) => Promise<Computed>>> = {
  parcels: directParcels,
  delivery_pickup: directDeliveryPickup,
  booking_life: directBookingLife,
  user_ratings: directUserRatings,
  service_point: directServicePoints,
  compartments_capacity: directCompartmentsCapacity,
};

/** A widget's figures from the raw rows, for a caller (the rollups' reference in tests). */
export async function directWidgetData(
  db: Db,
  access: CallerAccess,
  resources: Map<string, ResourceDefinition>,
  name: DashboardWidget,
  filters: DashboardFilters,
): Promise<WidgetData> {
  const reach = reachOf(access, resources);
  const carriers = carriersOf(reach, filters.carrier_ids);
  const compute = DIRECT[name] ?? WIDGETS[name];
  const computed = await compute({ db, reach, filters, carriers });
  return { widget: name, filters: { ...filters, ...(carriers && { carrier_ids: carriers.map(Number) }) }, ...computed };
}

/** The dashboard's permission (spec 01 §2.3: 177), held by the module grant or as a super admin. */
export function assertDashboardAccess(access: CallerAccess) {
  if (!hasPermission(access.permissions, features.dashboard.basic)) throw noPermission();
}

/** `GET webtool/dashboard/widget`, for the gateway's special routes. */
export function dashboardRoutes(
  resources: Map<string, ResourceDefinition>,
  registry: SchemaRegistry,
): Record<string, SpecialRoute> {
  return {
    'GET dashboard/widget': async ({ request, access, db }) => {
      assertDashboardAccess(access);
      const query = request.query as Record<string, unknown>;
      const { name, ...filters } = checkedFilters(registry, query);
      return { success: true, data: await widgetData(db, access, resources, name, filters) };
    },
  };
}
