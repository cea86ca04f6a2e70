import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The compartment grid loads when a unit's Compartments tab is first opened, not with the app. */
const CompartmentsPanel = lazy(() =>
  import('./compartments-panel.tsx').then((module) => ({ default: module.CompartmentsPanel })),
);

export default schemaResource('hardware-unit', { panels: { compartments: CompartmentsPanel } });
