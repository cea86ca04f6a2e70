// A vitest worker (a forked process) that dies takes the results of the file it ran with it: vitest 4.1's forks
// pool then reports "Worker exited unexpectedly" and fails the run, its counts short of that file's tests. The
// test command runs those files again, once, and counts their second run; anything else that failed still fails.

/** Lines of vitest's output that name a worker's death, one per death. */
const WORKER_EXIT = /Worker exited unexpectedly/g;

/** The text of output that may hold terminal colour codes (vitest colours its output even when not asked to). */
// eslint-disable-next-line no-control-regex
export const withoutColours = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

export const unfinished = (test) => test.status === 'pending';

/**
 * True when the only errors vitest reported are workers that died: no failed test, and as many errors on its
 * "Errors" line as worker deaths (an unhandled rejection of the code under test is an error of its own).
 */
export function onlyWorkerExits(printed, report) {
  if (!report || report.numFailedTests !== 0) return false;
  const output = withoutColours(printed);
  const deaths = output.match(WORKER_EXIT)?.length ?? 0;
  const errors = Number(/^\s*Errors\s+(\d+) errors?\b/m.exec(output)?.[1] ?? 0);
  return deaths > 0 && errors <= deaths;
}

/**
 * The files whose tests the report does not all hold, from the entries of `vitest list --json` (one per test,
 * `{ file }`): a file missing from the report, holding fewer results than it has tests, or tests that never
 * finished (status "pending": vitest's JSON report says "skipped" for a skipped test).
 */
export function lostFiles(listed, report) {
  const expected = new Map();
  for (const { file } of listed) expected.set(file, (expected.get(file) ?? 0) + 1);
  const results = new Map((report.testResults ?? []).map((file) => [file.name, file]));
  return [...expected]
    .filter(([file, count]) => {
      const result = results.get(file);
      const tests = result?.assertionResults ?? [];
      return !result || result.status === 'failed' || tests.length < count || tests.some(unfinished);
    })
    .map(([file]) => file);
}

/** The report with the lost files' results taken from their second run, and its counts counted again. */
export function mergedReport(report, again, files) {
  const lost = new Set(files);
  const testResults = [
    ...(report.testResults ?? []).filter((file) => !lost.has(file.name)),
    ...(again.testResults ?? []).filter((file) => lost.has(file.name)),
  ];
  const tests = testResults.flatMap((file) => file.assertionResults ?? []);
  const count = (...statuses) => tests.filter((test) => statuses.includes(test.status)).length;
  return {
    ...report,
    testResults,
    numTotalTests: tests.length,
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('pending', 'skipped'),
    numTodoTests: count('todo'),
    numFailedTestSuites: again.numFailedTestSuites ?? 0,
    success: Boolean(again.success),
  };
}
