import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { median, ms, ratioResult, type BenchResult } from './measure.ts';
import type { BenchList, BenchWindow, RenderKind } from './list-render/protocol.ts';
import playwrightConfig from '../../playwright.config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const outDir = path.join(root, '.tmp/bench-list');
const TARGET_RATIO = 2;
/** The same Chromium, with the same flags, as the end-to-end tests. */
export const CHROMIUM_ARGS = playwrightConfig.use?.launchOptions?.args ?? [];

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

/** Module scripts do not load from file:// URLs, so the built page is served on a loopback port. */
export function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = path.join(dir, name === '/' ? 'index.html' : name);
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    }),
  );
}

export async function chromiumPath(): Promise<string> {
  const finder = (await import(new URL('../find-chromium.mjs', import.meta.url).href)) as { findChromium(): string };
  return finder.findChromium();
}

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
  await build({
    configFile: false,
    root: path.join(here, 'list-render'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  const { server, url } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${url}?list=${list}`);
    await page.waitForFunction(() => 'benchRender' in window);
    const renderOnce = (kind: RenderKind) =>
      page.evaluate((which) => (window as unknown as BenchWindow).benchRender(which), kind);
    const columns = await page.evaluate(() => (window as unknown as BenchWindow).benchColumns);
    const rows = await page.evaluate(() => (window as unknown as BenchWindow).benchRows);

    const firstEngine = await renderOnce('engine');
    const firstPlain = await renderOnce('plain');
    const times: Record<RenderKind, number[]> = { engine: [], plain: [] };
    for (let run = 0; run < runs; run += 1) {
      for (const kind of run % 2 ? (['plain', 'engine'] as const) : (['engine', 'plain'] as const)) {
        times[kind].push(await renderOnce(kind));
      }
    }
    if (failures.length) throw new Error(`the benchmark page failed: ${failures.join('; ')}`);
    const ours = median(times.engine);
    const baseline = median(times.plain);
    const name =
      list === 'service-points'
        ? 'First render, 500-row list (Chromium)'
        : `First render, ${rows}-row ${list} list (Chromium)`;
    return ratioResult(name, ours, baseline, TARGET_RATIO, [
      `Ours: SchemaList of ${titles[list]} (${columns} visible columns, toolbar, filters) in AdminContext, in-memory dataProvider, perPage ${rows}; mount to the ${rows}th row painted.`,
      `Baseline: plain MUI Table of the same ${rows} rows and ${columns} columns (text cells). Median of ${runs} runs each, alternated, after a first run each (engine ${ms(firstEngine)}, table ${ms(firstPlain)}).`,
    ]);
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
