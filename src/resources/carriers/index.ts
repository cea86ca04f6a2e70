import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { lazy } from 'react';

/** The logo input (and its SVG sanitiser) loads with the first carrier form, not with the app. */
const SvgUploadInput = lazy(() =>
  import('./svg-upload-input.tsx').then((module) => ({ default: module.SvgUploadInput })),
);

export default schemaResource('carrier', { inputs: { 'svg-upload': SvgUploadInput } });
