/**
 * The dashboard's vocabulary (spec 02 §2, §7 `webtool/dashboard/widget`), shared by the gateway, which
 * computes each widget, and the page, which draws it: the widget names, the buckets and how long a
 * period each may cover, and the area keys a view can be narrowed by. Pure: no app, no server.
 */

export const DASHBOARD_WIDGETS = [
  'parcels',
  'delivery_pickup',
  'booking_life',
  'user_ratings',
  'service_point',
  'hardware_units',
  'compartments_capacity',
] as const;
export type DashboardWidget = (typeof DASHBOARD_WIDGETS)[number];

/** Widgets read from pieces and their events, over the period by bucket; the others are today's state. */
export const PIECE_WIDGETS: readonly DashboardWidget[] = ['parcels', 'delivery_pickup', 'booking_life', 'user_ratings'];

export const BUCKETS = ['day', 'week', 'month'] as const;
export type Bucket = (typeof BUCKETS)[number];

/**
 * The longest period, in days, each bucket may cover: a chart of more points than these is unreadable,
 * and a year by day would be 365 bars. The gateway refuses a longer period with the limit in its message.
 */
export const MAX_PERIOD_DAYS: Record<Bucket, number> = { day: 92, week: 371, month: 1096 };

/** The period a view without dates shows: the last 30 days, by day. */
export const DEFAULT_PERIOD_DAYS = 30;

/**
 * Area keys (`area_key`): the service point field each compares with `area_value`; `lookup` names the list
 * its ids come from (`webtool/lists?type=`), `choices` the app's own names of its codes (`choices.<name>`);
 * the others are typed. Values without a lookup are compared without case.
 */
export const AREA_KEYS = {
  country: { field: 'country', choices: 'country' },
  region: { field: 'region_id', lookup: 'region' },
  sub_region: { field: 'sub_region_id', lookup: 'sub_region' },
  municipality: { field: 'municipality' },
  city: { field: 'city' },
  service_point_group: { field: 'service_point_group_id', lookup: 'service_point_groups' },
} as const satisfies Record<string, { field: string; lookup?: string; choices?: string }>;
export type AreaKey = keyof typeof AREA_KEYS;

/** The filters of a widget request, as the gateway checks them (schemas/dashboard-widget-request.schema.json). */
export interface DashboardFilters {
  from_date: string;
  to_date: string;
  bucket: Bucket;
  carrier_ids?: number[];
  area_key?: AreaKey;
  area_value?: string;
}

/** One point of a widget's series: the bucket's first day (YYYY-MM-DD) and its figures. */
export interface SeriesPoint {
  bucket: string;
  values: Record<string, number | null>;
}

/** One row of a widget's breakdown (a status, a size...): its key and its figures. */
export interface BreakdownRow {
  key: string;
  values: Record<string, number>;
}

/** `GET webtool/dashboard/widget` `data`: figures of one widget; `series` or `breakdown`, by its kind. */
export interface WidgetData {
  widget: DashboardWidget;
  filters: DashboardFilters;
  /** The headline figures (an average is null when nothing was measured). */
  totals: Record<string, number | null>;
  /** Names of the figures of each point or row, in the order a table shows them. */
  measures: string[];
  series?: SeriesPoint[];
  breakdown?: BreakdownRow[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Whole days from `from` to `to`, both included (UTC days, as the shipment search reads them). */
export function periodDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The first day of the bucket holding `day` (weeks start on Monday, as ISO weeks do). */
export function bucketStart(day: string, bucket: Bucket): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (bucket === 'week') date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  if (bucket === 'month') date.setUTCDate(1);
  return isoDay(date);
}

/** Every bucket of the period, by its first day, in order: empty buckets are drawn as zero. */
export function bucketsOf(from: string, to: string, bucket: Bucket): string[] {
  const starts: string[] = [];
  const cursor = new Date(`${bucketStart(from, bucket)}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  while (cursor.getTime() <= end) {
    starts.push(isoDay(cursor));
    if (bucket === 'day') cursor.setUTCDate(cursor.getUTCDate() + 1);
    else if (bucket === 'week') cursor.setUTCDate(cursor.getUTCDate() + 7);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return starts;
}

/** The default view's period: the last `DEFAULT_PERIOD_DAYS` days up to `today`. */
export function defaultPeriod(today = new Date()): { from_date: string; to_date: string } {
  return { from_date: isoDay(new Date(today.getTime() - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS)), to_date: isoDay(today) };
}
