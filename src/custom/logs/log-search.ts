/** The gateway refuses longer ranges; checked here too, so that the user reads why in their language. */
export const MAX_RANGE_DAYS = 31;
const MAX_RANGE_SECONDS = MAX_RANGE_DAYS * 24 * 60 * 60;
const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

/** A local time as the log search's date and time fields hold it (minute precision, no time zone). */
export function toDateTimeInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The default search: the last 24 hours. */
export function lastDay(now: Date): { from: string; to: string } {
  return { from: toDateTimeInput(new Date(now.getTime() - DAY_MS)), to: toDateTimeInput(now) };
}

export type SearchWindow = { startTime: number; endTime: number } | { error: string; args?: Record<string, unknown> };

/**
 * Epoch seconds for the gateway from two date and time field values, or the translation key of what is
 * wrong. The inputs show minutes, so "to 12:34" takes in the whole of that minute: an entry written
 * in the minute the page was opened is found.
 */
export function searchWindow(from: string, to: string): SearchWindow {
  const start = new Date(from).getTime();
  const end = new Date(to).getTime();
  if (!from || !to || Number.isNaN(start) || Number.isNaN(end)) return { error: 'logs.errors.dates_required' };
  if (start >= end) return { error: 'logs.errors.start_after_end' };
  if (end - start > MAX_RANGE_SECONDS * 1000) {
    return { error: 'logs.errors.range_too_long', args: { days: MAX_RANGE_DAYS } };
  }
  const startTime = Math.floor(start / 1000);
  return { startTime, endTime: Math.min(Math.floor(end / 1000) + 59, startTime + MAX_RANGE_SECONDS) };
}

/**
 * A result time as a Date: ISO 8601 from the local gateway, or CloudWatch's
 * "2026-01-31 12:00:00.000", which is UTC without saying so.
 */
export function logTime(timestamp: string): Date {
  const cloudWatch = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(timestamp);
  return new Date(cloudWatch ? `${cloudWatch[1]}T${cloudWatch[2]}Z` : timestamp);
}
