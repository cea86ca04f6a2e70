/**
 * The app's one way of writing dates and times, per language (issue 24.3): lists, record pages,
 * histories, logs, pickers, filters and reports all read a moment the same way, in the user's
 * language and in the browser's time zone. The pickers type in the same patterns, so what a person
 * reads is what they type. A 24-hour clock in both languages (the time picker's, spec 01 §9).
 * The patterns are date-fns tokens (the pickers' adapter reads them); this module writes its few
 * tokens itself, so that every list can use it without date-fns in the app's entry chunk.
 */
export interface DatePatterns {
  date: string;
  dateTime: string;
  time: string;
}

export const DATE_PATTERNS: Record<'en-US' | 'fr-FR', DatePatterns> = {
  'en-US': { date: 'MM/dd/yyyy', dateTime: 'MM/dd/yyyy HH:mm', time: 'HH:mm' },
  'fr-FR': { date: 'dd/MM/yyyy', dateTime: 'dd/MM/yyyy HH:mm', time: 'HH:mm' },
};

export function datePatterns(locale: string): DatePatterns {
  return locale.startsWith('fr') ? DATE_PATTERNS['fr-FR'] : DATE_PATTERNS['en-US'];
}

/** A day alone (`yyyy-MM-dd`, or `dd-MM-yyyy` as spec 01 §8 stores some): a calendar day, not a UTC midnight. */
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DMY_DAY = /^\d{2}-\d{2}-\d{4}$/;

const isValid = (date: Date) => !Number.isNaN(date.getTime());

/** A local calendar day, or undefined for a day that does not exist (31-02-2026). */
function localDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : undefined;
}

/** A stored moment as a Date: ISO 8601 (with or without time), a day alone, epoch milliseconds. */
export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return isValid(value) ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (DAY_ONLY.test(text)) return localDay(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8)));
  if (DMY_DAY.test(text)) return localDay(Number(text.slice(6)), Number(text.slice(3, 5)), Number(text.slice(0, 2)));
  // ISO 8601 with a time; "2026-01-31 12:00:00" (a space, no zone) is read as local time, as ISO says.
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) return undefined;
  const date = new Date(text.replace(' ', 'T'));
  return isValid(date) ? date : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Writes the tokens the patterns use (yyyy, MM, dd, HH, mm, ss) in local time. */
export function format(date: Date, pattern: string): string {
  const parts: Record<string, string> = {
    yyyy: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    dd: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return pattern.replace(/yyyy|MM|dd|HH|mm|ss/g, (token) => parts[token]);
}

/** Whether a text holds a time of day too (a day alone reads without one). */
export function hasTime(value: unknown): boolean {
  if (typeof value !== 'string') return value instanceof Date || typeof value === 'number';
  return !DAY_ONLY.test(value.trim()) && !DMY_DAY.test(value.trim());
}

export interface DateTexts {
  patterns: DatePatterns;
  /** A day: `11/27/2026`, `27/11/2026`. */
  date(value: unknown): string;
  /** A moment: `11/27/2026 16:40`, `27/11/2026 16:40`; a day alone reads as a day. */
  dateTime(value: unknown): string;
  /** A time of day: `16:40`. */
  time(value: unknown): string;
}

/**
 * The words of dates in one language. A value that is not a date comes back as written (never
 * "Invalid Date"); an empty one as an empty text.
 */
export function dateTexts(locale: string): DateTexts {
  const patterns = datePatterns(locale);
  const written = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const as = (pattern: string) => (value: unknown) => {
    const date = toDate(value);
    return date ? format(date, pattern) : written(value);
  };
  const date = as(patterns.date);
  const moment = as(patterns.dateTime);
  return {
    patterns,
    date,
    dateTime: (value) => (hasTime(value) ? moment(value) : date(value)),
    time: (value) => {
      if (typeof value === 'string' && /^\d{1,2}:\d{2}(:\d{2})?$/.test(value)) return value.slice(0, 5);
      return as(patterns.time)(value);
    },
  };
}

/**
 * A moment in a CSV file (issue 24.3): ISO 8601 in UTC to the second, without milliseconds, so a
 * spreadsheet and a script read it alike (schemas/README.md, "Dates").
 */
export function csvDateTime(value: unknown): string {
  const date = toDate(value);
  if (!date) return value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && !hasTime(value)) return format(date, 'yyyy-MM-dd');
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
