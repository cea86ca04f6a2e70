import { useEffect, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useDataProvider, useGetList, useNotify, useTranslate } from 'react-admin';
import { searchPageSizeOf } from '../../schema/ui/registry.ts';
import type { ServicePoint } from '../../types/generated/service-point.ts';
import type { StoredHardwareUnit } from './service-point-hardware.ts';

/** Spec 02 §9: type-ahead waits 300 ms after the last key. */
const TYPE_AHEAD_MS = 300;
/** Hardware status 1: in the warehouse, at no service point. */
const IN_WAREHOUSE = 1;

type Unit = StoredHardwareUnit & { id: number };

/**
 * Picks an unassigned unit (the hardware search, 10 at a time) and plans it at the service point
 * through the unit's own write path. A refusal of the gateway (status, limit) stays in the dialog.
 */
export function AddHardwareUnitDialog({
  servicePoint,
  onClose,
  onAdded,
}: {
  servicePoint: ServicePoint;
  onClose: () => void;
  onAdded: () => Promise<void>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Unit | null>(null);
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), TYPE_AHEAD_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const { data: options = [], isPending } = useGetList<Unit>('hardware', {
    pagination: { page: 1, perPage: searchPageSizeOf('hardware') },
    sort: { field: 'hardware_id', order: 'ASC' },
    filter: { status: IN_WAREHOUSE, ...(search && { q: search }) },
  });

  const plan = async () => {
    if (!picked) return;
    setBusy(true);
    setRefusal(undefined);
    try {
      await dataProvider.update('hardware', {
        id: picked.id,
        data: { service_point_id: servicePoint.service_point_id },
        previousData: picked,
      });
      notify('service_points.hardware.added', { type: 'success', messageArgs: { name: picked.name } });
      await onAdded();
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="add-unit-title">
      <DialogTitle id="add-unit-title">
        {translate('service_points.hardware.add_title', { name: servicePoint.name })}
      </DialogTitle>
      <DialogContent>
        {refusal && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {refusal}
          </Alert>
        )}
        <Autocomplete
          options={options}
          value={picked}
          loading={isPending}
          filterOptions={(all) => all}
          getOptionLabel={(unit) => [unit.name, unit.model_name].filter(Boolean).join(' · ')}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          noOptionsText={translate('service_points.hardware.add_none')}
          onInputChange={(_, value, reason) => {
            if (reason === 'input') setTyped(value);
          }}
          onChange={(_, value) => {
            setPicked(value);
            setRefusal(undefined);
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              autoFocus
              margin="dense"
              label={translate('service_points.hardware.add_search')}
              helperText={translate('service_points.hardware.add_help')}
            />
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('service_points.hardware.cancel')}</Button>
        <Button variant="contained" disabled={!picked || busy} onClick={() => void plan()}>
          {translate('service_points.hardware.add_confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
