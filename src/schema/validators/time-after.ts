import { validationMessages } from './messages.ts';
import type { ValidationMessage } from './messages.ts';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** Seconds since midnight of an `hh:mm` or `hh:mm:ss` time, or undefined for anything else. */
function secondsOf(value: unknown): number | undefined {
  const match = typeof value === 'string' ? TIME.exec(value) : null;
  if (!match) return undefined;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

/**
 * The rule of `"x-time-after": "<sibling field>"` on a time string: strictly later than the sibling's
 * time, e.g. a day's closing time after its opening time. A missing or malformed time on either side
 * is left to the `time` format and `required`.
 */
export function timeAfterMessage(
  value: string,
  sibling: string,
  parent: Record<string, unknown> | undefined,
): ValidationMessage | undefined {
  const start = secondsOf(parent?.[sibling]);
  const end = secondsOf(value);
  if (start === undefined || end === undefined) return undefined;
  return end > start ? undefined : validationMessages.timeAfter;
}
