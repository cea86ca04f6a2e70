import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, ms, ratioResult, type BenchResult } from './measure.ts';
import { firstThenAlternated, withBenchPage } from './page.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const outDir = path.join(root, '.tmp/bench-map');
const TARGET_RATIO = 3;

/**
 * The network map (issue 31.3) in Chromium: the page's NetworkMap over 100,000 points (supercluster
 * index built, the view's clusters placed and painted) against plain Leaflet circle markers for the
 * demo's 2,400 points on a canvas, measured in the same run.
 */
export async function mapBench(runs = 5): Promise<BenchResult> {
  const bench = { root: path.join(here, 'network-map'), outDir, viewport: { width: 1300, height: 900 } };
  return withBenchPage({ ...bench, ready: 'benchMap' }, async (page) => {
    const once = (kind: 'ours' | 'plain') =>
      page.evaluate((which) => (window as unknown as { benchMap(k: string): Promise<number> }).benchMap(which), kind);
    const { first, times } = await firstThenAlternated(runs, (which) => once(which === 'ours' ? 'ours' : 'plain'));
    return ratioResult(
      'Network map, 100,000 points (Chromium)',
      median(times.ours),
      median(times.baseline),
      TARGET_RATIO,
      [
        'Ours: NetworkMap of 100,000 points: supercluster index built, the clusters of a 1200x800 view at zoom 6 placed and painted.',
        `Baseline: plain Leaflet, 2,400 circle markers on a canvas (the demo network), painted. Median of ${runs} runs each, alternated, after a first run each (ours ${ms(first.ours)}, baseline ${ms(first.baseline)}).`,
      ],
    );
  });
}
