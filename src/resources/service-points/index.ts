import { lazy } from 'react';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

const PdfSheetButton = lazy(() =>
  import('./pdf-sheet-button.tsx').then((module) => ({ default: module.PdfSheetButton })),
);

/**
 * Service points are created by bulk import (and later by converting locations); the edit page has
 * the Basic, More and Log tabs. Hardware units and carrier settings come with their own issue.
 */
export default schemaResource('service-point', { icon: StorefrontIcon, create: false, toolbar: [PdfSheetButton] });
