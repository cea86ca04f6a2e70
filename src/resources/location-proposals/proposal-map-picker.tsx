import { Alert } from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { useFormContext, useWatch } from 'react-hook-form';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { MapPickerInput } from '../../schema/ui/address/map-picker-input.tsx';

const isCoordinate = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/**
 * A proposal's map (spec 02 §5, §7): on a stored proposal, the place picked on the map is saved at once
 * with `PATCH webtool/locations {opname: "update_latlng", proposal_id, latitude, longitude, version}`; the
 * record reloads and the form keeps what else was typed. Until both coordinates are set it asks for
 * them ('Please select coordinates on the map').
 */
export function ProposalMapPicker(props: InputKindProps) {
  const record = useRecordContext();
  const provider = useGateway();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const { resetField } = useFormContext();
  const [latitude, longitude] = useWatch({ name: [props.field.source, 'longitude'] }) as unknown[];
  const proposalId = record?.proposal_id ?? record?.id;

  async function save(picked: number, pickedLongitude: number) {
    try {
      await provider.action('locations', 'PATCH', 'update_latlng', {
        proposal_id: proposalId,
        latitude: picked,
        longitude: pickedLongitude,
        ...(typeof record?.version === 'number' ? { version: record.version } : {}),
      });
      // Saved: the two inputs are no longer unsaved changes of the form.
      resetField(props.field.source, { defaultValue: picked });
      resetField('longitude', { defaultValue: pickedLongitude });
      notify('location_proposals.coordinates_saved', { type: 'success' });
    } catch (error) {
      // The gateway client has already translated the catalogue message.
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      refresh();
    }
  }

  return (
    <>
      <MapPickerInput {...props} onPicked={props.mode === 'edit' && proposalId !== undefined ? save : undefined} />
      {!(isCoordinate(latitude) && isCoordinate(longitude)) && (
        <Alert severity="info" sx={{ maxWidth: 720 }}>
          {translate('catalogue.select_coordinates')}
        </Alert>
      )}
    </>
  );
}
