import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { median, ms, ratioResult, type BenchResult } from './measure.ts';
import { chromiumPath, CHROMIUM_ARGS, serve } from './list-render.ts';

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
  await build({
    configFile: false,
    root: path.join(here, 'network-map'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  const { server, url } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(url);
    await page.waitForFunction(() => 'benchMap' in window);
    const once = (kind: 'ours' | 'plain') =>
      page.evaluate((which) => (window as unknown as { benchMap(k: string): Promise<number> }).benchMap(which), kind);
    const first = { ours: await once('ours'), plain: await once('plain') };
    const times: Record<'ours' | 'plain', number[]> = { ours: [], plain: [] };
    for (let run = 0; run < runs; run += 1) {
      for (const kind of run % 2 ? (['plain', 'ours'] as const) : (['ours', 'plain'] as const)) {
        times[kind].push(await once(kind));
      }
    }
    if (failures.length) throw new Error(`the benchmark page failed: ${failures.join('; ')}`);
    return ratioResult(
      'Network map, 100,000 points (Chromium)',
      median(times.ours),
      median(times.plain),
      TARGET_RATIO,
      [
        'Ours: NetworkMap of 100,000 points: supercluster index built, the clusters of a 1200x800 view at zoom 6 placed and painted.',
        `Baseline: plain Leaflet, 2,400 circle markers on a canvas (the demo network), painted. Median of ${runs} runs each, alternated, after a first run each (ours ${ms(first.ours)}, baseline ${ms(first.plain)}).`,
      ],
    );
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
