import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

/**
 * Journeys that change what every other journey relies on, or that watch the whole network: they run after the
 * others, one at a time. Sign-in locks users out, signs them out everywhere and blocks their codes; the shell changes
 * the analyst's password; single sign-on signs users in and out; the live and concurrency journeys wait for the
 * notices of one edit, which another journey's edits would add to; the webhooks journey counts every delivery; the
 * 50-ticket quick action changes the newest open tickets that the ticket journeys edit one at a time (their saves
 * were refused as changed by someone else). A new journey that does such a thing belongs here.
 */
const aloneFiles = [
  'concurrency.spec.ts',
  'live.spec.ts',
  'shell.spec.ts',
  'sign-in.spec.ts',
  'sso.spec.ts',
  'ticket-bulk.spec.ts',
  'webhooks.spec.ts',
].map((file) => `**/${file}`);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // The other journeys run two files at a time, each with its own signed-in pages and its own records (a run took
  // about 22 minutes instead of 30 on 2 cores); sign-ins through the form take turns (tests/e2e/support.ts).
  workers: 2,
  projects: [
    { name: 'side by side', testIgnore: aloneFiles },
    { name: 'alone', testMatch: aloneFiles, dependencies: ['side by side'], workers: 1 },
  ],
  // One retry: a journey that fails once and then passes is reported as flaky by name (see
  // scripts/test-all.mjs), so it is seen and mended, without one slow moment failing the run.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tmp/playwright-results.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'en-US',
    // Traces are recorded on the retry only: recording every journey's every step costs CPU, and a
    // journey that fails is run again with the trace on (retries: 1), so a failure still has one.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    // The database is seeded before (scripts/e2e.mjs); the start itself readies the lists, which a
    // busy machine can slow to minutes.
    timeout: 300_000,
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEBTOOL_LOCAL: 'true' },
  },
});
