import type { OpeningDay } from '../../types/generated/service-point.ts';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type OpeningHours = Partial<Record<Weekday, OpeningDay>>;

/** The weekday's label key: the `weekday` choices count Monday as 1 (ISO 8601). */
export const weekdayLabel = (day: Weekday) => `choices.weekday.${WEEKDAYS.indexOf(day) + 1}`;

/** Spec 01 §9: every half hour of the day, 48 entries as hh:mm. */
export const HALF_HOURS: readonly string[] = Array.from(
  { length: 48 },
  (_, index) => `${String(Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`,
);

/** Every day with the hours of `from` (a copy each, so that editing one day leaves the others). */
export function copiedToAllDays(hours: OpeningHours, from: Weekday): OpeningHours {
  const source = hours[from];
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, source ? { ...source } : undefined]).filter(([, value]) => value),
  );
}

/** A day changed by the user: a closed day keeps no times, an open one says it is open. */
export function changedDay(day: OpeningDay | undefined, change: Partial<OpeningDay>): OpeningDay {
  const next = { closed: false, ...day, ...change };
  return next.closed ? { closed: true } : next;
}
