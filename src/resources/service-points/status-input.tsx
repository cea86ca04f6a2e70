import { SelectInput, useRecordContext } from 'react-admin';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { enumChoices } from '../../schema/ui/choices.ts';
import { useScoutForm } from '../../schema/ui/schema-form.tsx';
import { modelOf } from '../../schema/ui/registry.ts';

/** What a scout may set: proposing (New) and qualifying (Qualified) a location; the gateway enforces it. */
const SCOUT_STATUSES: readonly unknown[] = [1, 2];
/** Archived (0) and Terminated (9) come from their own actions (Terminate), never from this select. */
const RESERVED_STATUSES: readonly unknown[] = [0, 9];

/**
 * The service point status (spec 02 §4): frozen while the service point is on hold, with the reason next
 * to it; a scout chooses between New and Qualified only; Archived and Terminated are not offered (the
 * Terminate action terminates). The gateway refuses the same changes.
 */
export function StatusInput({ field, mode }: InputKindProps) {
  const record = useRecordContext();
  const scout = useScoutForm(modelOf('service-point'));
  const onHold = mode === 'edit' && record?.parked === true;
  const stored = mode === 'edit' ? record?.[field.source] : undefined;
  // A record already Archived or Terminated still shows its status; nobody picks either from here.
  const choices = enumChoices(field).filter(
    (choice) =>
      (!scout || SCOUT_STATUSES.includes(choice.id)) &&
      (!RESERVED_STATUSES.includes(choice.id) || choice.id === stored),
  );
  return (
    <SelectInput
      source={field.source}
      choices={choices}
      disabled={onHold}
      helperText={onHold ? 'catalogue.status_on_hold' : undefined}
      defaultValue={mode === 'create' ? field.defaultValue : undefined}
    />
  );
}
