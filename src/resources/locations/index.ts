import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

const ProposalsPanel = lazy(() =>
  import('./proposals-panel.tsx').then((module) => ({ default: module.ProposalsPanel })),
);
const LocationPdfButton = lazy(() =>
  import('./location-pdf-button.tsx').then((module) => ({ default: module.LocationPdfButton })),
);
const PrintLocationButton = lazy(() =>
  import('./print-location-button.tsx').then((module) => ({ default: module.PrintLocationButton })),
);

/**
 * Locations (spec 02 §5): basic data in the form, the proposals as a table of their own pages in the
 * Proposals tab, the contacts as nested records, the print sheet and the PDF sheet (get_pdf) in the page head.
 */
export default schemaResource('location', {
  panels: { proposals: ProposalsPanel },
  toolbar: [PrintLocationButton, LocationPdfButton],
});
