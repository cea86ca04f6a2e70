import DialpadIcon from '@mui/icons-material/Dialpad';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('pinpad', { icon: DialpadIcon });
