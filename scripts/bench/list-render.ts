import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, ms, ratioResult, type BenchResult } from './measure.ts';
import type { BenchList, BenchWindow, RenderKind } from './list-render/protocol.ts';
import { firstThenAlternated, withBenchPage } from './page.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const outDir = path.join(root, '.tmp/bench-list');
const TARGET_RATIO = 2;

const titles: Record<BenchList, string> = {
  'service-points': 'service points',
  'location-owners': 'location owners (a partner list)',
};

/**
 * First render of a list at its largest page size in Chromium: the engine's SchemaList (service
 * points at 500 rows, or location owners at 300, the default visible columns, inside react-admin's
 * AdminContext with an in-memory dataProvider) against a plain MUI Table of the same rows and columns.
 * Each run mounts into a new element and stops the clock once the last body row exists and a frame
 * has been painted.
 */
export async function listRenderBench(list: BenchList = 'service-points', runs = 9): Promise<BenchResult> {
  const bench = { root: path.join(here, 'list-render'), outDir, viewport: { width: 1600, height: 900 } };
  return withBenchPage({ ...bench, search: `?list=${list}`, ready: 'benchRender' }, async (page) => {
    const renderOnce = (kind: RenderKind) =>
      page.evaluate((which) => (window as unknown as BenchWindow).benchRender(which), kind);
    const columns = await page.evaluate(() => (window as unknown as BenchWindow).benchColumns);
    const rows = await page.evaluate(() => (window as unknown as BenchWindow).benchRows);

    const { first, times } = await firstThenAlternated(runs, (which) =>
      renderOnce(which === 'ours' ? 'engine' : 'plain'),
    );
    const ours = median(times.ours);
    const baseline = median(times.baseline);
    const name =
      list === 'service-points'
        ? 'First render, 500-row list (Chromium)'
        : `First render, ${rows}-row ${list} list (Chromium)`;
    return ratioResult(name, ours, baseline, TARGET_RATIO, [
      `Ours: SchemaList of ${titles[list]} (${columns} visible columns, toolbar, filters) in AdminContext, in-memory dataProvider, perPage ${rows}; mount to the ${rows}th row painted.`,
      `Baseline: plain MUI Table of the same ${rows} rows and ${columns} columns (text cells). Median of ${runs} runs each, alternated, after a first run each (engine ${ms(first.ours)}, table ${ms(first.baseline)}).`,
    ]);
  });
}
