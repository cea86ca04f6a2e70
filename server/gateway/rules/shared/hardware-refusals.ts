import { SAVE_FAILED } from '../../../../src/contract/errors.ts';
import { HttpError } from '../../http-error.ts';

/**
 * The refusals of the hardware and PIN pad rules: the catalogue's English text (spec 02 §8, word for
 * word where the spec has it) and the key the app shows in the user's language.
 */
const messages = {
  hw_requires_uninstall: 'Hardware unit requires uninstallation from service point',
  hw_contains_parcels: 'The hardware unit cannot be removed as it contains one or more parcels',
  hw_open_ticket: 'This hardware unit has an open ticket',
  hw_terminated: 'A terminated hardware unit cannot be changed',
  hw_detach_by_ticket: 'Hardware leaves a service point only through an uninstall ticket',
  hw_partner_mismatch: 'partner_id must be the hardware owner of the record to delete',
  pinpad_sp_has_pinpad: 'The service point already has a PIN pad',
  pinpad_hw_has_pinpad: 'The hardware unit already has a PIN pad',
  pinpad_hw_not_at_sp: 'The hardware unit is not at this service point',
  hw_model_mismatch: 'The model does not fit this kind of hardware',
} as const;

export type HardwareRefusal = keyof typeof messages;

/** A refusal of the record's state (409): nothing about the body can make it pass now. */
export const stateRefusal = (key: HardwareRefusal) =>
  new HttpError(409, messages[key], { message_key: `catalogue.${key}` });

/** A refusal of one field's value (422), shown under the field and above the form. */
export const fieldRefusal = (key: HardwareRefusal, field: string) =>
  new HttpError(422, messages[key], {
    message_key: `catalogue.${key}`,
    errors: { [field]: { message: `catalogue.${key}` } },
  });

/** A field naming a record that does not exist. */
export const unknownReference = (field: string) =>
  new HttpError(422, SAVE_FAILED, { errors: { [field]: { message: 'validation.unknown_reference' } } });

/** `DELETE {partner_id}` (spec 02 §7): the partner must be the record's hardware owner. */
export const partnerMismatch = () =>
  new HttpError(400, messages.hw_partner_mismatch, { message_key: 'catalogue.hw_partner_mismatch' });
