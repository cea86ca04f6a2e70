import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { lazy } from 'react';

/** The permission tree loads with the first role page, not with the app. */
const PermissionTreeInput = lazy(() =>
  import('./permission-tree-input.tsx').then((module) => ({ default: module.PermissionTreeInput })),
);

const PermissionTreeValue = lazy(() =>
  import('./permission-tree-input.tsx').then((module) => ({ default: module.PermissionTreeValue })),
);

export default schemaResource('role', {
  inputs: { 'permission-tree': PermissionTreeInput },
  values: { 'permission-tree': PermissionTreeValue },
});
