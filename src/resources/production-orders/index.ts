import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('sub-order');
