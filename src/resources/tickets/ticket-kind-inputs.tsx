import { useMemo } from 'react';
import { SelectInput, useRecordContext } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { enumChoices } from '../../schema/ui/choices.ts';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';
import { allowedKindChoice } from '../../schema/ticket-options.ts';

type KindField = 'ticket_type' | 'event_type' | 'job_type';

/**
 * `x-input.kind: "ticket-kind"`: the ticket type, event type and job type selects, offering only the
 * kinds the user's feature options allow (spec 01 §6, `src/schema/ticket-options.ts`): a Courier ticket
 * with the courier ticket option, the service event with the service ticket option, a compartment
 * inspection with its option. A saved ticket keeps its own value listed. The gateway refuses the same.
 */
export function TicketKindInput({ field }: InputKindProps) {
  const profile = useProfile();
  const record = useRecordContext();
  const source = field.source as KindField;
  const lookup = useLookupChoices(field.lookup?.source);
  const all = useMemo(() => (field.lookup ? lookup : enumChoices(field)), [field, lookup]);
  const stored = record?.[source] as unknown;
  const choices = useMemo(
    () => all.filter((choice) => allowedKindChoice(profile?.permissions, source, choice.id, stored)),
    [all, profile, source, stored],
  );
  return (
    <SelectInput
      source={source}
      choices={choices}
      translateChoice={!field.lookup}
      isRequired={source === 'ticket_type'}
      isLoading={Boolean(field.lookup) && !lookup.length}
    />
  );
}
