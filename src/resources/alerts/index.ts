import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/** Alerts are added from the page of the hardware unit or ticket they are on ('Add alert'), not from the list. */
export default schemaResource('alert', { create: false });
