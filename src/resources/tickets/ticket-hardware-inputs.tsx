import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  CheckboxGroupInput,
  NumberInput,
  SelectInput,
  useDataProvider,
  useGetOne,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Typography } from '@mui/material';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { TICKET_TYPE } from '../../schema/ticket-badge.ts';

interface UnitAtServicePoint {
  hardware_id: number;
  name: string;
  status?: number;
}

interface UnitsProvider {
  action<T>(
    resource: string,
    method: 'GET',
    opname: string,
    body: undefined,
    query: Record<string, string>,
  ): Promise<T>;
}

const PLANNED = 2;
const INSTALLED = new Set([3, 4]);

/**
 * The units at the form's service point (`GET service_points?opname=hardware_units`), which whoever
 * sees the service point may read: a maintenance provider picks among them without the hardware screen.
 */
function useUnitsAt(servicePointId: unknown) {
  const dataProvider = useDataProvider() as unknown as UnitsProvider;
  const key = servicePointId === undefined || servicePointId === null ? '' : String(servicePointId);
  const [loaded, setLoaded] = useState<{ key: string; units: UnitAtServicePoint[] }>();
  useEffect(() => {
    if (!key) return undefined;
    let current = true;
    dataProvider
      .action<{ data: UnitAtServicePoint[] }>('service-points', 'GET', 'hardware_units', undefined, {
        service_point_id: key,
      })
      .then((answer) => current && setLoaded({ key, units: answer.data ?? [] }))
      .catch(() => current && setLoaded({ key, units: [] }));
    return () => {
      current = false;
    };
  }, [dataProvider, key]);
  return key && loaded?.key === key ? loaded.units : [];
}

const choicesOf = (units: UnitAtServicePoint[]) => units.map((unit) => ({ id: unit.hardware_id, name: unit.name }));

/** `x-input.kind: "ticket-unit"`: the hardware unit, among those at the service point the ticket is for. */
export function TicketUnitInput({ field }: InputKindProps) {
  const servicePointId = useWatch({ name: 'sp_id' });
  const ticketType = useWatch({ name: 'ticket_type' }) as number | undefined;
  const units = useUnitsAt(servicePointId);
  if (ticketType === TICKET_TYPE.install) return null;
  const offered =
    ticketType === TICKET_TYPE.uninstallHardware ? units.filter((unit) => INSTALLED.has(unit.status ?? 0)) : units;
  return (
    <SelectInput
      source={field.source}
      choices={choicesOf(offered)}
      disabled={!servicePointId}
      helperText={servicePointId ? false : 'tickets.hints.pick_service_point'}
      emptyText="tickets.hints.none"
    />
  );
}

/** `x-input.kind: "ticket-units"`: an installation ticket's units, among those planned at its service point. */
export function TicketUnitsInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const servicePointId = useWatch({ name: 'sp_id' });
  const chosen = (useWatch({ name: field.source }) as number[] | undefined) ?? [];
  const units = useUnitsAt(servicePointId);
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
  const { data: point } = useGetOne<RaRecord>(
    'service-points',
    { id: servicePointId as string },
    { enabled: Boolean(servicePointId) },
  );
  const padId = point?.pinpad_id as number | null | undefined;
  if (padId) {
    return (
      <SelectInput source={field.source} choices={[{ id: padId, name: `#${padId}` }]} emptyText="tickets.hints.none" />
    );
  }
  return <NumberInput source={field.source} helperText="tickets.hints.warehouse_pinpad" />;
}
