import { features } from './features.ts';
import { featureOption, type PermissionSet } from './permissions.ts';
import { isServiceTicket, TICKET_TYPE, type TicketBadgeInput } from './ticket-badge.ts';

/**
 * The maintenance tickets' feature options of spec 01 §6, read once for the app (which hides what an
 * option leaves out) and the gateway (which refuses it or keeps the stored value): an option is on when a
 * granted policy of the tickets feature (its basic or advance id) configures it shown (`featureOption`).
 *
 * - `periodic_ticket`: the periodic service switch of the maintenance providers (the tickets list's
 *   "Periodic tickets" button, `PATCH partners/maintenance_provider update_mps_periodic_tickets`) and a
 *   ticket's regeneration in months (`x-input.option` in schemas/ticket.schema.json).
 * - `courier_ticket`: creating a Courier ticket (type 4), a courier's report of a compartment.
 * - `service_ticket`: a maintain ticket of the service event (630), a service visit rather than a fault.
 * - `compartment_inspection`: a ticket of the job type Compartment inspection (2).
 * - `error_type`, `notes_column`: a ticket's error type and internal notes, input and list column
 *   (`x-input.option`; the gateway keeps the stored value of a caller without the option).
 * - `uninstall_with_parcel_move`: closing an uninstall ticket of a unit that still holds parcels moves
 *   them to free compartments of the service point's other units (server/gateway/rules/tickets/ticket-parcel-move.ts)
 *   instead of refusing with "The hardware unit cannot be removed as it contains one or more parcels".
 */
export const TICKET_OPTIONS = {
  periodic: 'periodic_ticket',
  courier: 'courier_ticket',
  service: 'service_ticket',
  compartmentInspection: 'compartment_inspection',
  errorType: 'error_type',
  notesColumn: 'notes_column',
  parcelMove: 'uninstall_with_parcel_move',
} as const;

export type TicketOption = (typeof TICKET_OPTIONS)[keyof typeof TICKET_OPTIONS];

/** The job type (`webtool/lists?type=job_types`) of a compartment inspection. */
export const COMPARTMENT_INSPECTION_JOB_TYPE = 2;

/** Whether the caller's policies of the tickets feature switch the option on (off when none configures it). */
export const ticketOption = (set: PermissionSet | undefined, option: TicketOption): boolean =>
  set !== undefined && featureOption(set, features.maintenance_tickets, option);

export interface TicketKind extends TicketBadgeInput {
  job_type?: number | null;
}

/** The options a ticket of this kind needs: courier, service, compartment inspection. */
export function optionsNeededBy(ticket: TicketKind): TicketOption[] {
  const needed: TicketOption[] = [];
  if (ticket.ticket_type === TICKET_TYPE.courier) needed.push(TICKET_OPTIONS.courier);
  if (isServiceTicket(ticket)) needed.push(TICKET_OPTIONS.service);
  if (ticket.job_type === COMPARTMENT_INSPECTION_JOB_TYPE) needed.push(TICKET_OPTIONS.compartmentInspection);
  return needed;
}

/**
 * The first option a write needs and the caller lacks: a new ticket needs every option of its kind; an
 * edit only those its change brings (a service ticket stays editable by someone without the option, as
 * long as it stays a service ticket).
 */
export function missingTicketOption(
  set: PermissionSet | undefined,
  ticket: TicketKind,
  before?: TicketKind,
): TicketOption | undefined {
  const had = new Set(before ? optionsNeededBy(before) : []);
  return optionsNeededBy(ticket).find((option) => !had.has(option) && !ticketOption(set, option));
}

/**
 * The choices the ticket form offers for a kind field: those the caller's options allow, and the record's
 * own value (a saved courier ticket still reads as one).
 */
export function allowedKindChoice(
  set: PermissionSet | undefined,
  field: 'ticket_type' | 'event_type' | 'job_type',
  value: unknown,
  stored?: unknown,
): boolean {
  if (stored !== undefined && stored !== null && String(stored) === String(value)) return true;
  const id = Number(value);
  if (field === 'ticket_type' && id === TICKET_TYPE.courier) return ticketOption(set, TICKET_OPTIONS.courier);
  // The service event is a service visit on a maintain ticket; the form offers it only with the option.
  if (field === 'event_type' && isServiceTicket({ ticket_type: TICKET_TYPE.maintainHardware, event_type: id })) {
    return ticketOption(set, TICKET_OPTIONS.service);
  }
  if (field === 'job_type' && id === COMPARTMENT_INSPECTION_JOB_TYPE) {
    return ticketOption(set, TICKET_OPTIONS.compartmentInspection);
  }
  return true;
}
