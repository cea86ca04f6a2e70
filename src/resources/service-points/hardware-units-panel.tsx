import { useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { useCanAccess, useCreatePath, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { features } from '../../schema/features.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { featureOption } from '../../schema/permissions.ts';
import { CompartmentGrid, compartmentKeys, type UnitCompartments } from '../../schema/ui/compartment-grid.tsx';
import { choicesById, LookupBadgeList } from '../../schema/ui/lookup-badges.tsx';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';
import type { ServicePoint } from '../../types/generated/service-point.ts';
import { AddHardwareUnitDialog } from './add-hardware-unit-dialog.tsx';
import { addUnitBlocker, installationAction, type StoredHardwareUnit } from './service-point-hardware.ts';

const BADGES = 'webtool/lists?type=badges';
const PINPAD_MODELS = 'webtool/lists?type=pinpad_models';
const PLANNED = 2;

/** The units at the service point and their compartments, each query refreshed after an action. */
function useServicePointHardware(servicePointId: number | undefined) {
  const caller = useGateway();
  const enabled = servicePointId !== undefined;
  const units = useQuery({
    queryKey: ['service-point-hardware', servicePointId],
    enabled,
    retry: false,
    queryFn: async () =>
      (
        await caller.call<{ data: StoredHardwareUnit[] }>({
          method: 'GET',
          path: 'webtool/service_points',
          query: { opname: 'hardware_units', service_point_id: String(servicePointId) },
        })
      ).data,
  });
  const compartments = useQuery({
    queryKey: compartmentKeys.of({ service_point_id: servicePointId }),
    enabled,
    retry: false,
    queryFn: async () =>
      (
        await caller.call<{ data: UnitCompartments[] }>({
          method: 'GET',
          path: 'webtool/service_points',
          query: { opname: 'get_compartments', service_point_id: String(servicePointId) },
        })
      ).data,
  });
  return { units, compartments };
}

/**
 * The Hardware units tab of a service point: its units, installed and planned, each with its badges,
 * its locker drawn door by door and a link to its own page; adding a unit from the warehouse, marking
 * units for installation or uninstallation, dropping the plan; and the PIN pad when the role's
 * `pinpad` option shows it. Whoever sees the service point sees its hardware; only who may edit both
 * the service point and hardware changes it.
 */
export function HardwareUnitsPanel() {
  const record = useRecordContext<ServicePoint>();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const { canAccess: mayEditServicePoint } = useCanAccess({ resource: 'service-points', action: 'edit' });
  const { canAccess: mayEditHardware } = useCanAccess({ resource: 'hardware', action: 'edit' });
  const { canAccess: mayReadHardware } = useCanAccess({ resource: 'hardware', action: 'show' });
  const permissions = useProfile();
  const showPinpad = permissions?.permissions
    ? featureOption(permissions.permissions, features.servicepoints, 'pinpad')
    : false;
  const servicePointId = record?.service_point_id;
  const { units, compartments } = useServicePointHardware(servicePointId);
  const badgeChoices = choicesById(useLookupChoices(BADGES));
  const mayChange = mayEditServicePoint === true && mayEditHardware === true;

  if (!record || servicePointId === undefined) return null;
  // The service point too, for its derived badges: the form keeps what the user typed (keepDirtyValues).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['service-point-hardware', servicePointId] }),
      queryClient.invalidateQueries({ queryKey: compartmentKeys.all() }),
      queryClient.invalidateQueries({ queryKey: ['service-points', 'getOne'] }),
    ]);

  if (units.isPending) {
    return (
      <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography>{translate('service_points.hardware.loading')}</Typography>
      </Stack>
    );
  }
  if (units.error) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void units.refetch()}>
            {translate('service_points.hardware.retry')}
          </Button>
        }
      >
        {translate('service_points.hardware.failed', { message: units.error.message })}
      </Alert>
    );
  }
  const list = units.data;
  const gridOf = new Map((compartments.data ?? []).map((unit) => [unit.hardware_id, unit]));
  const max = record.max_hardware_units ?? 7;
  const planned = list.filter((unit) => unit.status === PLANNED);
  return (
    <Box sx={{ width: '100%' }}>
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ alignItems: 'center', mb: 2 }}>
        <Typography component="h2" variant="h6">
          {translate('service_points.hardware.title')}
        </Typography>
        <Typography color="text.secondary">
          {translate('service_points.hardware.count', { count: list.length, max, smart_count: max })}
        </Typography>
      </Stack>
      {mayChange && <PlanActions record={record} units={list} planned={planned.length} onChanged={refresh} />}
      {showPinpad && <PinpadSummary record={record} />}
      {!list.length ? (
        <Typography sx={{ my: 2 }}>{translate('service_points.hardware.empty')}</Typography>
      ) : (
        list.map((unit) => (
          <UnitCard
            key={unit.hardware_id}
            unit={unit}
            servicePointId={servicePointId}
            badges={<LookupBadgeList values={unit.badges_v2 ?? []} choices={badgeChoices} />}
            grid={gridOf.get(unit.hardware_id!)}
            mayChange={mayChange}
            linkTo={mayEditHardware ? 'edit' : mayReadHardware ? 'show' : undefined}
            onChanged={refresh}
          />
        ))
      )}
    </Box>
  );
}

function PlanActions({
  record,
  units,
  planned,
  onChanged,
}: {
  record: ServicePoint;
  units: StoredHardwareUnit[];
  planned: number;
  onChanged: () => Promise<unknown>;
}) {
  const translate = useTranslate();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const blocker = addUnitBlocker(record, units.length);
  return (
    <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ alignItems: 'center', mb: 2 }}>
      <Button
        variant="contained"
        disabled={blocker !== undefined}
        aria-describedby={blocker ? 'add-unit-blocker' : undefined}
        onClick={() => setAdding(true)}
      >
        {translate('service_points.hardware.add')}
      </Button>
      {planned > 0 && (
        <Button color="error" variant="outlined" onClick={() => setDeleting(true)}>
          {translate('service_points.hardware.delete_plan')}
        </Button>
      )}
      {blocker && (
        <Typography id="add-unit-blocker" variant="body2" color="text.secondary" sx={{ flexBasis: '100%' }}>
          {translate(blocker.message, blocker.args)}
        </Typography>
      )}
      {adding && (
        <AddHardwareUnitDialog
          servicePoint={record}
          onClose={() => setAdding(false)}
          onAdded={async () => {
            setAdding(false);
            await onChanged();
          }}
        />
      )}
      {deleting && (
        <DeletePlanDialog
          servicePointId={record.service_point_id!}
          planned={planned}
          onClose={() => setDeleting(false)}
          onDeleted={async () => {
            setDeleting(false);
            await onChanged();
          }}
        />
      )}
    </Stack>
  );
}

function DeletePlanDialog({
  servicePointId,
  planned,
  onClose,
  onDeleted,
}: {
  servicePointId: number;
  planned: number;
  onClose: () => void;
  onDeleted: () => Promise<void>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const caller = useGateway();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const confirm = async () => {
    setBusy(true);
    setRefusal(undefined);
    try {
      await caller.call({
        method: 'DELETE',
        path: 'webtool/service_points',
        body: { opname: 'installation_plan', service_point_id: servicePointId },
      });
      notify('service_points.hardware.plan_deleted', { type: 'success' });
      await onDeleted();
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="delete-plan-title">
      <DialogTitle id="delete-plan-title">{translate('service_points.hardware.delete_plan_title')}</DialogTitle>
      <DialogContent>
        {refusal && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {refusal}
          </Alert>
        )}
        <DialogContentText>
          {translate('service_points.hardware.delete_plan_text', { smart_count: planned })}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('service_points.hardware.cancel')}</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={() => void confirm()}>
          {translate('service_points.hardware.delete_plan_confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function UnitCard({
  unit,
  servicePointId,
  badges,
  grid,
  mayChange,
  linkTo,
  onChanged,
}: {
  unit: StoredHardwareUnit;
  servicePointId: number;
  badges: ReactNode;
  grid: UnitCompartments | undefined;
  mayChange: boolean;
  /** The unit's own page the user may open, if any. */
  linkTo: 'edit' | 'show' | undefined;
  onChanged: () => Promise<unknown>;
}) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const notify = useNotify();
  const caller = useGateway();
  const [busy, setBusy] = useState(false);
  const action = installationAction(unit);
  const name = unit.name ?? String(unit.hardware_id);
  const mark = async () => {
    setBusy(true);
    try {
      await caller.call({
        method: 'PATCH',
        path: 'webtool/service_points',
        body: {
          opname: action.opname,
          service_point_id: servicePointId,
          hardware_id: unit.hardware_id,
          version: unit.version,
        },
      });
      notify('service_points.hardware.marked', { type: 'success', messageArgs: { name } });
      await onChanged();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={name}
      data-hardware-id={unit.hardware_id}
      sx={{ p: 2, mb: 2 }}
    >
      <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {linkTo ? (
            <Link
              component={RouterLink}
              to={createPath({ resource: 'hardware', id: unit.hardware_id!, type: linkTo })}
              aria-label={translate('service_points.hardware.open_unit', { name })}
            >
              {name}
            </Link>
          ) : (
            name
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('service_points.hardware.model')}: {unit.model_name ?? '-'}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('service_points.hardware.status')}:{' '}
          {unit.status === undefined ? '-' : translate(`choices.hardware_status.${unit.status}`)}
        </Typography>
        {mayChange && (
          <Button size="small" variant="outlined" disabled={busy} onClick={() => void mark()} sx={{ ml: 'auto' }}>
            {translate(action.label)}
          </Button>
        )}
      </Stack>
      <Box sx={{ mb: 1 }}>{badges}</Box>
      {grid && <CompartmentGrid unit={grid} />}
    </Paper>
  );
}

function PinpadSummary({ record }: { record: ServicePoint }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { canAccess: mayOpenPinpad } = useCanAccess({ resource: 'pinpad', action: 'edit' });
  const models = choicesById(useLookupChoices(PINPAD_MODELS));
  const id = record.pinpad_id;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="pinpad-title" sx={{ p: 2, mb: 2 }}>
      <Typography id="pinpad-title" component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {translate('service_points.hardware.pinpad.title')}
      </Typography>
      {id === undefined ? (
        <Typography>{translate('service_points.hardware.pinpad.none')}</Typography>
      ) : (
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
          {mayOpenPinpad ? (
            <Link component={RouterLink} to={createPath({ resource: 'pinpad', id, type: 'edit' })}>
              {translate('service_points.hardware.pinpad.id', { id })}
            </Link>
          ) : (
            <Typography>{translate('service_points.hardware.pinpad.id', { id })}</Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            {translate('service_points.hardware.pinpad.model')}:{' '}
            {models.get(String(record.pinpad_model_id))?.name ?? record.pinpad_model_id ?? '-'}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('service_points.hardware.pinpad.status')}:{' '}
            {record.pinpad_status === undefined ? '-' : translate(`choices.hardware_status.${record.pinpad_status}`)}
          </Typography>
          <Typography variant="body2">
            {translate(
              record.active_pinpad
                ? 'service_points.hardware.pinpad.active'
                : 'service_points.hardware.pinpad.inactive',
            )}
          </Typography>
        </Stack>
      )}
    </Paper>
  );
}
