import { lazy } from 'react';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The link to the sub order's units loads with the first sub order opened, not with the app. */
const ProducedUnitsButton = lazy(() =>
  import('./produced-units-button.tsx').then((module) => ({ default: module.ProducedUnitsButton })),
);

export default schemaResource('sub-order', { toolbar: [ProducedUnitsButton] });
