import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
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
