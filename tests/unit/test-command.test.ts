import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findPostgres } from '../../scripts/postgres-server.mjs';
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
} from '../../scripts/test-summary.mjs';
import { lostFiles, mergedReport, onlyWorkerExits } from '../../scripts/vitest-lost-files.mjs';

const vitestReport = (passed: number, failed: number, pending = 0) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: pending,
  numTodoTests: 0,
});
const playwrightReport = {
  stats: { expected: 4, flaky: 1, unexpected: 0, skipped: 2 },
  suites: [
    {
      suites: [
        {
          specs: [
            { file: 'sign-in.spec.ts', title: 'signs in', tests: [{ status: 'flaky' }] },
            { file: 'sign-in.spec.ts', title: 'signs out', tests: [{ status: 'expected' }] },
          ],
        },
      ],
    },
  ],
};

describe('the closing lines of npm test', () => {
  it('count the PGlite and the PostgreSQL runs of the server suite, each and in the total', () => {
    const lines = closingLines({
      runs: [
        { name: 'vitest', counts: vitestCounts(vitestReport(900, 1, 3)) },
        { name: 'vitest on PostgreSQL', counts: vitestCounts(vitestReport(465, 2)) },
        { name: 'playwright', counts: playwrightCounts(playwrightReport) },
      ],
      failedSteps: ['vitest (unit and server)', 'vitest on PostgreSQL (server)'],
    });
    expect(lines).toEqual([
      'vitest: 900 passed, 1 failed; vitest on PostgreSQL: 465 passed, 2 failed; playwright: 5 passed, 0 failed, 1 flaky',
      'FLAKY (failed once, passed on retry; mend it): sign-in.spec.ts › signs in',
      'Failed steps: vitest (unit and server), vitest on PostgreSQL (server)',
      'tests: 1370 passed, 3 failed, 5 skipped',
    ]);
  });

  it('say loudly that PostgreSQL was unavailable, and count the runs that happened', () => {
    const lines = closingLines({
      runs: [
        { name: 'vitest', counts: vitestCounts(vitestReport(900, 0)) },
        { name: 'vitest on PostgreSQL', notRun: 'PostgreSQL unavailable' },
        { name: 'playwright', counts: playwrightCounts(undefined) },
      ],
      warnings: [postgresUnavailableLine('apt-get install postgresql failed')],
    });
    expect(lines).toEqual([
      'vitest: 900 passed, 0 failed; vitest on PostgreSQL: not run (PostgreSQL unavailable); playwright: 0 passed, 0 failed, 0 flaky',
      '!!! PostgreSQL unavailable: apt-get install postgresql failed; server suite ran on PGlite only',
      'tests: 900 passed, 0 failed, 0 skipped',
    ]);
  });

  it('count a failed step that left no failed test (lint, a crash) as a failure', () => {
    const lines = closingLines({
      runs: [{ name: 'vitest', counts: vitestCounts(vitestReport(10, 0)) }],
      failedSteps: ['lint'],
    });
    expect(lines.at(-1)).toBe('tests: 10 passed, 1 failed, 0 skipped');
  });
});

describe('why a step failed, in the closing lines of npm test', () => {
  it('name the files that failed with no failed test or whose tests never finished', () => {
    const report = {
      testResults: [
        { name: '/repo/tests/server/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
        {
          name: '/repo/tests/server/b.test.ts',
          status: 'failed',
          message: '\nWorker exited unexpectedly\n  at x',
          assertionResults: [],
        },
        // A failed test is counted already: not named again.
        {
          name: '/repo/tests/unit/c.test.ts',
          status: 'failed',
          message: 'x',
          assertionResults: [{ status: 'failed' }],
        },
        {
          name: '/repo/tests/unit/d.test.ts',
          status: 'passed',
          assertionResults: [{ status: 'passed' }, { status: 'pending' }, { status: 'pending' }],
        },
      ],
    };
    expect(vitestBrokenFiles(report, '/repo')).toEqual([
      { file: 'tests/server/b.test.ts', message: 'Worker exited unexpectedly' },
      { file: 'tests/unit/d.test.ts', message: '2 of its 3 tests never finished (its worker died?)' },
    ]);
    expect(vitestBrokenFiles(undefined)).toEqual([]);
  });

  it('repeat what the failed step printed that tells why, and its last lines', () => {
    const output = [
      ' ✓ tests/unit/a.test.ts (3 tests) 20ms',
      '⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯',
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      ' Test Files  609 passed (609)',
      '      Tests  2072 passed (2072)',
      '     Errors  1 error',
      '   Duration  530.2s',
      '',
    ].join('\n');
    const lines = failedStepLines('vitest (unit and server)', output, 25, 2);
    expect(lines).toEqual([
      '--- vitest (unit and server) failed; what it printed that tells why:',
      '  ⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯',
      '  Error: connect ECONNREFUSED 127.0.0.1:5432',
      '   Test Files  609 passed (609)',
      '        Tests  2072 passed (2072)',
      '       Errors  1 error',
      '--- its last lines:',
      '       Errors  1 error',
      '     Duration  530.2s',
    ]);
  });

  it('print those lines before the totals', () => {
    const lines = closingLines({
      runs: [{ name: 'vitest', counts: vitestCounts(vitestReport(10, 0)) }],
      failedSteps: ['vitest (unit and server)'],
      details: ['FILE FAILED with no failed test: tests/server/b.test.ts: Worker exited unexpectedly'],
    });
    expect(lines.slice(1)).toEqual([
      'FILE FAILED with no failed test: tests/server/b.test.ts: Worker exited unexpectedly',
      'Failed steps: vitest (unit and server)',
      'tests: 10 passed, 1 failed, 0 skipped',
    ]);
  });
});

describe('the files a dead vitest worker took', () => {
  const death = ['Caused by: Error: Worker exited unexpectedly', ' Tests  1 passed (4)'];
  const report = {
    numFailedTests: 0,
    testResults: [
      { name: '/r/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
      // The worker died in its second test: vitest's report holds the rest as pending.
      { name: '/r/b.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'pending' }] },
      { name: '/r/c.test.ts', status: 'passed', assertionResults: [{ status: 'skipped' }] },
    ],
  };
  const listed = ['/r/a.test.ts', '/r/b.test.ts', '/r/b.test.ts', '/r/c.test.ts', '/r/d.test.ts'].map((file) => ({
    file,
  }));

  it('are run again only when workers that died are the only errors', () => {
    expect(onlyWorkerExits(death.join('\n'), report)).toBe(true);
    // Colour codes as vitest prints them.
    expect(
      onlyWorkerExits([...death, '\u001b[2m     Errors \u001b[22m \u001b[31m1 error\u001b[39m'].join('\n'), report),
    ).toBe(true);
    expect(onlyWorkerExits([...death, '     Errors  2 errors'].join('\n'), report)).toBe(false);
    expect(onlyWorkerExits(death.join('\n'), { ...report, numFailedTests: 1 })).toBe(false);
    expect(onlyWorkerExits(' Tests  4 passed (4)\n     Errors  1 error', report)).toBe(false);
    expect(onlyWorkerExits(death.join('\n'), undefined)).toBe(false);
  });

  it('are the files with unfinished or missing tests, and their second run replaces them in the counts', () => {
    expect(lostFiles(listed, report)).toEqual(['/r/b.test.ts', '/r/d.test.ts']);
    const again = {
      numFailedTestSuites: 0,
      success: true,
      testResults: [
        { name: '/r/b.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }] },
        { name: '/r/d.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
        // A file the second run took along (a filter that matched it too) is not counted twice.
        { name: '/r/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    };
    const merged = mergedReport(report, again, ['/r/b.test.ts', '/r/d.test.ts']);
    expect(vitestCounts(merged)).toEqual({ passed: 4, failed: 0, skipped: 1, flaky: [] });
    expect((merged.testResults as { name: string }[]).map((file) => file.name)).toEqual([
      '/r/a.test.ts',
      '/r/c.test.ts',
      '/r/b.test.ts',
      '/r/d.test.ts',
    ]);
  });
});

describe('the slowest test files of npm test', () => {
  const vitestTimes = {
    testResults: [
      { name: '/repo/tests/unit/a.test.ts', startTime: 1000, endTime: 3500, assertionResults: [] },
      { name: '/repo/tests/server/b.test.ts', startTime: 2000, endTime: 42000, assertionResults: [] },
      // No start and end: the tests' own durations.
      { name: '/repo/tests/unit/c.test.ts', assertionResults: [{ duration: 700 }, { duration: 300 }] },
    ],
  };
  const playwrightTimes = {
    suites: [
      {
        file: 'shipments.spec.ts',
        specs: [
          // A retried journey counts both runs.
          { file: 'shipments.spec.ts', tests: [{ results: [{ duration: 20000 }, { duration: 15000 }] }] },
        ],
        suites: [{ specs: [{ file: 'shipments.spec.ts', tests: [{ results: [{ duration: 5000 }] }] }] }],
      },
      { file: 'access.spec.ts', specs: [{ file: 'access.spec.ts', tests: [{ results: [{ duration: 1500 }] }] }] },
    ],
  };

  it('time each vitest file from its start to its end, and each Playwright file over its journeys', () => {
    expect(vitestFileTimes(vitestTimes, '/repo')).toEqual([
      { file: 'tests/unit/a.test.ts', seconds: 2.5 },
      { file: 'tests/server/b.test.ts', seconds: 40 },
      { file: 'tests/unit/c.test.ts', seconds: 1 },
    ]);
    expect(playwrightFileTimes(playwrightTimes)).toEqual([
      { file: 'tests/e2e/shipments.spec.ts', seconds: 40 },
      { file: 'tests/e2e/access.spec.ts', seconds: 1.5 },
    ]);
    expect(vitestFileTimes(undefined)).toEqual([]);
    expect(playwrightFileTimes(undefined)).toEqual([]);
  });

  it('list the slowest files of every run, slowest first, each with its run, at most the count asked', () => {
    const runs = [
      { name: 'vitest', files: vitestFileTimes(vitestTimes, '/repo') },
      { name: 'vitest on PostgreSQL', files: [{ file: 'tests/server/b.test.ts', seconds: 61.25 }] },
      { name: 'playwright', files: playwrightFileTimes(playwrightTimes) },
    ];
    expect(slowestFilesLines(runs, 3)).toEqual([
      'The 3 slowest test files:',
      '  61.3 s  tests/server/b.test.ts (vitest on PostgreSQL)',
      '  40.0 s  tests/e2e/shipments.spec.ts (playwright)',
      '  40.0 s  tests/server/b.test.ts (vitest)',
    ]);
    expect(slowestFilesLines(runs)).toHaveLength(7);
    expect(slowestFilesLines([{ name: 'vitest', files: [] }])).toEqual([]);
  });
});

describe('finding the PostgreSQL server binaries', () => {
  let root: string;
  const version = (name: string, binaries = ['initdb', 'pg_ctl', 'postgres']) => {
    mkdirSync(path.join(root, name, 'bin'), { recursive: true });
    for (const binary of binaries) writeFileSync(path.join(root, name, 'bin', binary), '');
  };
  beforeEach(() => {
    vi.stubEnv('POSTGRES_BIN_DIR', '');
    root = mkdtempSync(path.join(tmpdir(), 'webtool-pg-bin-'));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(root, { recursive: true, force: true });
  });

  it('takes the newest complete version, installing nothing', () => {
    version('9.6');
    version('13');
    version('15');
    version('16', ['initdb', 'pg_ctl']);
    const install = vi.fn(() => true);
    expect(findPostgres({ root, install })).toBe(path.join(root, '15', 'bin'));
    expect(install).not.toHaveBeenCalled();
  });

  it("installs Debian's postgresql when none is there", () => {
    const install = vi.fn((name: string) => {
      version('15');
      return name === 'postgresql';
    });
    expect(findPostgres({ root, install })).toBe(path.join(root, '15', 'bin'));
    expect(install).toHaveBeenCalledWith('postgresql');
  });

  it('says why when it can neither find nor install one', () => {
    expect(() => findPostgres({ root, install: () => false })).toThrow(
      /no initdb, pg_ctl and postgres under .* not root to install them/,
    );
    expect(() => findPostgres({ root, install: () => true })).toThrow(/package left no initdb/);
  });
});
