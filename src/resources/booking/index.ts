import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { useOpenLabels } from './booking-labels.ts';

/** The capacity check and the print button load with the first booking form or record, not with the app. */
const CapacityCheck = lazy(() => import('./capacity-check.tsx').then((module) => ({ default: module.CapacityCheck })));
const PrintLabelButton = lazy(() =>
  import('./print-label-button.tsx').then((module) => ({ default: module.PrintLabelButton })),
);

/** Bookings are made, not changed: the list, the create form with its capacity check, a read-only record. */
export default schemaResource('booking', {
  edit: false,
  createExtras: [CapacityCheck],
  toolbar: [PrintLabelButton],
  useAfterCreate: useOpenLabels,
});
