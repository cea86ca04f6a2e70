import Papa from 'papaparse';
import type { DashboardWidget, WidgetData } from '../../schema/dashboard.ts';
import { EMPTY_CELL, neutralised } from '../../schema/csv-export.ts';
import { dateTexts } from '../../schema/dates.ts';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * How each widget reads (spec 02 §2): its headline figures, what its chart draws, and the rows of its
 * table and CSV file. The gateway answers figures by name (server/gateway/dashboard.ts); the words are
 * the locale's `dashboard.*`.
 */
interface WidgetSpec {
  chart: 'bar' | 'line';
  stacked?: boolean;
  /** The measures the chart draws (the table and file show every measure). */
  charted: string[];
  headline: string[];
  /** Breakdown widgets: the locale prefix naming their rows (`choices.<rows>.<key>`). */
  rows?: string;
  /** Measures read in hours, in stars or in percent rather than counted. */
  units?: Record<string, 'hours' | 'stars' | 'percent'>;
}

export const WIDGET_SPECS: Record<DashboardWidget, WidgetSpec> = {
  parcels: {
    chart: 'bar',
    stacked: true,
    charted: ['picked_up', 'returned', 'processed', 'cancelled', 'waiting'],
    headline: ['parcels', 'picked_up', 'waiting'],
  },
  delivery_pickup: {
    chart: 'line',
    charted: ['delivered', 'picked_up', 'collected', 'expired'],
    headline: ['delivered', 'picked_up', 'collected'],
  },
  booking_life: {
    chart: 'line',
    charted: ['to_delivery', 'in_locker', 'total'],
    headline: ['to_delivery', 'in_locker', 'total'],
    units: { to_delivery: 'hours', in_locker: 'hours', total: 'hours' },
  },
  user_ratings: {
    chart: 'line',
    charted: ['average'],
    headline: ['average', 'ratings'],
    units: { average: 'stars' },
  },
  service_point: {
    chart: 'bar',
    charted: ['service_points'],
    headline: ['service_points', 'active'],
    rows: 'service_point_status',
  },
  hardware_units: {
    chart: 'bar',
    charted: ['units', 'with_alert', 'with_faults'],
    headline: ['units', 'with_alert', 'with_faults'],
    rows: 'hardware_status',
  },
  compartments_capacity: {
    chart: 'bar',
    stacked: true,
    charted: ['free', 'occupied', 'reserved', 'out_of_service'],
    headline: ['compartments', 'occupancy', 'free'],
    rows: 'compartment_size',
    units: { occupancy: 'percent' },
  },
};

export interface ChartPlan {
  kind: 'bar' | 'line';
  /** The value axis's range: counts and hours from zero, ratings from one to five stars. */
  valueRange: { min: number; max?: number };
  stacked: boolean;
  categories: string[];
  series: { label: string; data: (number | null)[]; format: (value: number) => string }[];
}

export interface TablePlan {
  headers: string[];
  /** Rows as shown: the first cell names the period or the row, the others are formatted figures. */
  rows: string[][];
}

export interface WidgetPlan {
  title: string;
  headline: { label: string; value: string }[];
  chart: ChartPlan;
  table: TablePlan;
  /** The figures as a CSV file: periods as days (yyyy-MM-dd), numbers unformatted, empty cells '-'. */
  csv: () => string;
  /** Nothing measured in the view. */
  empty: boolean;
}

function formatters(locale: string, translate: Translate, units: WidgetSpec['units'] = {}) {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return (measure: string) =>
    (value: number | null | undefined): string => {
      if (value === null || value === undefined) return EMPTY_CELL;
      switch (units[measure]) {
        case 'hours':
          return translate('dashboard.units.hours', { value: number.format(value) });
        case 'stars':
          return translate('dashboard.units.stars', { value: number.format(value) });
        case 'percent':
          return translate('dashboard.units.percent', { value: number.format(value) });
        default:
          return number.format(value);
      }
    };
}

/** A bucket's name as a person reads it: a day, the week's first day, a month and year. */
export function bucketLabel(bucket: string, kind: string, locale: string, translate: Translate): string {
  if (kind === 'month') {
    return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${bucket}T00:00:00Z`),
    );
  }
  const day = dateTexts(locale).date(bucket);
  return kind === 'week' ? translate('dashboard.week_of', { day }) : day;
}

export function widgetPlan(data: WidgetData, locale: string, translate: Translate): WidgetPlan {
  const spec = WIDGET_SPECS[data.widget];
  const format = formatters(locale, translate, spec.units);
  const measureLabel = (measure: string) => translate(`dashboard.measures.${measure}`);
  const measures = data.measures;
  const bucket = data.filters.bucket;
  const lines = data.series
    ? data.series.map((point) => ({
        label: bucketLabel(point.bucket, bucket, locale, translate),
        file: point.bucket,
        values: point.values,
      }))
    : (data.breakdown ?? []).map((row) => {
        const label = translate(`choices.${spec.rows}.${row.key}`, { _: row.key });
        return { label, file: label, values: row.values as Record<string, number | null> };
      });
  const firstHeader = data.series ? translate(`dashboard.period.${bucket}`) : translate(`dashboard.rows.${spec.rows}`);
  const headers = [firstHeader, ...measures.map(measureLabel)];
  const empty = data.series
    ? !data.series.some((point) => Object.values(point.values).some((value) => Number(value) > 0))
    : !(data.breakdown ?? []).length;
  return {
    title: translate(`dashboard.widgets.${data.widget}.title`),
    headline: spec.headline.map((measure) => ({
      label: measureLabel(measure),
      value: format(measure)(data.totals[measure]),
    })),
    chart: {
      kind: spec.chart,
      valueRange: spec.units && Object.values(spec.units).includes('stars') ? { min: 1, max: 5 } : { min: 0 },
      stacked: spec.stacked === true,
      categories: lines.map((line) => line.label),
      series: spec.charted.map((measure) => ({
        label: measureLabel(measure),
        data: lines.map((line) => line.values[measure] ?? null),
        format: (value: number) => format(measure)(value),
      })),
    },
    table: {
      headers,
      rows: lines.map((line) => [line.label, ...measures.map((measure) => format(measure)(line.values[measure]))]),
    },
    csv: () =>
      Papa.unparse(
        [
          headers.map(neutralised),
          ...lines.map((line) => [
            neutralised(line.file),
            ...measures.map((measure) => {
              const value = line.values[measure];
              return value === null || value === undefined ? EMPTY_CELL : String(value);
            }),
          ]),
        ],
        { newline: '\r\n' },
      ) + '\r\n',
    empty,
  };
}
