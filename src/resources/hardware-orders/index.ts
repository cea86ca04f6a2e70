import { schemaResource } from '../../schema/ui/schema-resource.tsx';

export default schemaResource('hardware-order');
