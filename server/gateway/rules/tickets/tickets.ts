import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { Pinpad } from '../../../../src/types/generated/pinpad.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import {
  OPEN_STATUSES,
  TICKET_STATUS,
  TICKET_TYPE,
  ticketBadge,
  VERIFICATION,
} from '../../../../src/schema/ticket-badge.ts';
import type { ListCondition, ListQuery } from '../../record-store.ts';
import { recordRules, type RuleContext } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { unknownReference } from '../shared/hardware-refusals.ts';
import { HARDWARE_UNITS, PINPADS, readDoc, SERVICE_POINTS, type StoredUnit } from '../shared/hardware-store.ts';
import { putServicePointPhoto, servicePointPhotoRemovals } from '../service-points/service-point-photos.ts';
import { ticketStateRefusal as stateRefusal, ticketFieldRefusal as fieldRefusal } from '../shared/ticket-refusals.ts';
import { closeTicketEffects, assertMayClose } from './ticket-closing.ts';
import { ticketBulkImport } from './ticket-bulk.ts';
import { ticketReporter } from './ticket-reporter.ts';
import { ticketQueries } from './ticket-queries.ts';
import { quickActions } from './ticket-quick-actions.ts';
import { nextPeriodicTicket } from './periodic-tickets.ts';
import { deadlineTimes } from '../../../../src/schema/ticket-quick-actions.ts';
import { missingTicketOption, TICKET_OPTIONS, type TicketOption } from '../../../../src/schema/ticket-options.ts';
import type { TicketRefusal } from '../shared/ticket-refusals.ts';
import { OPERATORS, TICKETS } from '../shared/endpoints.ts';
import { isSet } from '../shared/values.ts';
import { bodyParams, DAY_TEXT } from '../shared/params.ts';
export { OPERATORS } from '../shared/endpoints.ts';

/**
 * Maintenance tickets (spec 02 §3, §4, §5, §8). The gateway derives the badge, the names the list shows
 * (service point, unit, operator), the support provider (tenancy), the warranty badge of the unit, and
 * the dates it keeps; it refuses what the spec forbids with the catalogue's messages; closing an
 * install ticket installs its units, closing an uninstall ticket takes the unit or PIN pad away.
 */

export const TICKETS_ENDPOINT = TICKETS;
const MAINTENANCE_PROVIDERS = 'partners/maintenance_provider';

/** A stored ticket: its schema fields (the derived ones included). */
export type StoredTicket = Ticket;

interface StoredOperator {
  operator_id: number;
  maintenance_operator_id?: string;
  name: string;
  maintenance_provider_id?: number | null;
  active?: boolean;
}

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');
const today = (now: Date) => now.toISOString().slice(0, 10);

const PINPAD_TYPES: readonly number[] = [TICKET_TYPE.maintainPinpad, TICKET_TYPE.uninstallPinpad];
const UNIT_TYPES: readonly number[] = [
  TICKET_TYPE.uninstallHardware,
  TICKET_TYPE.maintainHardware,
  TICKET_TYPE.courier,
];
const INSTALLED = new Set([3, 4]);

/** The refusal of a ticket kind the caller's options leave out (spec 01 §6), on the field that makes it. */
const KIND_OPTION_REFUSALS: Partial<Record<TicketOption, [TicketRefusal, string]>> = {
  [TICKET_OPTIONS.courier]: ['ticket_courier_option', 'ticket_type'],
  [TICKET_OPTIONS.service]: ['ticket_service_option', 'event_type'],
  [TICKET_OPTIONS.compartmentInspection]: ['ticket_inspection_option', 'job_type'],
};
const PLANNED = 2;

/** The service point of a new ticket: one the caller sees, not parked. */
async function servicePointOf(ctx: RuleContext, ticket: StoredTicket, creating: boolean): Promise<ServicePoint> {
  const point = await readDoc<ServicePoint>(ctx.tx, SERVICE_POINTS, ticket.sp_id);
  const servicePoints = ctx.resources.get(SERVICE_POINTS)!;
  if (!point || (creating && !visible(scopeFor(ctx.access, servicePoints), point as never))) {
    throw unknownReference('sp_id');
  }
  // Spec 02 §4: no ticket can be created for a parked (on hold) service point.
  if (creating && point.parked) throw stateRefusal('ticket_sp_parked');
  return point;
}

/** Another open ticket of the given types at the service point. */
async function otherOpenTicket(tx: Db, servicePointId: number, types: readonly number[], own: string) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE resource = $1 AND doc->>'sp_id' = $2 AND key <> $3
       AND (doc->>'ticket_type')::int = ANY($4::int[]) AND (doc->>'status')::int = ANY($5::int[]) LIMIT 1`,
    [TICKETS_ENDPOINT, String(servicePointId), own, types, OPEN_STATUSES],
  );
  return found.rows.length > 0;
}

/** The unit a ticket names, which must be at its service point (and installed, for an uninstall). */
async function unitOf(tx: Db, ticket: StoredTicket) {
  const unit = await readDoc<StoredUnit>(tx, HARDWARE_UNITS, ticket.hardware_unit_id);
  if (!unit) throw unknownReference('hardware_unit_id');
  if (!same(unit.service_point_id, ticket.sp_id)) throw fieldRefusal('ticket_unit_not_at_sp', 'hardware_unit_id');
  if (ticket.ticket_type === TICKET_TYPE.uninstallHardware && !INSTALLED.has(unit.status ?? 0)) {
    throw fieldRefusal('ticket_unit_not_installed', 'hardware_unit_id');
  }
  return unit;
}

/** Another open installation ticket names the unit: its installation is planned already. */
async function inOtherInstallTicket(tx: Db, hardwareId: number, own: string) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE resource = $1 AND key <> $2 AND (doc->>'ticket_type')::int = $3
       AND (doc->>'status')::int = ANY($4::int[]) AND coalesce(doc->'hardware_unit_ids', '[]'::jsonb) @> $5::jsonb
     LIMIT 1`,
    [TICKETS_ENDPOINT, own, TICKET_TYPE.install, OPEN_STATUSES, JSON.stringify([hardwareId])],
  );
  return found.rows.length > 0;
}

/** The units of an installation ticket: each planned at its service point, in no other open install ticket. */
async function plannedUnits(tx: Db, ticket: StoredTicket, own: string) {
  const ids = ticket.hardware_unit_ids ?? [];
  if (!ids.length) throw fieldRefusal('ticket_units_required', 'hardware_unit_ids');
  const units: StoredUnit[] = [];
  for (const id of ids) {
    const unit = await readDoc<StoredUnit>(tx, HARDWARE_UNITS, id);
    if (!unit) throw unknownReference('hardware_unit_ids');
    if (!same(unit.service_point_id, ticket.sp_id) || unit.status !== PLANNED) {
      throw fieldRefusal('ticket_unit_not_planned', 'hardware_unit_ids');
    }
    if (await inOtherInstallTicket(tx, id, own)) throw fieldRefusal('hw_open_ticket', 'hardware_unit_ids');
    units.push(unit);
  }
  return units;
}

/**
 * Spec 02 §5: a PIN pad ticket names a hardware unit or a PIN pad; one PIN pad per service point, so a
 * pad brought to a service point that has one, or a second open PIN pad ticket there, is refused.
 */
async function assertPinpadTicket(tx: Db, ticket: StoredTicket, own: string, creating: boolean) {
  if (!isSet(ticket.hardware_unit_id) && !isSet(ticket.pinpad_id)) {
    throw fieldRefusal('ticket_hardware_or_pinpad_required', 'pinpad_id');
  }
  if (creating && (await otherOpenTicket(tx, ticket.sp_id, PINPAD_TYPES, own))) {
    throw fieldRefusal('ticket_sp_open_pinpad_ticket', 'pinpad_id');
  }
  if (!isSet(ticket.pinpad_id)) return undefined;
  const pad = await readDoc<Pinpad>(tx, PINPADS, ticket.pinpad_id);
  if (!pad) throw unknownReference('pinpad_id');
  if (same(pad.service_point_id, ticket.sp_id)) return pad;
  if (ticket.ticket_type === TICKET_TYPE.uninstallPinpad || isSet(pad.service_point_id)) {
    throw fieldRefusal('ticket_pinpad_not_at_sp', 'pinpad_id');
  }
  const padsThere = await tx.query(`SELECT 1 FROM records WHERE resource = $1 AND doc->>'service_point_id' = $2`, [
    PINPADS,
    String(ticket.sp_id),
  ]);
  if (padsThere.rows.length) throw fieldRefusal('ticket_sp_has_pinpad', 'pinpad_id');
  return pad;
}

async function assertCompartment(tx: Db, ticket: StoredTicket) {
  if (!isSet(ticket.compartment_id)) return;
  const compartment = await readDoc<Compartment>(tx, 'compartments', ticket.compartment_id);
  if (!compartment) throw unknownReference('compartment_id');
  if (!same(compartment.hardware_id, ticket.hardware_unit_id)) {
    throw fieldRefusal('ticket_compartment_not_of_unit', 'compartment_id');
  }
}

/**
 * The operator assigned, who must work for the ticket's maintenance provider (or gives it its provider)
 * and, when newly assigned, be active (as the quick actions refuse an inactive one).
 */
async function operatorOf(tx: Db, ticket: StoredTicket, before: StoredTicket | undefined) {
  if (!isSet(ticket.maintenance_operator_id)) return undefined;
  const operator = await readDoc<StoredOperator>(tx, OPERATORS, ticket.maintenance_operator_id);
  if (!operator) throw unknownReference('maintenance_operator_id');
  if (
    isSet(ticket.maintenance_provider_id) &&
    !same(operator.maintenance_provider_id, ticket.maintenance_provider_id)
  ) {
    throw fieldRefusal('ticket_operator_provider', 'maintenance_operator_id');
  }
  if (operator.active === false && !same(ticket.maintenance_operator_id, before?.maintenance_operator_id)) {
    throw fieldRefusal('ticket_operator_inactive', 'maintenance_operator_id');
  }
  return operator;
}

/** The deadline's times, on the hour or half hour (the form's picker and the quick actions offer no other). */
const DEADLINE_TIMES = new Set(deadlineTimes());

/**
 * Spec 02 §6: a change of the warranty needs a new comment. That the warranty fields are the operator company's is the
 * schema's `x-input.partnerTypes`, which the write pipeline enforces.
 */
function assertWarranty(ticket: StoredTicket, before: StoredTicket | undefined) {
  const statusChanged = !same(ticket.warranty_status, before?.warranty_status);
  const commentChanged = (ticket.warranty_comment ?? '') !== (before?.warranty_comment ?? '');
  if (statusChanged && (!commentChanged || !ticket.warranty_comment?.trim())) {
    throw fieldRefusal('ticket_warranty_comment', 'warranty_comment');
  }
}

/**
 * Dates: the deadline's time on a 30-minute step; a deadline set or moved is not before today; the earliest
 * installation date is before the deadline.
 */
function assertDates(ticket: StoredTicket, before: StoredTicket | undefined, now: Date) {
  // hh:mm, or hh:mm:ss as a time picker may send it, with no seconds.
  const time = ticket.deadline_time?.replace(/^(\d\d:\d\d):00$/, '$1');
  if (isSet(time) && !DEADLINE_TIMES.has(time!)) throw fieldRefusal('ticket_deadline_step', 'deadline_time');
  const deadlineMoved = !same(ticket.deadline_date, before?.deadline_date);
  if (deadlineMoved && isSet(ticket.deadline_date) && ticket.deadline_date! < today(now)) {
    throw fieldRefusal('ticket_deadline_past', 'deadline_date');
  }
  const installationMoved = !same(ticket.installation_deadline, before?.installation_deadline);
  if (installationMoved && isSet(ticket.installation_deadline) && ticket.installation_deadline! < today(now)) {
    throw fieldRefusal('ticket_deadline_past', 'installation_deadline');
  }
  if (
    isSet(ticket.earliest_installation_date) &&
    isSet(ticket.installation_deadline) &&
    ticket.earliest_installation_date! >= ticket.installation_deadline!
  ) {
    throw fieldRefusal('ticket_earliest_after_deadline', 'earliest_installation_date');
  }
}

/** Spec 02 §4: the SLA date is cleared while on hold; the gateway keeps it aside and gives it back. */
function withHold(ticket: StoredTicket, before: StoredTicket | undefined): StoredTicket {
  const onHold = ticket.status === TICKET_STATUS.onHold;
  const wasOnHold = before?.status === TICKET_STATUS.onHold;
  if (onHold) {
    const held = wasOnHold ? (before?.sla_date_held ?? null) : (ticket.sla_date ?? null);
    return { ...ticket, sla_date: null, sla_date_held: held };
  }
  if (wasOnHold) return { ...ticket, sla_date: ticket.sla_date ?? before?.sla_date_held ?? null, sla_date_held: null };
  return ticket;
}

export async function checkedTicket(
  ctx: RuleContext,
  doc: StoredTicket,
  existing: { key: string; doc: StoredTicket } | undefined,
  now = new Date(),
): Promise<StoredTicket> {
  const { tx } = ctx;
  const before = existing?.doc;
  const creating = !before;
  if (before?.status === TICKET_STATUS.closed) throw stateRefusal('ticket_closed_final');
  if (before && (before.ticket_type !== doc.ticket_type || !same(before.sp_id, doc.sp_id))) {
    throw fieldRefusal('ticket_type_fixed', before.ticket_type !== doc.ticket_type ? 'ticket_type' : 'sp_id');
  }
  const missing = missingTicketOption(ctx.access.permissions, doc, before);
  if (missing) {
    const [key, field] = KIND_OPTION_REFUSALS[missing]!;
    throw fieldRefusal(key, field, 403);
  }
  // A body naming another owner (a support provider's, derived from its service points) is the write pipeline's 403.
  const point = await servicePointOf(ctx, doc, creating);
  const own = existing?.key ?? '';
  const verification = doc.ticket_verification_status ?? VERIFICATION.none;
  if (
    doc.status === TICKET_STATUS.onHold &&
    verification === VERIFICATION.investigate &&
    !(before?.status === TICKET_STATUS.onHold && before.ticket_verification_status === VERIFICATION.investigate)
  ) {
    throw fieldRefusal('ticket_investigate_on_hold', 'ticket_verification_status');
  }
  assertWarranty(doc, before);
  assertDates(doc, before, now);

  let ticket: StoredTicket = { ...doc };
  let hardwareName: string | null = null;
  let warrantyBadge: number | undefined;
  if (doc.ticket_type === TICKET_TYPE.install) {
    const units = await plannedUnits(tx, doc, own);
    hardwareName = units.map((unit) => unit.name).join(', ');
    ticket = { ...ticket, hardware_unit_id: null, pinpad_id: null, compartment_id: null };
  } else if (PINPAD_TYPES.includes(doc.ticket_type)) {
    const pad = await assertPinpadTicket(tx, doc, own, creating);
    const unit = isSet(doc.hardware_unit_id) ? await unitOf(tx, doc) : undefined;
    hardwareName = [unit?.name, pad?.ble_chip_id].filter(Boolean).join(' · ');
    warrantyBadge = unit?.warranty_expiry_badge;
    ticket = { ...ticket, hardware_unit_ids: [], compartment_id: null };
  } else if (UNIT_TYPES.includes(doc.ticket_type)) {
    if (!isSet(doc.hardware_unit_id)) throw fieldRefusal('ticket_hardware_required', 'hardware_unit_id');
    const unit = await unitOf(tx, doc);
    await assertCompartment(tx, doc);
    hardwareName = unit.name;
    warrantyBadge = unit.warranty_expiry_badge;
    ticket = { ...ticket, hardware_unit_ids: [], pinpad_id: null };
  }
  if (isSet(doc.maintenance_provider_id) && !same(doc.maintenance_provider_id, before?.maintenance_provider_id)) {
    if (!(await readDoc(tx, MAINTENANCE_PROVIDERS, doc.maintenance_provider_id))) {
      throw unknownReference('maintenance_provider_id');
    }
  }
  const operator = await operatorOf(tx, doc, before);
  // Issue 24: no ticket without a maintenance provider. The body's, else the operator's, else the
  // service point's (as a staff user expects); a service point without one leaves it to the body.
  const provider = doc.maintenance_provider_id ?? operator?.maintenance_provider_id ?? point.maintenance_provider_id;
  if (!isSet(provider)) throw fieldRefusal('ticket_provider_required', 'maintenance_provider_id');
  if (doc.status === TICKET_STATUS.closed) await assertMayClose(ctx, ticket);

  ticket = withHold(
    {
      ...ticket,
      sp_name: point.name,
      support_provider_id: point.support_provider_id ?? null,
      hardware_name: hardwareName || null,
      maintenance_provider_id: provider,
      operator_name: operator?.name ?? null,
      maintenance_operator_code: operator?.maintenance_operator_id ?? null,
      ...(await ticketReporter(tx, ticket.reported_by)),
      created_at: before?.created_at ?? now.toISOString(),
      closed_at:
        doc.status === TICKET_STATUS.closed ? (before?.closed_at ?? now.toISOString()) : (before?.closed_at ?? null),
      ...(warrantyBadge !== undefined && { warranty_expiry_badge: warrantyBadge as 1 | 2 | 3 }),
    },
    before,
  );
  return { ...ticket, badge: ticketBadge(ticket) };
}

/**
 * The list's date range (spec 02 §3 date1, date2, date_range_type) and the SLA filter (`is_sla_data`:
 * open tickets past their SLA date), turned into conditions of the list query.
 */
const dateRangeParams = bodyParams({
  date_range_type: {
    schema: { enum: ['created', 'sla', 'deadline'] },
    refusal: ['gateway.one_of', { name: 'date_range_type', values: 'created, sla, deadline' }],
    optional: true,
  },
  date1: { schema: DAY_TEXT, refusal: ['gateway.date_expected', { field: 'date1' }], optional: true },
  date2: { schema: DAY_TEXT, refusal: ['gateway.date_expected', { field: 'date2' }], optional: true },
});
const DATE_RANGE_FIELDS = { created: 'created_at', sla: 'sla_date', deadline: 'deadline_date' } as const;

export function ticketListConditions(query: ListQuery, now = new Date()): ListCondition[] {
  const given = query.queryFilters ?? {};
  const conditions: ListCondition[] = [];
  const range = dateRangeParams(given);
  const field = DATE_RANGE_FIELDS[range.date_range_type ?? 'created'];
  for (const [name, op] of [
    ['date1', '>='],
    ['date2', '<='],
  ] as const) {
    const value = range[name];
    if (value === undefined) continue;
    // A date-time field compared with a day: the whole second day counts.
    const bound = field === 'created_at' && op === '<=' ? `${value}T23:59:59.999Z` : value;
    conditions.push({ field, op, value: bound });
  }
  if (given.is_sla_data === true) {
    conditions.push({ field: 'sla_date', op: '<', value: today(now) });
    conditions.push({ field: 'status', op: 'in', value: [...OPEN_STATUSES] });
  }
  if (given.is_sla_data === false) {
    conditions.push({ field: 'sla_date', op: '>=', value: today(now) });
  }
  return conditions;
}

export const ticketRules = recordRules<StoredTicket>({
  beforeWrite(ctx, doc, existing) {
    return checkedTicket(ctx, doc, existing);
  },

  async afterWrite(ctx, written, existing) {
    if (written.status === TICKET_STATUS.closed && existing?.doc.status !== TICKET_STATUS.closed) {
      await closeTicketEffects(ctx, written);
      await nextPeriodicTicket(ctx, written);
    }
  },

  listConditions: (query) => ticketListConditions(query),
  opnames: { bulk_import: ticketBulkImport() },
  patchOpnames: { quick_actions: quickActions },
  queries: ticketQueries,
  put: putServicePointPhoto,
  removals: servicePointPhotoRemovals,
});
