import { useEffect, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, Labeled, ReferenceInput, SelectInput, TextField, useRecordContext } from 'react-admin';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { searchPageSizeOf } from '../../schema/ui/registry.ts';

const PROVIDER = 'maintenance_provider_id';

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * `x-input.kind: "ticket-service-point"`: on a new ticket, the service point searched by name among those
 * open to new work (`basic_sp_search`); choosing
 * it gives an empty maintenance provider the service point's, as a staff user expects (the gateway does
 * the same). A saved ticket's service point cannot change: it reads as the ticket's service point name,
 * which every reader of the ticket sees (a maintenance provider may not read that service point's record).
 */
export function TicketServicePointInput({ field, mode }: InputKindProps) {
  const { setValue, getValues } = useFormContext();
  if (mode === 'edit') {
    return (
      <Labeled source={field.source} label={`resources.tickets.fields.${field.source}`} sx={{ mb: 2 }}>
        <TextField source="sp_name" />
      </Labeled>
    );
  }
  return (
    <ReferenceInput
      source={field.source}
      reference={field.lookup?.resource ?? 'service-points'}
      perPage={searchPageSizeOf(field.lookup?.resource ?? 'service-points')}
      // The search helper's basic search (spec 02 §7): no archived or terminated service point to pick.
      filter={{ basic_sp_search: true }}
    >
      <AutocompleteInput
        optionText={field.lookup?.label ?? 'name'}
        noOptionsText="form.record_not_found"
        isRequired
        onChange={(_value: unknown, chosen: '' | Record<string, unknown> | undefined) => {
          const provider = chosen ? chosen[PROVIDER] : undefined;
          if (isSet(provider) && !isSet(getValues(PROVIDER))) setValue(PROVIDER, provider, { shouldDirty: true });
        }}
      />
    </ReferenceInput>
  );
}

interface OfferedOperator {
  id: number;
  name: string;
  code: string | null;
  active: boolean;
}

/**
 * `x-input.kind: "ticket-operator"`: the operator, among the active ones of the chosen maintenance
 * provider (`GET maintenance/tickets?opname=operators`); a saved ticket's own operator stays listed. A
 * change of the provider clears the operator, as the quick actions do; the gateway refuses an inactive
 * operator or one of another provider.
 */
export function TicketOperatorInput({ field, mode }: InputKindProps) {
  const calls = useGateway();
  const record = useRecordContext();
  const { setValue } = useFormContext();
  const provider = useWatch({ name: PROVIDER }) as unknown;
  const key = isSet(provider) ? String(provider) : '';
  const ticketId = mode === 'edit' ? record?.ticket_id : undefined;
  const [loaded, setLoaded] = useState<{ key: string; operators: OfferedOperator[] }>();
  useEffect(() => {
    if (!key) return undefined;
    let current = true;
    calls
      .action<{ data: OfferedOperator[] }>('tickets', 'GET', 'operators', undefined, {
        maintenance_provider_id: key,
        ticket_id: ticketId as number | undefined,
      })
      .then((answer) => current && setLoaded({ key, operators: answer.data ?? [] }))
      .catch(() => current && setLoaded({ key, operators: [] }));
    return () => {
      current = false;
    };
  }, [calls, key, ticketId]);

  // The provider changed after the form opened: its former operator no longer fits.
  const previous = useRef(key);
  useEffect(() => {
    if (previous.current !== key) setValue(field.source, null, { shouldDirty: true });
    previous.current = key;
  }, [key, field.source, setValue]);

  const operators = key && loaded?.key === key ? loaded.operators : [];
  return (
    <SelectInput
      source={field.source}
      choices={operators.map((operator) => ({
        id: operator.id,
        name: operator.code ? `${operator.name} (${operator.code})` : operator.name,
      }))}
      disabled={!key}
      helperText={key ? false : 'tickets.hints.pick_provider'}
      emptyText="tickets.hints.none"
    />
  );
}
