import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Server tests named `*.pg-only.test.ts` need a PostgreSQL server (several processes on one
 * database, outages): they run only when DATABASE_URL names one, as in the test command's
 * PostgreSQL run (see scripts/test-all.mjs). Files named `*.pglite-only.test.ts` check data, not the
 * database engine (the demo seed's records against their schemas): they run in the PGlite run only,
 * not a second time on PostgreSQL.
 */
const postgresOnly = 'tests/server/**/*.pg-only.test.ts';
const pgliteOnly = 'tests/server/**/*.pglite-only.test.ts';
const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * The server files that run on both engines when the test command also runs the server suite on PostgreSQL, the
 * engine of production (`SERVER_SUITE_ON_POSTGRES=1`, set by scripts/test-all.mjs once its server is up): the
 * gateway's rules are the same SQL on either, and are checked there; on PGlite run the files about what the engine
 * or the local process does itself: its change feed and what each process keeps from it, background jobs on one
 * connection, the triggers and migrations that keep rollups, sort keys and search tables, the planner without
 * autovacuum, the file-backed database across a restart, an outage, the seeds, the identity stand-in that
 * `npm start` signs in against, and a write with its audit row. The journeys run the whole app on PGlite.
 * Without PostgreSQL, or when vitest is run by hand, every server file runs on PGlite. A new file about the engine
 * belongs here.
 */
const bothEngines = [
  'background-jobs',
  'dashboard-rollups',
  'database-unavailable',
  'gateway',
  'history',
  'identity-contract',
  'kept-counts',
  'kept-roles',
  'list-performance',
  'live-stream',
  'piece-token-codes',
  'search',
  'storage',
  'test-seed',
  'workers-setting',
  'write-pipeline',
].map((name) => `tests/server/${name}.test.ts`);
const misnamed = bothEngines.filter((file) => !existsSync(file));
if (misnamed.length) throw new Error(`vitest.config.ts, bothEngines: no such file ${misnamed.join(', ')}`);
const restOnPostgres = process.env.SERVER_SUITE_ON_POSTGRES === '1' && !onPostgres;

/**
 * Unit files share their worker's modules (no isolation): each file's imports then cost once per worker, not
 * once per file (the unit run took about half the time). These files need modules of their own: they replace
 * modules (vi.mock), or check module state as a fresh page has it (French not loaded yet, names not read yet).
 * A new file that does either belongs here.
 */
const isolatedUnitFiles = [
  'tests/unit/auth-provider-leaving.test.ts',
  'tests/unit/auth-provider-session-check.test.ts',
  'tests/unit/gateway-job.test.tsx',
  'tests/unit/i18n-provider.test.ts',
  'tests/unit/lazy-page.test.tsx',
  'tests/unit/login-page.test.tsx',
  'tests/unit/record-names.test.tsx',
  'tests/unit/schema/standalone.test.ts',
  'tests/unit/service-point-address.test.tsx',
  'tests/unit/session-keeper.test.tsx',
  'tests/unit/session-rules.test.ts',
  'tests/unit/sso.test.ts',
  'tests/unit/test-command.test.ts',
];
/** Unit files of logic (`.ts`) that still need a browser's globals: the CSV reader's FileReader, localStorage, window. */
const domUnitFiles = [
  'tests/unit/bulk-import.test.ts',
  'tests/unit/contract.test.ts',
  'tests/unit/print-cache.test.ts',
  'tests/unit/schema/escape-html.test.ts',
  'tests/unit/service-point-import.test.ts',
  'tests/unit/svg-upload.test.ts',
  'tests/unit/ticket-import.test.ts',
];
const unlisted = [...isolatedUnitFiles, ...domUnitFiles].filter((file) => !existsSync(file));
if (unlisted.length) throw new Error(`vitest.config.ts, unit file lists: no such file ${unlisted.join(', ')}`);
const unitTest = {
  environment: 'jsdom',
  setupFiles: ['tests/unit/setup.ts'],
  // A page rendered in jsdom takes a second idle and ten on a busy machine (2 cores shared by
  // several runs): vitest's default 5 s failed such tests there. Slow files stay visible in
  // the ten slowest files that npm test prints at its end.
  testTimeout: 20_000,
};

export default defineConfig({
  plugins: [react()],
  test: {
    // One test file per core: vitest's default leaves one core to its own main process, which
    // mostly waits, so on a 2-core machine the files would run one at a time.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          ...unitTest,
          name: 'unit',
          include: ['tests/unit/**/*.test.tsx', ...domUnitFiles],
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles],
          isolate: false,
        },
      },
      {
        // The other `.ts` files test logic (validators, vocabulary, access, the test command): they run in Node,
        // without a DOM built for each file (jsdom's set-up was about 1 s a file, 87 s of the unit run). A project
        // of their own: files of two environments in one project that shares modules broke each other. A `.ts`
        // file that needs a browser's globals goes into `domUnitFiles`.
        extends: true,
        test: {
          ...unitTest,
          environment: 'node',
          name: 'unit-node',
          include: ['tests/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...isolatedUnitFiles, ...domUnitFiles],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { ...unitTest, name: 'unit-isolated', include: isolatedUnitFiles },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: restOnPostgres ? [...bothEngines, pgliteOnly] : ['tests/server/**/*.test.ts'],
          // The seeded demo database, built once per run and copied by each file (README, Testing).
          globalSetup: ['tests/server/support/global-setup.ts'],
          exclude: [...configDefaults.exclude, onPostgres ? pgliteOnly : postgresOnly],
          testTimeout: 30_000,
          // A file's beforeAll loads its copy of the seeded database and starts a gateway: seconds
          // idle, more than a minute on a busy machine.
          hookTimeout: 120_000,
          pool: 'forks',
          // A file's worker keeps the modules earlier files imported (the gateway, the schemas): importing
          // them again per file cost more than the tests themselves (server run 580 s isolated, 371 s
          // shared, PGlite, same machine). No server file replaces modules, moves timers or changes the
          // process's environment; each starts its own gateway on its own database copy, and closes it.
          isolate: false,
        },
      },
    ],
  },
});
