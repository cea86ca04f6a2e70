import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import playwrightConfig from '../../playwright.config.ts';

/**
 * What the in-browser benchmarks share (scripts/bench/list-render.ts, map.ts): a bench page built with
 * Vite, served on a loopback port, opened in Chromium; runs of ours and a baseline alternated.
 */

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

export interface BenchPage {
  /** The bench page's folder (its index.html), built with Vite into `outDir`. */
  root: string;
  outDir: string;
  viewport: { width: number; height: number };
  /** Added to the page's address (e.g. `?list=service-points`). */
  search?: string;
  /** The `window` property the page sets once it is ready to be measured. */
  ready: string;
}

/**
 * Builds the bench page, serves it, opens it in Chromium and waits until it is ready; `work` measures on
 * it. An error thrown on the page fails the benchmark; the browser and the server are closed after.
 */
export async function withBenchPage<T>(bench: BenchPage, work: (page: Page) => Promise<T>): Promise<T> {
  await build({
    configFile: false,
    root: bench.root,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: bench.outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  const { server, url } = await serve(bench.outDir);
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: bench.viewport });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${url}${bench.search ?? ''}`);
    await page.waitForFunction((name) => name in window, bench.ready);
    const result = await work(page);
    if (failures.length) throw new Error(`the benchmark page failed: ${failures.join('; ')}`);
    return result;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * One run of `ours` then one of `baseline` (the first, apart), then `runs` of each alternated, the
 * one going first swapped every run so that neither gains by it.
 */
export async function firstThenAlternated(
  runs: number,
  once: (which: 'ours' | 'baseline') => Promise<number>,
): Promise<{ first: { ours: number; baseline: number }; times: { ours: number[]; baseline: number[] } }> {
  const first = { ours: await once('ours'), baseline: await once('baseline') };
  const times = { ours: [] as number[], baseline: [] as number[] };
  for (let run = 0; run < runs; run += 1) {
    for (const which of run % 2 ? (['baseline', 'ours'] as const) : (['ours', 'baseline'] as const)) {
      times[which].push(await once(which));
    }
  }
  return { first, times };
}
