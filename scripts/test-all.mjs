// `npm test`: every check, in order, each printing its own summary; then one closing line.
import { readFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { nodeVersionProblem } from './node-engine.mjs';

const tooOld = nodeVersionProblem(process.versions.node, JSON.parse(readFileSync('package.json', 'utf8')).engines.node);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

mkdirSync('.tmp', { recursive: true });
const steps = [
  ['generated types', 'node', ['--import', 'tsx', 'scripts/gen-types.ts', '--check']],
  ['typecheck', 'node_modules/.bin/tsc', ['-p', 'tsconfig.json', '--noEmit']],
  ['lint', 'node_modules/.bin/eslint', ['.', '--max-warnings', '0']],
  ['format', 'node_modules/.bin/prettier', ['--check', '.', '--log-level', 'warn']],
  [
    'vitest (unit and server)',
    'node_modules/.bin/vitest',
    ['run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest-results.json'],
  ],
  ['playwright (end to end)', 'node', ['scripts/e2e.mjs']],
];

const failed = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const status = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } }).status;
  console.log(`=== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (status !== 0) failed.push(name);
}

/** Journeys that failed once and passed on their retry, as "file › title". */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((test) => test.status === 'flaky'))
      .map((spec) => `${spec.file} › ${spec.title}`),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

function counts(file, read) {
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 0, skipped: 0, flaky: [] };
  }
}
const vitest = counts('.tmp/vitest-results.json', (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests,
  skipped: r.numPendingTests + r.numTodoTests,
}));
const playwright = counts('.tmp/playwright-results.json', (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
  skipped: r.stats.skipped,
  flaky: flakyTitles(r.suites ?? []),
}));
const passed = vitest.passed + playwright.passed;
const failedTests =
  vitest.failed + playwright.failed + (failed.length && !(vitest.failed + playwright.failed) ? failed.length : 0);
const flaky = playwright.flaky ?? [];
console.log(
  `\nvitest: ${vitest.passed} passed, ${vitest.failed} failed; playwright: ${playwright.passed} passed, ${playwright.failed} failed, ${flaky.length} flaky`,
);
for (const title of flaky) console.log(`FLAKY (failed once, passed on retry; mend it): ${title}`);
if (failed.length) console.log(`Failed steps: ${failed.join(', ')}`);
console.log(`tests: ${passed} passed, ${failedTests} failed, ${vitest.skipped + playwright.skipped} skipped`);
process.exit(failed.length ? 1 : 0);
