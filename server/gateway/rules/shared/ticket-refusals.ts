import { HttpError } from '../../http-error.ts';

/**
 * The refusals of the ticket rules: the catalogue's English text (spec 02 §8, word for word where the
 * spec has it) and the key the app shows in the user's language (`catalogue.<key>`).
 */
const messages = {
  ticket_sp_parked: 'Unable to create ticket, status is Parked',
  ticket_compartment_open: 'There is a ticket against the compartment, decline or close it',
  ticket_investigate_on_hold: "Save failed: remove the ticket from 'On hold' before setting 'Investigate'",
  ticket_hardware_required: 'A hardware unit is required',
  ticket_hardware_or_pinpad_required: 'A hardware unit or PIN pad is required',
  ticket_units_required: 'An installation ticket needs at least one planned hardware unit',
  ticket_unit_not_at_sp: 'The hardware unit is not at this service point',
  ticket_unit_not_planned: 'The hardware unit is not planned for installation at this service point',
  ticket_unit_not_installed: 'The hardware unit is not installed at this service point',
  ticket_pinpad_not_at_sp: 'The PIN pad is not at this service point',
  ticket_sp_has_pinpad: 'The service point already has a PIN pad',
  ticket_sp_open_pinpad_ticket: 'The service point already has an open PIN pad ticket',
  ticket_compartment_not_of_unit: 'The compartment is not in this hardware unit',
  ticket_deadline_past: 'The deadline cannot be before today',
  ticket_earliest_after_deadline: 'The earliest installation date must be before the installation deadline',
  ticket_warranty_comment: 'A warranty change needs a comment',
  ticket_warranty_operator: 'Only the operator company changes the warranty',
  ticket_operator_provider: 'The operator does not work for this maintenance provider',
  ticket_operator_inactive: 'The operator is not active',
  ticket_provider_required: 'A maintenance provider is required',
  ticket_deadline_step: 'The deadline time is on the hour or half hour (10:00, 10:30)',
  ticket_type_fixed: 'The ticket type and service point cannot be changed',
  ticket_closed_final: 'A closed ticket cannot be changed',
  ticket_verification_by_provider: 'A maintenance provider cannot verify or decline tickets',
  hw_contains_parcels: 'The hardware unit cannot be removed as it contains one or more parcels',
  hw_open_ticket: 'This hardware unit has an open ticket',
  ticket_courier_option: 'Your role cannot create courier tickets',
  ticket_service_option: 'Your role cannot create service tickets',
  ticket_inspection_option: 'Your role cannot order compartment inspections',
  ticket_periodic_option: 'Your role cannot switch periodic tickets',
  hw_parcels_no_room:
    'The parcels cannot be moved: no other hardware unit of the service point has a free compartment for them',
} as const;

export type TicketRefusal = keyof typeof messages;

/** A refusal of the record's state (409): nothing about the body can make it pass now. */
export const ticketStateRefusal = (key: TicketRefusal) =>
  new HttpError(409, messages[key], { message_key: `catalogue.${key}` });

/** A refusal for lack of a feature option of the caller's role (403, spec 01 §6). */
export const ticketOptionRefusal = (key: TicketRefusal) =>
  new HttpError(403, messages[key], { message_key: `catalogue.${key}` });

/** A refusal of one field's value (422), shown under the field and above the form. */
export const ticketFieldRefusal = (key: TicketRefusal, field: string, status = 422) =>
  new HttpError(status, messages[key], {
    message_key: `catalogue.${key}`,
    errors: { [field]: { message: `catalogue.${key}` } },
  });

export const ticketMessage = (key: TicketRefusal) => messages[key];
