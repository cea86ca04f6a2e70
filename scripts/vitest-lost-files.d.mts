export function onlyWorkerExits(output: string, report: unknown): boolean;
export function lostFiles(listed: { file: string }[], report: unknown): string[];
export function mergedReport(report: unknown, again: unknown, files: string[]): Record<string, unknown>;
