import { describe, expect, it } from 'vitest';
import { periodDays, periodErrors } from '../../src/contract/licence-period.ts';

/** The licence search's period rules, as the form runs them before the gateway does (issue 27.6). */
describe('the licence period', () => {
  const now = new Date('2026-11-27T23:00:00Z');
  const period = (from_year: number, from_month: number, to_year: number, to_month: number) => ({
    from_year,
    from_month,
    to_year,
    to_month,
  });

  it('accepts an end in an earlier month, on or after the start', () => {
    expect(periodErrors(period(2026, 7, 2026, 9), now)).toEqual({});
    expect(periodErrors(period(2026, 10, 2026, 10), now)).toEqual({});
    expect(periodErrors(period(2025, 12, 2026, 1), now)).toEqual({});
  });

  it('refuses an end before the start, in the current month or later, on the field to correct', () => {
    expect(periodErrors(period(2026, 9, 2026, 7), now)).toEqual({
      to_month: { message: 'catalogue.licence_end_before_start' },
    });
    expect(periodErrors(period(2026, 1, 2025, 12), now)).toEqual({
      to_year: { message: 'catalogue.licence_end_before_start' },
    });
    expect(periodErrors(period(2026, 1, 2026, 11), now)).toEqual({
      to_month: { message: 'catalogue.licence_end_not_past' },
    });
    expect(periodErrors(period(2026, 1, 2027, 1), now)).toEqual({
      to_year: { message: 'catalogue.licence_end_not_past' },
    });
    // Half a period: the schema says what is missing; the rules wait.
    expect(periodErrors({ from_year: 2026 }, now)).toEqual({});
  });

  it('spans whole months, leap days included', () => {
    expect(periodDays(period(2024, 2, 2024, 2))).toEqual({ from: '2024-02-01', to: '2024-02-29', days: 29 });
    expect(periodDays(period(2026, 7, 2026, 9))).toEqual({ from: '2026-07-01', to: '2026-09-30', days: 92 });
    expect(periodDays(period(2025, 12, 2026, 1))).toEqual({ from: '2025-12-01', to: '2026-01-31', days: 62 });
  });
});
