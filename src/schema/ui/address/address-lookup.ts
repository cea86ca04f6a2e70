import { useCallback } from 'react';
import { useResourceContext } from 'react-admin';
import { useProfile } from '../profile.ts';
import { useGateway } from '../gateway-api.ts';
import { useFormContext } from 'react-hook-form';
import type { AddressSuggestion } from '../../../contract/addresses.ts';
import { features } from '../../features.ts';
import { featureOption } from '../../permissions.ts';

/** Spec 01 §9: the type-ahead waits this long after the last key before it asks. */
export const TYPE_AHEAD_MS = 300;

/**
 * `GET webtool/service_points?opname=address`: the suggestions for a text within a boundary, through
 * the endpoint of the resource on screen (a scout's form calls its own).
 */
export function useAddressSuggestions() {
  const dataProvider = useGateway();
  const resource = useResourceContext() ?? 'service-points';
  return useCallback(
    async (text: string, boundary: string) =>
      (
        await dataProvider.action<{ data: AddressSuggestion[] }>(resource, 'GET', 'address', undefined, {
          text,
          boundary,
        })
      ).data,
    [dataProvider, resource],
  );
}

/**
 * A service point option of spec 01 §6 for the signed-in user. Address autocomplete and address
 * mapping are the tool's usual way of working: on unless a policy turns them off.
 */
export function useServicePointOption(option: 'address_autocomplete' | 'address_mapping' | 'street_view') {
  const permissions = useProfile();
  const fallback = option !== 'street_view';
  return permissions?.permissions
    ? featureOption(permissions.permissions, features.servicepoints, option, fallback)
    : fallback;
}

/** Six decimals: about 10 cm, as precise as a click on the map can be. */
export const roundedDegrees = (degrees: number) => Number(degrees.toFixed(6));

/**
 * Fills the address fields of the form from a picked suggestion; `address_id` marks the address as
 * validated until the address, zip or city is typed over.
 */
export function useApplySuggestion() {
  const { setValue } = useFormContext();
  return useCallback(
    (suggestion: AddressSuggestion) => {
      const set = (field: string, value: unknown) =>
        setValue(field, value, { shouldDirty: true, shouldValidate: true });
      set('address', suggestion.address);
      set('zip', suggestion.postal_code);
      set('city', suggestion.city);
      if (suggestion.municipality_name) set('municipality', suggestion.municipality_name);
      if (suggestion.region_id !== null) set('region_id', suggestion.region_id);
      set('latitude', suggestion.latitude);
      set('longitude', suggestion.longitude);
      set('address_id', suggestion.address_id);
    },
    [setValue],
  );
}
