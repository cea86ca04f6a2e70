import { AREA_KEYS, BUCKETS, defaultPeriod, MAX_PERIOD_DAYS, periodDays, type Bucket } from '../../schema/dashboard.ts';

/**
 * The dashboard's view as its URL holds it (`/dashboard?from_date=...&bucket=week&carrier_ids=1`), so that
 * a link opens the same view for another user: the gateway's own filter names, as written. Values are
 * kept as text: a link edited by hand reaches the gateway, which refuses it in words.
 */
export interface DashboardView {
  from_date: string;
  to_date: string;
  bucket: string;
  /** Comma-separated carrier ids; empty for every carrier the user sees. */
  carrier_ids: string;
  area_key: string;
  area_value: string;
}

const KEYS: (keyof DashboardView)[] = ['from_date', 'to_date', 'bucket', 'carrier_ids', 'area_key', 'area_value'];

/** The view of a URL's query; what it leaves out is the default view's (the last 30 days, by day). */
export function viewFromSearch(search: string, today = new Date()): DashboardView {
  const params = new URLSearchParams(search);
  const period = defaultPeriod(today);
  const read = (key: keyof DashboardView) => params.get(key)?.trim() ?? '';
  return {
    from_date: read('from_date') || period.from_date,
    to_date: read('to_date') || period.to_date,
    bucket: read('bucket') || 'day',
    carrier_ids: read('carrier_ids'),
    area_key: read('area_key'),
    area_value: read('area_key') ? read('area_value') : '',
  };
}

/** The URL query of a view: every filter named, so that a shared link keeps its period when days pass. */
export function searchOfView(view: DashboardView): string {
  const params = new URLSearchParams();
  for (const key of KEYS) if (view[key]) params.set(key, view[key]);
  return `?${params.toString()}`;
}

/** The gateway query of one widget for a view. */
export function widgetQuery(name: string, view: DashboardView): Record<string, string> {
  const query: Record<string, string> = { name };
  for (const key of KEYS) if (view[key]) query[key] = view[key];
  return query;
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));

/**
 * A view after the user changes some filters: a new area key clears its value, and a period too long for
 * its bucket takes the smallest bucket that fits (a quarter by day becomes a quarter by week), so the form
 * never asks for a view the gateway refuses. A link edited by hand is left as written.
 */
export function changedView(view: DashboardView, change: Partial<DashboardView>): DashboardView {
  const next = { ...view, ...change };
  if (change.area_key !== undefined && change.area_key !== view.area_key) next.area_value = change.area_value ?? '';
  if (!next.area_key) next.area_value = '';
  if (change.bucket === undefined && isDay(next.from_date) && isDay(next.to_date) && next.from_date <= next.to_date) {
    const days = periodDays(next.from_date, next.to_date);
    const current = BUCKETS.includes(next.bucket as Bucket) ? (next.bucket as Bucket) : 'day';
    if (days > MAX_PERIOD_DAYS[current]) {
      next.bucket = BUCKETS.find((bucket) => days <= MAX_PERIOD_DAYS[bucket]) ?? 'month';
    }
  }
  return next;
}

/** The carrier ids of a view, as numbers. */
export function carrierIdsOf(view: DashboardView): number[] {
  return view.carrier_ids
    .split(',')
    .map((id) => Number(id.trim()))
    .filter((id) => Number.isInteger(id) && id > 0);
}

/** Where an area key's values come from: a gateway list (regions), the app's names of codes (countries), or typed. */
export function areaSource(areaKey: string): { lookup: string } | { choices: string } | undefined {
  const area = Object.hasOwn(AREA_KEYS, areaKey) ? AREA_KEYS[areaKey as keyof typeof AREA_KEYS] : undefined;
  if (area && 'lookup' in area) return { lookup: area.lookup };
  if (area && 'choices' in area) return { choices: area.choices };
  return undefined;
}
