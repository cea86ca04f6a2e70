import { describe, expect, it } from 'vitest';
import {
  areaSource,
  carrierIdsOf,
  changedView,
  searchOfView,
  viewFromSearch,
  widgetQuery,
} from '../../src/custom/dashboard/dashboard-filters.ts';
import { bucketsOf, bucketStart, periodDays } from '../../src/schema/dashboard.ts';
import { bucketLabel, widgetPlan } from '../../src/custom/dashboard/widget-plan.ts';

/** Issue 30: the dashboard's view lives in its URL, so that a link opens the same view for another user. */

const today = new Date('2026-11-27T10:00:00Z');

describe('the view in the URL', () => {
  it('reads the default view (the last 30 days, by day) from an empty query', () => {
    expect(viewFromSearch('', today)).toEqual({
      from_date: '2026-10-29',
      to_date: '2026-11-27',
      bucket: 'day',
      carrier_ids: '',
      area_key: '',
      area_value: '',
    });
  });

  it('round-trips a view through its query, every filter named', () => {
    const view = viewFromSearch(
      '?from_date=2026-10-01&to_date=2026-10-31&bucket=week&carrier_ids=1,3&area_key=city&area_value=Aarhus',
      today,
    );
    expect(view).toMatchObject({ bucket: 'week', carrier_ids: '1,3', area_key: 'city', area_value: 'Aarhus' });
    const search = searchOfView(view);
    expect(search).toBe(
      '?from_date=2026-10-01&to_date=2026-10-31&bucket=week&carrier_ids=1%2C3&area_key=city&area_value=Aarhus',
    );
    expect(viewFromSearch(search, new Date('2027-03-01T00:00:00Z'))).toEqual(view);
    expect(carrierIdsOf(view)).toEqual([1, 3]);
  });

  it('keeps a value edited by hand for the gateway to judge, and drops an area value without a key', () => {
    const view = viewFromSearch('?bucket=hour&to_date=2026-01-01&area_value=Oslo', today);
    expect(view.bucket).toBe('hour');
    expect(view.area_value).toBe('');
    expect(widgetQuery('parcels', view)).toEqual({
      name: 'parcels',
      from_date: '2026-10-29',
      to_date: '2026-01-01',
      bucket: 'hour',
    });
  });
});

describe('a change of filters', () => {
  const base = viewFromSearch(
    '?from_date=2026-11-01&to_date=2026-11-27&bucket=day&area_key=city&area_value=Oslo',
    today,
  );

  it('clears the area value when the area key changes, and both when the area is left out', () => {
    expect(changedView(base, { area_key: 'region' })).toMatchObject({ area_key: 'region', area_value: '' });
    expect(changedView(base, { area_key: '' })).toMatchObject({ area_key: '', area_value: '' });
    expect(changedView(base, { area_value: 'Bergen' })).toMatchObject({ area_key: 'city', area_value: 'Bergen' });
  });

  it('groups a period too long for its bucket by the smallest bucket that fits', () => {
    expect(changedView(base, { from_date: '2026-06-01' }).bucket).toBe('week');
    expect(changedView(base, { from_date: '2024-01-01' }).bucket).toBe('month');
    expect(changedView(base, { from_date: '2026-09-01' }).bucket).toBe('day');
    // The bucket the user picks is theirs: the gateway's message says why it does not fit.
    expect(changedView({ ...base, from_date: '2026-01-01' }, { bucket: 'day' }).bucket).toBe('day');
  });

  it('names where an area key takes its values from', () => {
    expect(areaSource('region')).toEqual({ lookup: 'region' });
    expect(areaSource('country')).toEqual({ choices: 'country' });
    expect(areaSource('city')).toBeUndefined();
    expect(areaSource('planet')).toBeUndefined();
  });
});

describe('buckets and the widget plan', () => {
  it('lays out weeks from Monday and months from their first day', () => {
    expect(bucketStart('2026-11-27', 'week')).toBe('2026-11-23');
    expect(bucketsOf('2026-11-01', '2026-11-27', 'week')).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
    ]);
    expect(bucketsOf('2026-01-15', '2026-03-01', 'month')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(periodDays('2026-11-01', '2026-11-30')).toBe(30);
  });

  const translate = (key: string, options?: Record<string, unknown>) =>
    options?.day ? `${key}(${String(options.day)})` : options?.value !== undefined ? `${String(options.value)} h` : key;

  it("writes days in the language's one format and months by name", () => {
    expect(bucketLabel('2026-11-02', 'day', 'fr-FR', translate)).toBe('02/11/2026');
    expect(bucketLabel('2026-11-02', 'week', 'en-US', translate)).toBe('dashboard.week_of(11/02/2026)');
    expect(bucketLabel('2026-11-01', 'month', 'fr-FR', translate)).toBe('novembre 2026');
  });

  it('exports the figures as CSV without the bucket word, periods as days, empty averages as "-"', () => {
    const plan = widgetPlan(
      {
        widget: 'booking_life',
        filters: { from_date: '2026-11-01', to_date: '2026-11-10', bucket: 'week' },
        totals: { to_delivery: 10.5, in_locker: 30, total: 40.5, completed: 3 },
        measures: ['to_delivery', 'in_locker', 'total', 'completed'],
        series: [
          { bucket: '2026-10-26', values: { to_delivery: null, in_locker: null, total: null, completed: 0 } },
          { bucket: '2026-11-02', values: { to_delivery: 10.5, in_locker: 30, total: 40.5, completed: 3 } },
        ],
      },
      'en-US',
      translate,
    );
    const csv = plan.csv();
    expect(csv.split('\r\n')[0]).toBe(
      'dashboard.period.week,dashboard.measures.to_delivery,dashboard.measures.in_locker,dashboard.measures.total,dashboard.measures.completed',
    );
    expect(csv).toContain('2026-10-26,-,-,-,0');
    expect(csv).toContain('2026-11-02,10.5,30,40.5,3');
    expect(csv.toLowerCase()).not.toContain('bucket');
    expect(plan.empty).toBe(false);
    expect(plan.headline[0]).toEqual({ label: 'dashboard.measures.to_delivery', value: '10.5 h' });
    expect(plan.table.rows[0][0]).toBe('dashboard.week_of(10/26/2026)');
  });
});
