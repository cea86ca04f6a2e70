import { lazy, Suspense, useState } from 'react';
import { Alert, Box, Link, List, ListItemButton, ListItemText, Skeleton, Stack, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { NumberInput, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { boundaryBox, type AddressSuggestion } from '../../../contract/addresses.ts';
import type { InputKindProps } from '../input-kinds.tsx';
import { roundedDegrees, useAddressSuggestions, useApplySuggestion, useServicePointOption } from './address-lookup.ts';
import { centreOf, MAP_TILE_URL, streetViewUrl } from './map-settings.ts';

/** Leaflet loads with the first service point form that shows the map, not with the app. */
const CoordinateMap = lazy(() => import('./coordinate-map.tsx'));

/** Half the side of the box searched for addresses around a click, in degrees (a few hundred metres). */
const NEARBY_DEGREES = 0.004;

const isCoordinate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * `x-input.kind: "map-picker"` on a service point's latitude: the map (option `address_mapping`), the
 * latitude as a number (the longitude input follows), and a street view link (option `street_view`).
 * With `address_autocomplete` off, a place picked on the map lists the nearest known addresses, one
 * of which validates the address; the map is then shown whatever `address_mapping` says, as the
 * only way to validate one.
 */
export function MapPickerInput({
  field,
  onPicked,
}: InputKindProps & {
  /** Called with the place once it is picked on the map (a proposal saves it at once: update_latlng). */
  onPicked?: (latitude: number, longitude: number) => unknown;
}) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const autocomplete = useServicePointOption('address_autocomplete');
  const mapping = useServicePointOption('address_mapping');
  const streetView = useServicePointOption('street_view');
  const suggest = useAddressSuggestions();
  const applySuggestion = useApplySuggestion();
  const [latitude, longitude, country] = useWatch({ name: [field.source, 'longitude', 'country'] }) as unknown[];
  const [nearby, setNearby] = useState<AddressSuggestion[]>();
  const [lookupFailed, setLookupFailed] = useState(false);
  const position =
    isCoordinate(latitude) && isCoordinate(longitude) ? ([latitude, longitude] as [number, number]) : undefined;
  const [centreLatitude, centreLongitude] = centreOf(country);

  async function pick(pickedLatitude: number, pickedLongitude: number) {
    const [lat, lng] = [roundedDegrees(pickedLatitude), roundedDegrees(pickedLongitude)];
    setValue(field.source, lat, { shouldDirty: true, shouldValidate: true });
    setValue('longitude', lng, { shouldDirty: true, shouldValidate: true });
    void onPicked?.(lat, lng);
    if (autocomplete) return;
    try {
      setLookupFailed(false);
      setNearby(
        await suggest(
          '',
          boundaryBox(lat - NEARBY_DEGREES, lng - NEARBY_DEGREES * 2, lat + NEARBY_DEGREES, lng + NEARBY_DEGREES * 2),
        ),
      );
    } catch {
      setNearby(undefined);
      setLookupFailed(true);
    }
  }

  function choose(address: AddressSuggestion) {
    // The place the user clicked is the service point's; the address only names it.
    applySuggestion({
      ...address,
      latitude: position?.[0] ?? address.latitude,
      longitude: position?.[1] ?? address.longitude,
    });
    setNearby(undefined);
  }

  return (
    <Stack spacing={1} sx={{ width: '100%', my: 1 }}>
      {(mapping || !autocomplete) && (
        <Suspense fallback={<Skeleton variant="rounded" height={320} sx={{ maxWidth: 720 }} />}>
          <CoordinateMap
            position={position}
            centre={[centreLatitude, centreLongitude]}
            onPick={pick}
            label={translate('service_points.map.map_label')}
            markerLabel={translate('service_points.map.marker')}
          />
          {!MAP_TILE_URL && (
            <Typography variant="caption" color="text.secondary">
              {translate('service_points.map.no_tiles')}
            </Typography>
          )}
        </Suspense>
      )}
      {lookupFailed && <Alert severity="error">{translate('service_points.map.lookup_failed')}</Alert>}
      {nearby && (
        <Box sx={{ maxWidth: 720 }}>
          <Typography variant="subtitle2">
            {translate(nearby.length ? 'service_points.map.nearest_addresses' : 'service_points.map.no_nearby')}
          </Typography>
          <List dense aria-label={translate('service_points.map.nearest_addresses')}>
            {nearby.map((address) => (
              <ListItemButton key={address.address_id} onClick={() => choose(address)}>
                <ListItemText primary={address.label} />
              </ListItemButton>
            ))}
          </List>
        </Box>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <NumberInput source={field.source} step="any" />
        {streetView && position && (
          <Link href={streetViewUrl(position[0], position[1])} target="_blank" rel="noopener noreferrer">
            {translate('service_points.map.street_view')} <OpenInNewIcon fontSize="inherit" />
          </Link>
        )}
      </Stack>
    </Stack>
  );
}
