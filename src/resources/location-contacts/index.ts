import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** A location's contact persons, edited in its Contacts tab (and listed on their own for a search). */
export default schemaResource('location-contact');
