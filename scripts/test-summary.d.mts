export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  flaky: string[];
}
export type TestRun = { name: string; counts: RunCounts } | { name: string; notRun: string; counts?: undefined };
export function vitestCounts(report: unknown): RunCounts;
export function playwrightCounts(report: unknown): RunCounts;
export function postgresUnavailableLine(reason: string): string;
export function closingLines(summary: { runs: TestRun[]; failedSteps?: string[]; warnings?: string[] }): string[];
