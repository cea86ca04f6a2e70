import StorefrontIcon from '@mui/icons-material/Storefront';
import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The Hardware units tab and the per-carrier settings load when first shown, not with the app. */
const HardwareUnitsPanel = lazy(() =>
  import('./hardware-units-panel.tsx').then((module) => ({ default: module.HardwareUnitsPanel })),
);
const CarrierSettingsInput = lazy(() =>
  import('./carrier-settings-input.tsx').then((module) => ({ default: module.CarrierSettingsInput })),
);

/**
 * Service points are created by bulk import (and later by converting locations); the edit page has
 * the Basic, Hardware units, Carrier settings, More and Log tabs.
 */
export default schemaResource('service-point', {
  icon: StorefrontIcon,
  create: false,
  panels: { hardware_units: HardwareUnitsPanel },
  inputs: { 'carrier-settings': CarrierSettingsInput },
});
