import { lazy } from 'react';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

const StatusInput = lazy(() => import('./status-input.tsx').then((module) => ({ default: module.StatusInput })));
/** The Hardware units tab and the per-carrier settings load when first shown, not with the app. */
const HardwareUnitsPanel = lazy(() =>
  import('./hardware-units-panel.tsx').then((module) => ({ default: module.HardwareUnitsPanel })),
);
const CarrierSettingsInput = lazy(() =>
  import('./carrier-settings-input.tsx').then((module) => ({ default: module.CarrierSettingsInput })),
);

/**
 * Service points are created in the form (or by bulk import); the edit page has the Basic, Hardware
 * units, Carrier settings, Log and More tabs and the dialogs of the record actions. Each part of the
 * screen registers its own widgets and panels here, one line each.
 */
export default schemaResource('service-point', {
  icon: StorefrontIcon,
  panels: { hardware_units: HardwareUnitsPanel },
  inputs: {
    'service-point-status': StatusInput,
    'carrier-settings': CarrierSettingsInput,
  },
});
