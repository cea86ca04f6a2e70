import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('role', { icon: AdminPanelSettingsIcon });
