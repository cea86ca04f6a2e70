import StorefrontIcon from '@mui/icons-material/Storefront';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** The full service point setup (tabs, hardware, carriers, log) comes with its own issue. */
export default schemaResource('service-point', { icon: StorefrontIcon, create: false, edit: false });
