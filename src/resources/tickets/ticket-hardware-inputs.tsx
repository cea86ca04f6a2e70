import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { CheckboxGroupInput, NumberInput, SelectInput, useTranslate } from 'react-admin';
import { Typography } from '@mui/material';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { TICKET_TYPE } from '../../schema/ticket-badge.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';

interface UnitAtServicePoint {
  hardware_id: number;
  name: string;
  status?: number;
}

const PLANNED = 2;
const INSTALLED = new Set([3, 4]);

interface HardwareAt {
  units: UnitAtServicePoint[];
  pinpad: { pinpad_id: number; name: string } | null;
}

const NOTHING: HardwareAt = { units: [], pinpad: null };

/**
 * The units and the PIN pad at the form's service point (`GET maintenance/tickets?opname=hardware`), which
 * whoever reads tickets may ask for a service point they see: a maintenance provider picks among them
 * without the hardware screens.
 */
function useHardwareAt(servicePointId: unknown): HardwareAt {
  const dataProvider = useGateway();
  const key = servicePointId === undefined || servicePointId === null ? '' : String(servicePointId);
  const [loaded, setLoaded] = useState<{ key: string; hardware: HardwareAt }>();
  useEffect(() => {
    if (!key) return undefined;
    let current = true;
    dataProvider
      .action<{ data: HardwareAt }>('tickets', 'GET', 'hardware', undefined, { sp_id: key })
      .then((answer) => current && setLoaded({ key, hardware: answer.data ?? NOTHING }))
      .catch(() => current && setLoaded({ key, hardware: NOTHING }));
    return () => {
      current = false;
    };
  }, [dataProvider, key]);
  return key && loaded?.key === key ? loaded.hardware : NOTHING;
}

const choicesOf = (units: UnitAtServicePoint[]) => units.map((unit) => ({ id: unit.hardware_id, name: unit.name }));

/** `x-input.kind: "ticket-unit"`: the hardware unit, among those at the service point the ticket is for. */
export function TicketUnitInput({ field }: InputKindProps) {
  const servicePointId = useWatch({ name: 'sp_id' });
  const ticketType = useWatch({ name: 'ticket_type' }) as number | undefined;
  const { units } = useHardwareAt(servicePointId);
  if (ticketType === TICKET_TYPE.install) return null;
  const offered =
    ticketType === TICKET_TYPE.uninstallHardware ? units.filter((unit) => INSTALLED.has(unit.status ?? 0)) : units;
  return (
    <SelectInput
      source={field.source}
      choices={choicesOf(offered)}
      disabled={!servicePointId}
      // Its helper line kept (empty) once a service point is chosen: the next field does not touch it.
      helperText={servicePointId ? undefined : 'tickets.hints.pick_service_point'}
      emptyText="tickets.hints.none"
    />
  );
}

/** `x-input.kind: "ticket-units"`: an installation ticket's units, among those planned at its service point. */
export function TicketUnitsInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const servicePointId = useWatch({ name: 'sp_id' });
  const chosen = (useWatch({ name: field.source }) as number[] | undefined) ?? [];
  const { units } = useHardwareAt(servicePointId);
  // Units already installed by this ticket stay listed, so that a closed ticket reads as it was.
  const offered = units.filter((unit) => unit.status === PLANNED || chosen.includes(unit.hardware_id));
  if (!offered.length) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        {translate(servicePointId ? 'tickets.hints.no_planned_units' : 'tickets.hints.pick_service_point')}
      </Typography>
    );
  }
  return <CheckboxGroupInput source={field.source} choices={choicesOf(offered)} />;
}

/**
 * `x-input.kind: "ticket-pinpad"`: the PIN pad of the service point, or (to bring one from the
 * warehouse) a PIN pad's id typed in; the gateway checks it is free and the service point has none.
 */
export function TicketPinpadInput({ field }: InputKindProps) {
  const servicePointId = useWatch({ name: 'sp_id' });
  const { pinpad } = useHardwareAt(servicePointId);
  if (pinpad) {
    return (
      <SelectInput
        source={field.source}
        choices={[{ id: pinpad.pinpad_id, name: pinpad.name }]}
        emptyText="tickets.hints.none"
      />
    );
  }
  return <NumberInput source={field.source} helperText="tickets.hints.warehouse_pinpad" />;
}
