import EngineeringIcon from '@mui/icons-material/Engineering';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('maintenance-operator', { icon: EngineeringIcon });
