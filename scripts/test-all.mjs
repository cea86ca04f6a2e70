// `npm test`: every check, in order, each printing its own summary; then the closing lines. The
// server suite runs twice: on PGlite with the unit tests, then on a throw-away PostgreSQL server.
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { nodeVersionProblem } from './node-engine.mjs';
import { removeOnExit, startPostgres } from './postgres-server.mjs';
import { journeyDataDir } from './journey-database.mjs';
import {
  closingLines,
  failedStepLines,
  playwrightCounts,
  playwrightFileTimes,
  postgresUnavailableLine,
  slowestFilesLines,
  vitestBrokenFiles,
  vitestCounts,
  vitestFileTimes,
} from './test-summary.mjs';

const tooOld = nodeVersionProblem(process.versions.node, JSON.parse(readFileSync('package.json', 'utf8')).engines.node);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

mkdirSync('.tmp', { recursive: true });
const reports = {
  vitest: '.tmp/vitest-results.json',
  postgres: '.tmp/vitest-postgres-results.json',
  playwright: '.tmp/playwright-results.json',
};
// A report left by an earlier run must not be counted as this run's.
for (const file of Object.values(reports)) rmSync(file, { force: true });

const vitestArgs = (report, ...more) => [
  'run',
  ...more,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
];
// The PGlite run is PGlite's even when the caller's shell names a server.
const { DATABASE_URL: _callersServer, ...pgliteEnv } = process.env;

const failedSteps = [];
const warnings = [];
const details = [];
/** Runs a step, its output shown as it comes and kept (the end of it) to tell at the close why it failed. */
async function step(name, command, args, env = pgliteEnv) {
  // A Ctrl-C during the previous step is handled here, between steps (removeOnExit ends the run).
  await new Promise((resolve) => setImmediate(resolve));
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  let output = '';
  const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } });
  const keep = (stream, into) =>
    child[stream].on('data', (chunk) => {
      into.write(chunk);
      output = (output + chunk.toString()).slice(-2_000_000);
    });
  keep('stdout', process.stdout);
  keep('stderr', process.stderr);
  const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(signal ? 1 : code)));
  console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (status !== 0) {
    failedSteps.push(name);
    details.push(...failedStepLines(name, output));
  }
  return status === 0;
}

await step('generated types', 'node', ['--import', 'tsx', 'scripts/gen-types.ts', '--check']);
await step('typecheck', 'node_modules/.bin/tsc', ['-p', 'tsconfig.json', '--noEmit']);
await step('lint', 'node_modules/.bin/eslint', ['.', '--max-warnings', '0']);
await step('format', 'node_modules/.bin/prettier', ['--check', '.', '--log-level', 'warn']);
// The journeys' build and demo database first: the seed-validity test reads a copy of that database (it seeded
// the demo a second time itself), and the journeys then take both as they are.
const journeysPrepared = await step('app build and demo database for the journeys', 'node', [
  'scripts/journey-database.mjs',
]);
await step('vitest (unit and server)', 'node_modules/.bin/vitest', vitestArgs(reports.vitest), {
  ...pgliteEnv,
  ...(journeysPrepared ? { DEMO_DATA_DIR: journeyDataDir } : {}),
});

console.log('\n=== PostgreSQL server for the server suite ===');
let postgresNotRun;
let server;
try {
  server = await startPostgres();
  removeOnExit(server);
  console.log(`Throw-away PostgreSQL server at ${server.url} (data in ${server.folder})`);
} catch (error) {
  postgresNotRun = 'PostgreSQL unavailable';
  warnings.push(postgresUnavailableLine(error.message));
  console.log(warnings.at(-1));
}
if (server) {
  await step(
    'vitest on PostgreSQL (server)',
    'node_modules/.bin/vitest',
    vitestArgs(reports.postgres, '--project', 'server'),
    { ...pgliteEnv, DATABASE_URL: server.url },
  );
  server.remove();
}

await step('playwright (end to end)', 'node', ['scripts/e2e.mjs'], {
  ...process.env,
  E2E_PREPARED: journeysPrepared ? '1' : '0',
});

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
const slowest = slowestFilesLines([
  { name: 'vitest', files: vitestFileTimes(readReport(reports.vitest)) },
  { name: 'vitest on PostgreSQL', files: vitestFileTimes(readReport(reports.postgres)) },
  { name: 'playwright', files: playwrightFileTimes(readReport(reports.playwright)) },
]);
if (slowest.length) console.log(`\n${slowest.join('\n')}`);
const lines = closingLines({
  runs: [
    { name: 'vitest', counts: vitestCounts(readReport(reports.vitest)) },
    postgresNotRun
      ? { name: 'vitest on PostgreSQL', notRun: postgresNotRun }
      : { name: 'vitest on PostgreSQL', counts: vitestCounts(readReport(reports.postgres)) },
    { name: 'playwright', counts: playwrightCounts(readReport(reports.playwright)) },
  ],
  failedSteps,
  warnings,
  details: [
    ...[reports.vitest, reports.postgres].flatMap((file) =>
      vitestBrokenFiles(readReport(file)).map(
        ({ file: name, message }) => `FILE FAILED with no failed test: ${name}: ${message}`,
      ),
    ),
    ...details,
  ],
});
console.log(`\n${lines.join('\n')}`);
process.exit(failedSteps.length ? 1 : 0);
