import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('carrier', { icon: LocalShippingIcon });
