import { validationMessages } from './messages.ts';
import type { ValidationMessage } from './messages.ts';

/** A date (`YYYY-MM-DD`), a date-time or a number as something to compare; undefined for anything else. */
function orderOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * The rule of `"x-not-before": "<sibling field>"` on a date, date-time or number: not earlier (not
 * smaller) than the sibling's value, the end of a range against its start (a report's to_date
 * against its from_date, a highest event id against the lowest). The same value is allowed. A
 * missing or malformed value on either side is left to `format` and `required`.
 */
export function notBeforeMessage(
  value: unknown,
  sibling: string,
  parent: Record<string, unknown> | undefined,
): ValidationMessage | undefined {
  const start = orderOf(parent?.[sibling]);
  const end = orderOf(value);
  if (start === undefined || end === undefined) return undefined;
  return end >= start ? undefined : validationMessages.notBefore;
}
