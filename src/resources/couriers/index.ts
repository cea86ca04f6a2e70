import DirectionsBikeIcon from '@mui/icons-material/DirectionsBike';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('courier', { icon: DirectionsBikeIcon });
