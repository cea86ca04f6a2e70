import StorefrontIcon from '@mui/icons-material/Storefront';
import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** Each widget loads with the first service point form that shows it, not with the app. */
const AddressInput = lazy(() => import('./address-input.tsx').then((module) => ({ default: module.AddressInput })));
const ValidatedAddressIdInput = lazy(() =>
  import('./address-input.tsx').then((module) => ({ default: module.ValidatedAddressIdInput })),
);
const MapPickerInput = lazy(() =>
  import('./map-picker-input.tsx').then((module) => ({ default: module.MapPickerInput })),
);
const OpeningHoursInput = lazy(() =>
  import('./opening-hours-input.tsx').then((module) => ({ default: module.OpeningHoursInput })),
);
const OpeningHoursValue = lazy(() =>
  import('./opening-hours-input.tsx').then((module) => ({ default: module.OpeningHoursValue })),
);

/**
 * Service points are created by bulk import (and later by converting locations); the edit page has
 * the Basic, More and Log tabs. Hardware units and carrier settings come with their own issue.
 */
export default schemaResource('service-point', {
  icon: StorefrontIcon,
  create: false,
  inputs: {
    address: AddressInput,
    'address-id': ValidatedAddressIdInput,
    'map-picker': MapPickerInput,
    'opening-hours': OpeningHoursInput,
  },
  values: { 'opening-hours': OpeningHoursValue },
});
