// `npm test`: every check, in order, each printing its own summary; then the closing lines. The
// server suite runs twice: on PGlite with the unit tests, then on a throw-away PostgreSQL server.
import { readFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { nodeVersionProblem } from './node-engine.mjs';
import { removeOnExit, startPostgres } from './postgres-server.mjs';
import { journeyDataDir } from './journey-database.mjs';
import { lostFiles, mergedReport, onlyWorkerExits } from './vitest-lost-files.mjs';
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
const { DATABASE_URL: _callersServer, SERVER_SUITE_ON_POSTGRES: _callersChoice, ...pgliteEnv } = process.env;

const failedSteps = [];
const warnings = [];
const details = [];
/**
 * Runs a command, its output shown as it comes and kept (the end of it) to tell at the close why it failed.
 * `aside`: the step runs beside others, so its output is held and shown whole when it ends, under its name.
 */
async function run(name, command, args, env, { aside = false } = {}) {
  // A Ctrl-C during the previous step is handled here, between steps (removeOnExit ends the run).
  await new Promise((resolve) => setImmediate(resolve));
  console.log(aside ? `\n=== ${name}: started beside the next steps ===` : `\n=== ${name} ===`);
  const started = Date.now();
  // The last 2 MB or so of what it printed, in the chunks it came in.
  const chunks = [];
  let kept = 0;
  const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } });
  const keep = (stream, into) =>
    child[stream].on('data', (chunk) => {
      if (!aside) into.write(chunk);
      chunks.push(chunk);
      kept += chunk.length;
      while (kept > 2_000_000 && chunks.length > 1) kept -= chunks.shift().length;
    });
  keep('stdout', process.stdout);
  keep('stderr', process.stderr);
  const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(signal ? 1 : code)));
  const output = Buffer.concat(chunks).toString();
  if (aside) process.stdout.write(`\n=== ${name} (it ran beside the steps above) ===\n${output}`);
  console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  return { ok: status === 0, output };
}

function failed(name, output) {
  failedSteps.push(name);
  details.push(...failedStepLines(name, output));
  return false;
}

async function step(name, command, args, env = pgliteEnv) {
  const { ok, output } = await run(name, command, args, env);
  if (!ok) failed(name, output);
  return ok;
}

const vitest = 'node_modules/.bin/vitest';
const relative = (file) => path.relative(process.cwd(), file);

/**
 * A vitest step. When its only errors are workers that died (vitest 4.1's forks pool: "Worker exited unexpectedly",
 * the file the worker ran missing from the counts), the files the report does not hold in full run once more and
 * their second run is counted, said in a warning at the close. A failed test, another error or a second failure
 * fails the step as it is.
 */
async function vitestStep(name, report, more, env) {
  const first = await run(name, vitest, vitestArgs(report, ...more), env);
  if (first.ok) return true;
  const firstReport = readReport(report);
  if (!onlyWorkerExits(first.output, firstReport)) return failed(name, first.output);
  const listFile = `${report}.list.json`;
  rmSync(listFile, { force: true });
  const listed = await run(`${name}: the tests of each file`, vitest, ['list', ...more, `--json=${listFile}`], env);
  const list = readReport(listFile);
  if (!listed.ok || !list) return failed(name, first.output);
  const lost = lostFiles(list, firstReport).map(relative);
  if (lost.length > 20) return failed(name, first.output);
  if (lost.length) {
    const againFile = `${report}.again.json`;
    rmSync(againFile, { force: true });
    const again = await run(
      `${name}: again, the files a dead worker took`,
      vitest,
      vitestArgs(againFile, ...more, ...lost),
      env,
    );
    const againReport = readReport(againFile);
    if (!again.ok || !againReport) return failed(name, again.output);
    writeFileSync(
      report,
      JSON.stringify(
        mergedReport(
          firstReport,
          againReport,
          lost.map((file) => path.resolve(file)),
        ),
      ),
    );
  }
  warnings.push(
    `!!! ${name}: a vitest worker exited unexpectedly; ${lost.length ? `its files ran again and passed: ${lost.join(', ')}` : 'every test had reported before'}`,
  );
  return true;
}

// The journeys' build and demo database before the tests: the seed-validity test reads a copy of that database (it
// seeded the demo a second time itself), and the journeys then take both as they are. They run beside the static
// checks, each of which keeps one core busy where the seed keeps the other: on two cores, 305 s one after the
// other, about 200 s side by side (tsc, eslint and prettier 181 s; the seed 183 s).
const journeysStep = 'app build and demo database for the journeys';
const journeys = run(journeysStep, 'node', ['scripts/journey-database.mjs'], pgliteEnv, { aside: true });
await step('generated types', 'node', ['--import', 'tsx', 'scripts/gen-types.ts', '--check']);
await step('typecheck', 'node_modules/.bin/tsc', ['-p', 'tsconfig.json', '--noEmit']);
await step('lint', 'node_modules/.bin/eslint', ['.', '--max-warnings', '0']);
await step('format', 'node_modules/.bin/prettier', ['--check', '.', '--log-level', 'warn']);
const journeysPrepared = await journeys.then(({ ok, output }) => ok || failed(journeysStep, output));
// The PostgreSQL server first: with it, the PGlite run takes only the server files about the engine itself, and the
// PostgreSQL run every server file (`bothEngines` in vitest.config.ts); without it, every server file runs on PGlite.
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

await vitestStep('vitest (unit and server)', reports.vitest, [], {
  ...pgliteEnv,
  ...(journeysPrepared ? { DEMO_DATA_DIR: journeyDataDir } : {}),
  ...(server ? { SERVER_SUITE_ON_POSTGRES: '1' } : {}),
});

if (server) {
  await vitestStep('vitest on PostgreSQL (server)', reports.postgres, ['--project', 'server'], {
    ...pgliteEnv,
    DATABASE_URL: server.url,
  });
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
