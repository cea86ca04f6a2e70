// The closing lines of `npm test`, from the JSON reports of vitest and Playwright.
import { withoutColours } from './vitest-lost-files.mjs';

const none = { passed: 0, failed: 0, skipped: 0, flaky: [] };

/** Journeys that failed once and passed on their retry, as "file › title". */
function flakyTitles(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((test) => test.status === 'flaky'))
      .map((spec) => `${spec.file} › ${spec.title}`),
    ...flakyTitles(suite.suites ?? []),
  ]);
}

/** Counts of a vitest JSON report; none when the run left no report (it crashed or did not run). */
export function vitestCounts(report) {
  if (!report) return none;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
    flaky: [],
  };
}

export function playwrightCounts(report) {
  if (!report) return none;
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
    skipped: report.stats.skipped,
    flaky: flakyTitles(report.suites ?? []),
  };
}

/** Seconds per test file of a vitest JSON report: from the file's start to its end, path from `root`. */
export function vitestFileTimes(report, root = process.cwd()) {
  if (!report) return [];
  return (report.testResults ?? []).map((file) => {
    const ms =
      typeof file.startTime === 'number' && typeof file.endTime === 'number'
        ? file.endTime - file.startTime
        : (file.assertionResults ?? []).reduce((total, test) => total + (test.duration ?? 0), 0);
    const name = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
    return { file: name, seconds: ms / 1000 };
  });
}

/** Seconds per test file of a Playwright JSON report: every run of its journeys, retries included. */
export function playwrightFileTimes(report) {
  if (!report) return [];
  const byFile = new Map();
  const walk = (suites) => {
    for (const suite of suites) {
      for (const spec of suite.specs ?? []) {
        const ms = spec.tests
          .flatMap((test) => test.results ?? [])
          .reduce((total, result) => total + (result.duration ?? 0), 0);
        const file = `tests/e2e/${spec.file}`;
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
      }
      walk(suite.suites ?? []);
    }
  };
  walk(report.suites ?? []);
  return [...byFile].map(([file, ms]) => ({ file, seconds: ms / 1000 }));
}

/**
 * The `count` slowest test files of the runs (`{ name, files }`, files from vitestFileTimes or
 * playwrightFileTimes), slowest first, each with its run: where the test command's time goes.
 */
export function slowestFilesLines(runs, count = 10) {
  const all = runs.flatMap(({ name, files }) => files.map((entry) => ({ ...entry, run: name })));
  if (!all.length) return [];
  const slowest = all.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file)).slice(0, count);
  const width = Math.max(...slowest.map((entry) => entry.seconds.toFixed(1).length));
  return [
    `The ${slowest.length} slowest test files:`,
    ...slowest.map((entry) => `  ${entry.seconds.toFixed(1).padStart(width)} s  ${entry.file} (${entry.run})`),
  ];
}

/**
 * Files of a vitest JSON report that failed with no failed test (a file that did not load, a hook that threw) or
 * whose tests never finished (status "pending": the worker running them died). Their tests are missing from the
 * counts, so the closing lines name them.
 */
export function vitestBrokenFiles(report, root = process.cwd()) {
  if (!report) return [];
  return (report.testResults ?? [])
    .map((file) => {
      const tests = file.assertionResults ?? [];
      const unfinished = tests.filter((test) => test.status === 'pending').length;
      const broken = file.status === 'failed' && !tests.some((test) => test.status === 'failed');
      if (!broken && !unfinished) return undefined;
      const message = (file.message ?? '').split('\n').find((line) => line.trim());
      return {
        file: file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name,
        message: message ?? `${unfinished} of its ${tests.length} tests never finished (its worker died?)`,
      };
    })
    .filter(Boolean);
}

/** Lines that say why a run failed although no test did: vitest's error headers, crashed workers, broken files. */
const telling =
  /Unhandled|exited unexpectedly|Worker|FAIL |Error:|Errors? +\d|Test Files|Tests +\d|heap|Killed|SIG[A-Z]+/;

/**
 * What a failed step printed that tells why (`output`: all it printed): its telling lines (the first `most`) and its
 * last lines. The CI log keeps only the end of the run, so the closing lines repeat them.
 */
export function failedStepLines(name, output, most = 25, last = 12) {
  const lines = withoutColours(output)
    .split('\n')
    .map((line) => line.trimEnd());
  const tellingLines = lines.filter((line) => telling.test(line)).slice(0, most);
  const lastLines = lines.filter((line) => line.trim()).slice(-last);
  return [
    `--- ${name} failed; what it printed that tells why:`,
    ...tellingLines.map((line) => `  ${line.slice(0, 300)}`),
    `--- its last lines:`,
    ...lastLines.map((line) => `  ${line.slice(0, 300)}`),
  ];
}

export const postgresUnavailableLine = (reason) =>
  `!!! PostgreSQL unavailable: ${reason}; server suite ran on PGlite only`;

/**
 * `runs`: the test runs in order, each `{ name, counts }`, or `{ name, notRun }` saying why it did
 * not run. `failedSteps`: names of the steps that failed. A failed step with no failed test (lint,
 * a crash before any test) still counts as one failure, so the total never reads as a pass. `details`: lines
 * that say why a step failed (failedStepLines, vitestBrokenFiles), printed before the totals.
 */
export function closingLines({ runs, failedSteps = [], warnings = [], details = [] }) {
  const describe = ({ name, counts, notRun }) => {
    if (notRun) return `${name}: not run (${notRun})`;
    const flaky = name === 'playwright' ? `, ${counts.flaky.length} flaky` : '';
    return `${name}: ${counts.passed} passed, ${counts.failed} failed${flaky}`;
  };
  const counted = runs.filter((run) => run.counts).map((run) => run.counts);
  const sum = (key) => counted.reduce((total, counts) => total + counts[key], 0);
  const failedTests = sum('failed');
  const lines = [runs.map(describe).join('; ')];
  for (const counts of counted) {
    for (const title of counts.flaky) lines.push(`FLAKY (failed once, passed on retry; mend it): ${title}`);
  }
  lines.push(...warnings, ...details);
  if (failedSteps.length) lines.push(`Failed steps: ${failedSteps.join(', ')}`);
  lines.push(`tests: ${sum('passed')} passed, ${failedTests || failedSteps.length} failed, ${sum('skipped')} skipped`);
  return lines;
}
