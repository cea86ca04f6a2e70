import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import { SAVE_FAILED } from '../../../../src/contract/errors.ts';
import { accessLevel } from '../../../../src/schema/permissions.ts';
import { isQuickActionExcluded, TICKET_STATUS } from '../../../../src/schema/ticket-badge.ts';
import {
  ON_HOLD,
  QUICK_ACTIONS_MAX,
  quickActionErrors,
  type QuickActionValues,
} from '../../../../src/schema/ticket-quick-actions.ts';
import { HttpError } from '../../http-error.ts';
import { bodyParams, type Param } from '../shared/params.ts';
import type { Doc } from '../../record-store.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';

const OPERATORS = 'maintenance/operators';

/** The refusals of the quick actions, in English, with the key the app shows in the user's language. */
const messages = {
  quick_actions_too_many: `Quick actions handle at most ${QUICK_ACTIONS_MAX} tickets`,
  quick_actions_no_tickets: 'Choose the tickets first',
  quick_actions_excluded: 'Declined, Closed, Courier and Service tickets are excluded from quick actions',
  quick_actions_nothing_chosen: 'Choose at least one quick action',
  quick_actions_multi_assign: 'Multi-assignment needs a maintenance provider, an operator and tickets',
  quick_actions_reduced_form: 'Your access changes only the operator and the deadline of tickets',
  quick_actions_operator_inactive: 'The operator is not active',
  ticket_deadline_past: 'The deadline cannot be before today',
} as const;

type Refusal = keyof typeof messages;

const refusal = (key: Refusal, details: Record<string, unknown> = {}, status = 422) =>
  new HttpError(status, messages[key], { message_key: `catalogue.${key}`, ...details });

/** The check's locale keys, as the gateway's catalogue refusals. */
const REFUSAL_OF: Record<string, Refusal> = {
  'quick_actions.errors.too_many': 'quick_actions_too_many',
  'quick_actions.errors.no_tickets': 'quick_actions_no_tickets',
  'quick_actions.errors.nothing_chosen': 'quick_actions_nothing_chosen',
  'quick_actions.errors.operator_required': 'quick_actions_multi_assign',
  'quick_actions.errors.provider_required': 'quick_actions_multi_assign',
  'quick_actions.errors.reduced_form': 'quick_actions_reduced_form',
  'quick_actions.errors.deadline_past': 'ticket_deadline_past',
};

/** A whole number from 0 to `max`, or nothing (absent or null: 0, the field left as it is). */
const wholeNumber = (name: string, max: number) =>
  ({
    schema: { type: ['integer', 'null'], minimum: 0, maximum: max },
    refusal: ['gateway.integer_range', { name, min: 0, max }],
    optional: true,
  }) as const satisfies Param;

/** Text, or nothing (absent or null: the empty text). */
const text = (name: string) =>
  ({
    schema: { type: ['string', 'null'] },
    refusal: ['gateway.text_expected', { name }],
    optional: true,
  }) as const satisfies Param;

/**
 * The body's parameters, in the order they are checked: ticket ids are whole numbers, each once (more than
 * the maximum is a refusal of its own, after these); `versions` maps a ticket id to its whole-number version.
 */
const quickActionParams = bodyParams({
  ticket_ids: {
    schema: { type: 'array', items: { type: 'integer', minimum: 1 } },
    refusal: 'gateway.ticket_ids_expected',
    then: [{ schema: { type: 'array', uniqueItems: true }, refusal: 'gateway.ticket_ids_repeated' }],
  },
  maintenance_provider_id: wholeNumber('maintenance_provider_id', 2 ** 31),
  maintenance_operator_id: wholeNumber('maintenance_operator_id', 2 ** 31),
  verification_status: wholeNumber('verification_status', 4),
  on_hold_status: wholeNumber('on_hold_status', 2),
  deadline_date: text('deadline_date'),
  deadline_time: text('deadline_time'),
  versions: {
    schema: { type: ['object', 'null'], additionalProperties: { type: 'integer' } },
    refusal: 'gateway.versions_expected',
    optional: true,
  },
});

/** The ticket with the action's changes: the rules of the ticket (tickets.ts) then judge it as any edit. */
function applied(ticket: Ticket, values: QuickActionValues): Ticket {
  const next: Ticket = { ...ticket };
  if (values.maintenance_provider_id && values.maintenance_provider_id !== ticket.maintenance_provider_id) {
    // Changing the provider clears the operator (spec 02 §5); the action names the new one.
    next.maintenance_provider_id = values.maintenance_provider_id;
    next.maintenance_operator_id = null;
  }
  if (values.maintenance_operator_id) next.maintenance_operator_id = values.maintenance_operator_id;
  if (values.verification_status)
    next.ticket_verification_status = values.verification_status as Ticket['ticket_verification_status'];
  if (values.on_hold_status === ON_HOLD.put && ticket.status !== TICKET_STATUS.onHold)
    next.status = TICKET_STATUS.onHold;
  if (values.on_hold_status === ON_HOLD.remove && ticket.status === TICKET_STATUS.onHold)
    next.status = TICKET_STATUS.open;
  if (values.deadline_date) {
    next.deadline_date = values.deadline_date;
    next.deadline_time = values.deadline_time || null;
  }
  return next;
}

/**
 * `PATCH webtool/maintenance/tickets { opname: "quick_actions", ticket_ids, maintenance_provider_id,
 * maintenance_operator_id, verification_status, on_hold_status, deadline_date, deadline_time, versions? }`
 * (spec 02 §3, §5; spec 01 §9): one action on at most 50 tickets, every ticket through the write
 * pipeline and the ticket rules (audited, tenancy, 409 for a stale version in `versions`), in one
 * transaction: a refusal for any ticket writes nothing. 0 or an empty date leaves a field as it is.
 * Declined, Closed, Courier and Service tickets are refused, not skipped. Basic-level users and
 * maintenance providers may set only the operator (of the ticket's provider) and the deadline.
 */
export async function quickActions(ctx: OpnameContext, body: Doc) {
  const params = quickActionParams(body);
  const ids = params.ticket_ids;
  const values: QuickActionValues = {
    maintenance_provider_id: params.maintenance_provider_id ?? 0,
    maintenance_operator_id: params.maintenance_operator_id ?? 0,
    verification_status: params.verification_status ?? 0,
    on_hold_status: params.on_hold_status ?? 0,
    deadline_date: params.deadline_date ?? '',
    deadline_time: params.deadline_time ?? '',
  };
  const versions: Record<string, number> = params.versions ?? {};
  const { access } = ctx;
  const ownProvider =
    access.partnerType === 'maintenance_provider' && !access.seesAll ? Number(access.partner) : undefined;
  const reduced =
    !access.superAdmin &&
    (accessLevel(access.permissions, ctx.resource.features) === 'basic' || ownProvider !== undefined);

  const check = quickActionErrors(values, ids.length, {
    reduced,
    ownProvider,
    today: new Date().toISOString().slice(0, 10),
  });
  if (check.general) {
    const key = REFUSAL_OF[check.general];
    throw refusal(
      key,
      check.general === 'quick_actions.errors.too_many'
        ? { errors: { ticket_ids: { message: 'validation.max_items', args: { max: QUICK_ACTIONS_MAX } } } }
        : {},
    );
  }
  const firstError = Object.values(check.fields)[0];
  if (firstError) {
    const key = REFUSAL_OF[firstError.message];
    const errors = Object.fromEntries(
      Object.entries(check.fields).map(([field, error]) => [
        field,
        REFUSAL_OF[error.message] ? { message: `catalogue.${REFUSAL_OF[error.message]}` } : error,
      ]),
    );
    if (key === 'quick_actions_reduced_form') throw refusal(key, { errors }, 403);
    throw key ? refusal(key, { errors }) : new HttpError(422, SAVE_FAILED, { errors });
  }
  if (values.maintenance_operator_id) {
    const operator = await ctx.db.query<{ doc: Doc }>(`SELECT doc FROM records WHERE resource = $1 AND key = $2`, [
      OPERATORS,
      String(values.maintenance_operator_id),
    ]);
    const doc = operator.rows[0]?.doc;
    if (doc && doc.active === false) {
      throw refusal('quick_actions_operator_inactive', {
        errors: { maintenance_operator_id: { message: 'catalogue.quick_actions_operator_inactive' } },
      });
    }
  }

  // Every excluded ticket named at once, before anything is written; checked again in the transaction.
  const scope = scopeFor(access, ctx.resource);
  const stored = await ctx.db.query<{ key: string; doc: Ticket }>(
    `SELECT key, doc FROM records WHERE resource = $1 AND key = ANY($2::text[])`,
    [ctx.resource.endpoint, ids.map(String)],
  );
  const excluded = stored.rows
    .filter((row) => visible(scope, row.doc as unknown as Doc) && isQuickActionExcluded(row.doc))
    .map((row) => Number(row.key))
    .sort((a, b) => a - b);
  if (excluded.length) throw refusal('quick_actions_excluded', { excluded_ids: excluded });

  let current: number | undefined;
  try {
    const written = await ctx.writes.changeAll(
      ids.map((id) => ({
        key: String(id),
        basedOnVersion: versions[String(id)],
        produce: async (_tx, existing) => {
          current = id;
          const ticket = existing.doc as unknown as Ticket;
          if (isQuickActionExcluded(ticket)) throw refusal('quick_actions_excluded', { excluded_ids: [id] });
          return applied(ticket, values) as unknown as Doc;
        },
      })),
    );
    return { success: true, data: { updated: written.length, tickets: written } };
  } catch (error) {
    // Which ticket a refusal is about, for the bar to say (the message stays the catalogue's).
    if (error instanceof HttpError && current !== undefined && error.details.ticket_id === undefined) {
      throw new HttpError(error.status, error.message, { ...error.details, ticket_id: current });
    }
    throw error;
  }
}
