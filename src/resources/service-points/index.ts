import { lazy } from 'react';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The photo gallery (editor, webcam, cropper) loads with the first service point form, not with the app. */
const PhotoGalleryInput = lazy(() =>
  import('./photo-gallery-input.tsx').then((module) => ({ default: module.PhotoGalleryInput })),
);

/**
 * Service points are created by bulk import (and later by converting locations); the edit page has
 * the Basic, More and Log tabs. Hardware units and carrier settings come with their own issue.
 */
export default schemaResource('service-point', {
  icon: StorefrontIcon,
  create: false,
  inputs: { 'photo-gallery': PhotoGalleryInput },
});
