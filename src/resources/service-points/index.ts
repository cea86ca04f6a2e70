import StorefrontIcon from '@mui/icons-material/Storefront';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/**
 * Service points are created by bulk import (and later by converting locations); the edit page has
 * the Basic, More and Log tabs. Hardware units and carrier settings come with their own issue.
 */
export default schemaResource('service-point', { icon: StorefrontIcon, create: false });
