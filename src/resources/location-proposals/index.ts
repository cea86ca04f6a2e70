import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

const AddressInput = lazy(() =>
  import('../../schema/ui/address/address-input.tsx').then((module) => ({ default: module.AddressInput })),
);
const ValidatedAddressIdInput = lazy(() =>
  import('../../schema/ui/address/address-input.tsx').then((module) => ({
    default: module.ValidatedAddressIdInput,
  })),
);
const ProposalMapPicker = lazy(() =>
  import('./proposal-map-picker.tsx').then((module) => ({ default: module.ProposalMapPicker })),
);
const PhotoGalleryInput = lazy(() =>
  import('../../schema/ui/photos/photo-gallery-input.tsx').then((module) => ({ default: module.PhotoGalleryInput })),
);

/**
 * A location's proposal: the address validated against the address index, the coordinates picked on
 * the map (saved at once with update_latlng), the pictures (at most 5 of 1 MB), and "Use as service point" once it is Approved.
 */
export default schemaResource('location-proposal', {
  inputs: {
    address: AddressInput,
    'address-id': ValidatedAddressIdInput,
    'map-picker': ProposalMapPicker,
    'photo-gallery': PhotoGalleryInput,
  },
});
