import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { PermissionTreeInput } from './permission-tree-input.tsx';

export default schemaResource('role', {
  icon: AdminPanelSettingsIcon,
  inputs: { 'permission-tree': PermissionTreeInput },
});
