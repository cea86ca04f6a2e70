import PeopleIcon from '@mui/icons-material/People';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('webtool-user', { icon: PeopleIcon });
