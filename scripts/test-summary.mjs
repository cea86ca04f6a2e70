// The closing lines of `npm test`, from the JSON reports of vitest and Playwright.

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

export const postgresUnavailableLine = (reason) =>
  `!!! PostgreSQL unavailable: ${reason}; server suite ran on PGlite only`;

/**
 * `runs`: the test runs in order, each `{ name, counts }`, or `{ name, notRun }` saying why it did
 * not run. `failedSteps`: names of the steps that failed. A failed step with no failed test (lint,
 * a crash before any test) still counts as one failure, so the total never reads as a pass.
 */
export function closingLines({ runs, failedSteps = [], warnings = [] }) {
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
  lines.push(...warnings);
  if (failedSteps.length) lines.push(`Failed steps: ${failedSteps.join(', ')}`);
  lines.push(`tests: ${sum('passed')} passed, ${failedTests || failedSteps.length} failed, ${sum('skipped')} skipped`);
  return lines;
}
