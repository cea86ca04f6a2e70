import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** Each widget and panel loads with the first service point page that shows it, not with the app. */
const StatusInput = lazy(() => import('./status-input.tsx').then((module) => ({ default: module.StatusInput })));
const HardwareUnitsPanel = lazy(() =>
  import('./hardware-units-panel.tsx').then((module) => ({ default: module.HardwareUnitsPanel })),
);
const CarrierSettingsInput = lazy(() =>
  import('./carrier-settings-input.tsx').then((module) => ({ default: module.CarrierSettingsInput })),
);
const AddressInput = lazy(() =>
  import('../../schema/ui/address/address-input.tsx').then((module) => ({ default: module.AddressInput })),
);
const ValidatedAddressIdInput = lazy(() =>
  import('../../schema/ui/address/address-input.tsx').then((module) => ({ default: module.ValidatedAddressIdInput })),
);
const MapPickerInput = lazy(() =>
  import('../../schema/ui/address/map-picker-input.tsx').then((module) => ({ default: module.MapPickerInput })),
);
const OpeningHoursInput = lazy(() =>
  import('./opening-hours-input.tsx').then((module) => ({ default: module.OpeningHoursInput })),
);
const CarrierSettingsValue = lazy(() =>
  import('./carrier-settings-input.tsx').then((module) => ({ default: module.CarrierSettingsValue })),
);
const ScoutContactInput = lazy(() =>
  import('./scout-contact-input.tsx').then((module) => ({ default: module.ScoutContactInput })),
);
const MunicipalityInput = lazy(() =>
  import('./municipality-input.tsx').then((module) => ({ default: module.MunicipalityInput })),
);
const NetworkMapButton = lazy(() =>
  import('./network-map-button.tsx').then((module) => ({ default: module.NetworkMapButton })),
);
const PdfSheetButton = lazy(() =>
  import('./pdf-sheet-button.tsx').then((module) => ({ default: module.PdfSheetButton })),
);
const OpeningHoursValue = lazy(() =>
  import('./opening-hours-input.tsx').then((module) => ({ default: module.OpeningHoursValue })),
);
const DescriptionTranslationsInput = lazy(() =>
  import('./description-translations-input.tsx').then((module) => ({ default: module.DescriptionTranslationsInput })),
);
const PublicDescriptionInput = lazy(() =>
  import('./description-translations-input.tsx').then((module) => ({ default: module.PublicDescriptionInput })),
);
const PhotoGalleryInput = lazy(() =>
  import('../../schema/ui/photos/photo-gallery-input.tsx').then((module) => ({ default: module.PhotoGalleryInput })),
);

/**
 * Service points are created in the form (or by bulk import); the edit page has the Basic, Hardware
 * units, Carrier settings, Log and More tabs and the dialogs of the record actions. Each part of the
 * screen registers its own widgets and panels here, one line each.
 */
export default schemaResource('service-point', {
  panels: { hardware_units: HardwareUnitsPanel },
  inputs: {
    'service-point-status': StatusInput,
    'carrier-settings': CarrierSettingsInput,
    address: AddressInput,
    'address-id': ValidatedAddressIdInput,
    'map-picker': MapPickerInput,
    'opening-hours': OpeningHoursInput,
    'photo-gallery': PhotoGalleryInput,
    'scout-contact': ScoutContactInput,
    municipality: MunicipalityInput,
    'description-translations': DescriptionTranslationsInput,
    'public-description': PublicDescriptionInput,
  },
  values: { 'opening-hours': OpeningHoursValue, 'carrier-settings': CarrierSettingsValue },
  toolbar: [PdfSheetButton],
  listActions: [NetworkMapButton],
});
