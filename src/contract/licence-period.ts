import type { FieldErrors } from './errors.ts';

/**
 * The period of the hardware licence search (spec 02 §6, issue 27.6), whole months from a start to an end,
 * and its rules, checked alike by the form and by the gateway (server/gateway/rules/integrations/licences.ts).
 */

export interface LicencePeriod {
  from_year: number;
  from_month: number;
  to_year: number;
  to_month: number;
}

/** The first and last day (`yyyy-MM-dd`, UTC) of the period's months. */
export function periodDays(period: LicencePeriod): { from: string; to: string; days: number } {
  const from = new Date(Date.UTC(period.from_year, period.from_month - 1, 1));
  const to = new Date(Date.UTC(period.to_year, period.to_month, 0));
  return {
    from: from.toISOString().slice(0, 10),
    to: to.toISOString().slice(0, 10),
    days: Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1,
  };
}

/**
 * The period's rules (spec 02 §6): the end month after or equal to the start month, and before the month of
 * `now`. Field errors by the field a user corrects.
 */
export function periodErrors(period: Partial<LicencePeriod>, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  const { from_year, from_month, to_year, to_month } = period;
  if (to_year === undefined || to_month === undefined) return errors;
  const end = to_year * 12 + (to_month - 1);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (end >= current) {
    errors[to_year > now.getUTCFullYear() ? 'to_year' : 'to_month'] = { message: 'catalogue.licence_end_not_past' };
  } else if (from_year !== undefined && from_month !== undefined) {
    const start = from_year * 12 + (from_month - 1);
    if (end < start) {
      errors[to_year < from_year ? 'to_year' : 'to_month'] = { message: 'catalogue.licence_end_before_start' };
    }
  }
  return errors;
}
