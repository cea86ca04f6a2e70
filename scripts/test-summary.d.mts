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
export function closingLines(summary: {
  runs: TestRun[];
  failedSteps?: string[];
  warnings?: string[];
  details?: string[];
}): string[];
export interface FileTime {
  file: string;
  seconds: number;
}
export function vitestFileTimes(report: unknown, root?: string): FileTime[];
export function playwrightFileTimes(report: unknown): FileTime[];
export function slowestFilesLines(runs: { name: string; files: FileTime[] }[], count?: number): string[];
export function vitestBrokenFiles(report: unknown, root?: string): { file: string; message: string }[];
export function failedStepLines(name: string, output: string, most?: number, last?: number): string[];
