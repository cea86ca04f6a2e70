import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Response } from 'playwright-core';
import { buildApp as buildGateway } from '../../server/app.ts';
import { migrate, openDb } from '../../server/db/adapter.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { DEMO_PASSWORD } from '../../server/seed/demo-network.ts';
import { seedDemo } from '../../server/seed/index.ts';
import { findChromium } from '../find-chromium.mjs';
import { bytes, gzipBytes } from './entry-size.ts';
import { builtApps } from './entry.ts';
import { ratioResult, type BenchResult } from './measure.ts';
import { followRequests } from './settled.ts';

export const TARGET_RATIO = 1.5;
const USER = 'operator';

export interface Fetched {
  file: string;
  gzipBytes: number;
  /** Bytes on the wire, as the gateway sent them (brotli). */
  wireBytes: number;
  afterSignIn: boolean;
}

/**
 * The JS a browser fetches for a signed-in operator's first list: a fresh browser opens
 * /service_points, is sent to the sign-in, signs in (password, then the emailed code) and lands on
 * the list; every script response from the first request until the list shows its rows and no
 * request but the live updates' stream has run for half a second (scripts/bench/settled.ts), each
 * body gzipped (zlib default level) and summed, as the baseline is. The app is the production build
 * served by the gateway (server/app.ts) on a seeded demo database.
 * Baseline: the whole JS of a bare react-admin app with one list (scripts/bench/bare-app), every
 * chunk, lazy ones too.
 */
export async function firstScreenBench(): Promise<BenchResult> {
  const { app: appBuild, bare, appDir } = await builtApps();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webtool-bench-screen-'));
  const db = await openDb({ dataDir });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    await migrate(db);
    const identity = createIdentity(db, { local: true, log: () => {} });
    await seedDemo(db, identity);
    const gateway = await buildGateway({ db, identity, distDir: appDir });
    const base = await gateway.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { fetched, shownMs } = await measureFirstScreen(browser, base);
      const sum = (list: Fetched[], key: 'gzipBytes' | 'wireBytes') => list.reduce((total, f) => total + f[key], 0);
      const ours = sum(fetched, 'gzipBytes');
      const bareTotal = bare.chunks.reduce((total, chunk) => total + (chunk.gzipBytes ?? 0), 0);
      const before = fetched.filter((f) => !f.afterSignIn);
      const after = fetched.filter((f) => f.afterSignIn).sort((a, b) => b.gzipBytes - a.gzipBytes);
      const lazyNotFetched = appBuild.chunks.length - fetched.length;
      return ratioResult(
        'Signed-in first list JS, gzipped',
        ours,
        bareTotal,
        TARGET_RATIO,
        [
          `Ours: Chromium opens /service-points, signs in as ${USER} (password and emailed code) and waits for the list's rows and a quiet network (no request but the live stream for 0.5 s) (${(shownMs / 1000).toFixed(1)} s); every script it fetched, each body gzipped and summed.`,
          `  ${fetched.length} files: ${before.length} before the sign-in (${bytes(sum(before, 'gzipBytes'))}), ${after.length} after it (${bytes(sum(after, 'gzipBytes'))}); on the wire (brotli from the gateway) ${bytes(sum(fetched, 'wireBytes'))} in all.`,
          `  After the sign-in, biggest: ${after
            .slice(0, 6)
            .map((f) => `${path.basename(f.file)} ${bytes(f.gzipBytes)}`)
            .join(', ')}.`,
          `  ${lazyNotFetched} of the build's ${appBuild.chunks.length} JS chunks were not fetched.`,
          `Baseline: the whole JS of the bare react-admin app (scripts/bench/bare-app, one list), all ${bare.chunks.length} chunk(s), each gzipped, summed.`,
        ],
        bytes,
      );
    } finally {
      await gateway.close();
    }
  } finally {
    await browser.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Signs in as the operator from /service_points in a fresh context of `browser`; the scripts fetched. */
export async function measureFirstScreen(
  browser: Browser,
  base: string,
): Promise<{ fetched: Fetched[]; shownMs: number }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { settled } = followRequests(page);
  let signedIn = false;
  const pending: Promise<Fetched | undefined>[] = [];
  const record = async (response: Response): Promise<Fetched | undefined> => {
    const request = response.request();
    const url = new URL(response.url());
    if (request.resourceType() !== 'script' && !url.pathname.endsWith('.js')) return undefined;
    if (url.origin !== new URL(base).origin) return undefined;
    const afterSignIn = signedIn;
    const body = await response.body();
    const sizes = await request.sizes();
    return { file: url.pathname, gzipBytes: gzipBytes(body), wireBytes: sizes.responseBodySize, afterSignIn };
  };
  page.on('response', (response) => pending.push(record(response)));

  const started = performance.now();
  await page.goto('/service-points');
  await page.waitForURL(/\/login/);
  const email = `${USER}@demo.locker.test`;
  await page.getByLabel(/Username or email/).fill(USER);
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  const codes = async () => {
    const outbox = (await (await page.request.get('/__dev/outbox')).json()) as { to: string; code?: string }[];
    return outbox.filter((mail) => mail.to === email && mail.code).map((mail) => mail.code!);
  };
  const seen = (await codes()).length;
  signedIn = true;
  await page.getByRole('button', { name: /^Sign in$/ }).click();
  const code = await waitFor(async () => (await codes())[seen]);
  await page.getByLabel(/Validation code/).fill(code);
  await page.getByRole('button', { name: /Verify/ }).click();
  await page.waitForURL(/\/service-points/);
  await page
    .locator('table tbody tr')
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(async (error: unknown) => {
      await page.screenshot({ path: '.tmp/first-screen-failed.png' });
      throw error;
    });
  // No request but the live stream for half a second (its Server-Sent Events never end: no network idle).
  await settled();
  const shownMs = performance.now() - started;
  const fetched = (await Promise.all(pending)).filter((entry): entry is Fetched => entry !== undefined);
  await context.close();

  return { fetched, shownMs };
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting for the emailed code');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
