import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findPostgres } from '../../scripts/postgres-server.mjs';
import { closingLines, playwrightCounts, postgresUnavailableLine, vitestCounts } from '../../scripts/test-summary.mjs';

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
