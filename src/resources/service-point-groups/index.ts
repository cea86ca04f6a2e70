import WorkspacesIcon from '@mui/icons-material/Workspaces';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('service-point-group', { icon: WorkspacesIcon });
