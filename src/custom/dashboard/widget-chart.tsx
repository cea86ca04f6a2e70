import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { ChartsLocalizationProvider } from '@mui/x-charts/ChartsLocalizationProvider';
import { frFR } from '@mui/x-charts/locales';
import { useLocaleState } from 'react-admin';
import type { ChartPlan } from './widget-plan.ts';

/**
 * A widget's chart, drawn by MUI X Charts (README "Dashboard": why this library). The page loads this
 * module lazily, so the library is a chunk of its own that the first screen never fetches. The chart
 * takes the keyboard (arrow keys step through the bars and points, each read out by the tooltip); the
 * same figures are always one click away as a table.
 */
export default function WidgetChart({ plan, label }: { plan: ChartPlan; label: string }) {
  const [locale] = useLocaleState();
  const french = locale.startsWith('fr');
  const localeText = french ? frFR.components.MuiChartsLocalizationProvider.defaultProps.localeText : undefined;
  const series = plan.series.map((one) => ({
    data: one.data,
    label: one.label,
    ...(plan.stacked && { stack: 'all' }),
    valueFormatter: (value: number | null) => (value === null ? '–' : one.format(value)),
  }));
  const axis = [{ scaleType: 'band' as const, data: plan.categories }];
  const ticks = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const common = {
    height: 260,
    series,
    xAxis: axis,
    // Ticks in the language's short form ("20 k", "1,5 k"): whole figures ("20,000") were cut at the
    // axis's edge and grouped the English way in French.
    yAxis: [{ ...plan.valueRange, width: 48, valueFormatter: (value: number) => ticks.format(value) }],
    skipAnimation: true,
    enableKeyboardNavigation: true,
  };
  return (
    <ChartsLocalizationProvider localeText={localeText}>
      <div role="figure" aria-label={label}>
        {plan.kind === 'line' ? (
          <LineChart
            {...common}
            xAxis={[{ scaleType: 'point' as const, data: plan.categories }]}
            series={series.map((one) => ({
              ...one,
              curve: 'linear' as const,
              connectNulls: false,
              showMark: plan.categories.length <= 40,
            }))}
          />
        ) : (
          <BarChart {...common} layout="vertical" />
        )}
      </div>
    </ChartsLocalizationProvider>
  );
}
