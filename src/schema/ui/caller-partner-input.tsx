import type { ReactElement } from 'react';
import { SelectInput, TextInput } from 'react-admin';
import { useProfile } from './profile.ts';
import type { FieldModel } from '../resource-model.ts';
import { enumChoices } from './choices.ts';

/** What the signed-in user's access profile says about its partner. */
/**
 * `x-input.callerPartner` (`"type"` or `"id"`): a partner (not the operator company) may only
 * name itself there, e.g. a carrier creating a webtool user; the input offers only its own
 * partner type, or holds its own partner id, shown by the partner's name. The operator company
 * gets the usual input.
 */
export function CallerPartnerInput({ field, otherwise }: { field: FieldModel; otherwise: ReactElement }) {
  const permissions = useProfile();
  if (!permissions || permissions.superAdmin || permissions.partnerType === 'operator') return otherwise;
  const ownId = field.input.callerPartner === 'type' ? permissions.partnerType : permissions.partner;
  // The role names the partner as text; a field of numeric ids (a hardware owner's) stores it as a number.
  const own = ownId !== undefined && (field.type === 'integer' || field.type === 'number') ? Number(ownId) : ownId;
  if (field.values) {
    return (
      <SelectInput
        source={field.source}
        choices={enumChoices(field).filter((choice) => choice.id === own)}
        defaultValue={own}
        readOnly
      />
    );
  }
  return (
    <TextInput
      source={field.source}
      label="form.own_partner"
      defaultValue={own}
      format={(value: unknown) => (String(value) === String(own) && permissions.partnerName) || value}
      readOnly
    />
  );
}
