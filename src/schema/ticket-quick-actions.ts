import type { FieldErrors } from '../contract/errors.ts';

/**
 * The tickets' quick actions (spec 02 §3, §5; spec 01 §9), one rule for the bar and the gateway:
 * at most 50 tickets; provider and operator set together (a multi-assignment needs both; a provider
 * change clears the operator); verification and on-hold status; a deadline not before today, its time
 * (hh:mm, 30-minute steps) only with a date. 0 (or an empty date) leaves a field as it is.
 */
export const QUICK_ACTIONS_MAX = 50;
/** Spec 01 §9: the quick-action button locks for 1 s after a click. */
export const QUICK_ACTION_LOCK_MS = 1000;

/** `on_hold_status`: put the tickets on hold, or take them off it. */
export const ON_HOLD = { put: 1, remove: 2 } as const;

export interface QuickActionValues {
  maintenance_provider_id: number;
  maintenance_operator_id: number;
  verification_status: number;
  on_hold_status: number;
  deadline_date: string;
  deadline_time: string;
}

/** The fields the reduced form (basic level, maintenance providers) leaves out. */
export const FULL_FORM_ONLY = ['maintenance_provider_id', 'verification_status', 'on_hold_status'] as const;

/** The 48 times of the deadline's time picker, every 30 minutes. */
export function deadlineTimes(): string[] {
  return Array.from({ length: 48 }, (_, index) => {
    const hours = String(Math.floor(index / 2)).padStart(2, '0');
    return `${hours}:${index % 2 ? '30' : '00'}`;
  });
}

/** Today as YYYY-MM-DD in the local time zone. */
export function todayIso(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface QuickActionCheck {
  valid: boolean;
  fields: FieldErrors;
  /** A locale key for what is wrong with the whole action (nothing chosen, too many tickets). */
  general?: string;
}

/**
 * What is wrong with an action on `count` tickets. `reduced`: the caller has the reduced form;
 * `ownProvider`: a maintenance provider's own id, which stands for the provider of its operators.
 */
export function quickActionErrors(
  values: QuickActionValues,
  count: number,
  options: { reduced: boolean; ownProvider?: number; today: string },
): QuickActionCheck {
  const fields: FieldErrors = {};
  let general: string | undefined;
  if (count < 1) general = 'quick_actions.errors.no_tickets';
  else if (count > QUICK_ACTIONS_MAX) general = 'quick_actions.errors.too_many';
  if (options.reduced) {
    for (const field of FULL_FORM_ONLY) {
      if (values[field]) fields[field] = { message: 'quick_actions.errors.reduced_form' };
    }
  }
  const provider = values.maintenance_provider_id || options.ownProvider;
  if (values.maintenance_provider_id && !values.maintenance_operator_id) {
    fields.maintenance_operator_id = { message: 'quick_actions.errors.operator_required' };
  }
  if (values.maintenance_operator_id && !provider && !options.reduced) {
    fields.maintenance_provider_id = { message: 'quick_actions.errors.provider_required' };
  }
  if (values.deadline_date) {
    if (!DATE.test(values.deadline_date)) fields.deadline_date = { message: 'validation.date' };
    else if (values.deadline_date < options.today)
      fields.deadline_date = { message: 'quick_actions.errors.deadline_past' };
  }
  if (values.deadline_time) {
    if (!values.deadline_date) fields.deadline_time = { message: 'quick_actions.errors.time_needs_date' };
    else if (!deadlineTimes().includes(values.deadline_time)) fields.deadline_time = { message: 'validation.time' };
  }
  const chosen =
    values.maintenance_operator_id ||
    values.maintenance_provider_id ||
    values.verification_status ||
    values.on_hold_status ||
    values.deadline_date;
  if (!general && !chosen) general = 'quick_actions.errors.nothing_chosen';
  return { valid: !general && !Object.keys(fields).length, fields, general };
}
