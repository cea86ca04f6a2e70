import { useEffect } from 'react';
import { Box, Button, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useFieldArray, useFormState, useWatch } from 'react-hook-form';
import {
  BooleanInput,
  NumberInput,
  SelectInput,
  useGetMany,
  useRecordContext,
  useTranslate,
  ValidationError,
  type ValidationErrorMessage,
} from 'react-admin';
import type { InputKindProps, ValueKindProps } from '../../schema/ui/input-kinds.tsx';
import { choicesById, LookupBadgeList } from '../../schema/ui/lookup-badges.tsx';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';
import type { ServicePointCarrierSetting } from '../../types/generated/service-point.ts';

const CARRIERS = 'webtool/lists?type=carrier_list';
const ALLOCATIONS = ['nearest', 'selected', 'first_free'] as const;

/**
 * The Carrier settings tab's per-carrier part (`x-input.kind: carrier-settings` on `carrier_settings`):
 * one row per carrier with access that has settings of its own here; a carrier without uses its own
 * (the carrier's expiry days shown as the placeholder). A carrier taken out of Carriers loses its row,
 * so that the form never saves settings the gateway refuses. Saved with the form, in one PATCH.
 */
export function CarrierSettingsInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const source = field.source;
  const access = (useWatch({ name: 'carriers_access' }) as number[] | null | undefined) ?? [];
  const { fields, append, remove } = useFieldArray({ name: source, keyName: 'row_key' });
  const settings = (useWatch({ name: source }) as ServicePointCarrierSetting[] | null | undefined) ?? [];
  const { errors } = useFormState({ name: source });
  const carriers = choicesById(useLookupChoices(CARRIERS));
  const { data: carrierRecords = [] } = useGetMany('carriers', { ids: access });
  const ownExpiry = new Map(carrierRecords.map((carrier) => [Number(carrier.id), carrier.expiry_days as number]));

  const accessKey = access.join(',');
  useEffect(() => {
    const allowed = new Set(accessKey ? accessKey.split(',').map(Number) : []);
    const gone = settings.flatMap((setting, index) => (allowed.has(setting.carrier_id) ? [] : [index]));
    if (gone.length) remove(gone);
    // Only a change of Carriers prunes: the rows' own edits never remove a row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accessKey]);

  const withSettings = new Set(settings.map((setting) => setting.carrier_id));
  const withoutSettings = access.filter((carrier) => !withSettings.has(carrier));
  const fieldError = (errors as Record<string, { message?: unknown } | undefined>)[source];
  const topError = fieldError && typeof fieldError.message !== 'undefined' ? fieldError.message : undefined;
  const allocationChoices = ALLOCATIONS.map((id) => ({ id, name: `choices.allocation_behaviour.${id}` }));

  return (
    <Box component="section" aria-labelledby="carrier-settings-title" sx={{ width: '100%', mt: 2 }}>
      <Typography id="carrier-settings-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate('service_points.carrier_settings.title')}
      </Typography>
      {topError !== undefined && (
        <Typography role="alert" color="error" variant="body2" sx={{ mb: 1 }}>
          <ValidationError error={topError as ValidationErrorMessage} />
        </Typography>
      )}
      {!access.length && <Typography>{translate('service_points.carrier_settings.empty')}</Typography>}
      {fields.map((row, index) => {
        const carrierId = settings[index]?.carrier_id;
        const expiry = ownExpiry.get(carrierId);
        const name = carriers.get(String(carrierId))?.name ?? String(carrierId);
        return (
          <Paper
            key={row.row_key}
            variant="outlined"
            component="fieldset"
            data-carrier-id={carrierId}
            aria-label={name}
            sx={{ p: 2, mb: 1.5, border: 1, borderColor: 'divider' }}
          >
            {/* No min/max attributes: the browser's own bubble would block the form's translated message. */}
            <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ alignItems: 'center' }}>
              <Box component="legend" sx={{ p: 0, minWidth: 140 }}>
                <LookupBadgeList values={[carrierId]} choices={carriers} />
              </Box>
              <BooleanInput
                source={`${source}.${index}.first_mile`}
                label="service_points.carrier_settings.first_mile"
                defaultValue
                helperText={false}
              />
              <BooleanInput
                source={`${source}.${index}.last_mile`}
                label="service_points.carrier_settings.last_mile"
                defaultValue
                helperText={false}
              />
              <NumberInput
                source={`${source}.${index}.expiry_days`}
                label="service_points.carrier_settings.expiry_days"
                step={1}
                placeholder={
                  expiry === undefined
                    ? undefined
                    : translate('service_points.carrier_settings.expiry_placeholder', { days: expiry })
                }
                InputLabelProps={{ shrink: true }}
                sx={{ width: 170 }}
              />
              <NumberInput
                source={`${source}.${index}.reserved_compartments`}
                label="service_points.carrier_settings.reserved_compartments"
                step={1}
                sx={{ width: 230 }}
              />
              <SelectInput
                source={`${source}.${index}.allocation_behaviour`}
                label="service_points.carrier_settings.allocation_behaviour"
                choices={allocationChoices}
                emptyText="service_points.carrier_settings.carrier_default"
                fullWidth={false}
                sx={{ minWidth: 220 }}
              />
              <Button size="small" onClick={() => remove(index)}>
                {translate('service_points.carrier_settings.reset', { name })}
              </Button>
            </Stack>
          </Paper>
        );
      })}
      {withoutSettings.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ alignItems: 'center', mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('service_points.carrier_settings.defaults')}
          </Typography>
          {withoutSettings.map((carrierId) => (
            <Button
              key={carrierId}
              size="small"
              variant="outlined"
              onClick={() => append({ carrier_id: carrierId, first_mile: true, last_mile: true })}
            >
              {translate('service_points.carrier_settings.customise', {
                name: carriers.get(String(carrierId))?.name ?? String(carrierId),
              })}
            </Button>
          ))}
        </Stack>
      )}
    </Box>
  );
}

/**
 * The per-carrier settings in the read-only view (a carrier's user, or anyone who may not edit): one
 * row per carrier with settings of its own, by name and colour; an unset value reads as the carrier's
 * own setting.
 */
export function CarrierSettingsValue({ field }: ValueKindProps) {
  const translate = useTranslate();
  const record = useRecordContext();
  const carriers = choicesById(useLookupChoices(CARRIERS));
  const settings = (record?.[field.source] ?? []) as ServicePointCarrierSetting[];
  if (!settings.length) {
    return <Typography variant="body2">{translate('service_points.carrier_settings.none_own')}</Typography>;
  }
  const label = (key: string) => translate(`service_points.carrier_settings.${key}`);
  const carrierDefault = label('carrier_default');
  const yesNo = (value: boolean | undefined) => translate(value === false ? 'table.no' : 'table.yes');
  return (
    <Table size="small" sx={{ width: 'auto' }} data-testid="carrier-settings">
      <TableHead>
        <TableRow>
          {['carrier', 'first_mile', 'last_mile', 'expiry_days', 'reserved_compartments', 'allocation_behaviour'].map(
            (key) => (
              <TableCell key={key} component="th" scope="col">
                {label(key)}
              </TableCell>
            ),
          )}
        </TableRow>
      </TableHead>
      <TableBody>
        {settings.map((setting) => (
          <TableRow key={setting.carrier_id} data-carrier-id={setting.carrier_id}>
            <TableCell component="th" scope="row">
              <LookupBadgeList values={[setting.carrier_id]} choices={carriers} />
            </TableCell>
            <TableCell>{yesNo(setting.first_mile)}</TableCell>
            <TableCell>{yesNo(setting.last_mile)}</TableCell>
            <TableCell>{setting.expiry_days ?? carrierDefault}</TableCell>
            <TableCell>{setting.reserved_compartments ?? 0}</TableCell>
            <TableCell>
              {setting.allocation_behaviour
                ? translate(`choices.allocation_behaviour.${setting.allocation_behaviour}`)
                : carrierDefault}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
