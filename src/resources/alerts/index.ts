import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/**
 * Alerts are added from the page of the hardware unit or ticket they are on ('Add alert'), not from the list,
 * which follows the alerts raised and handled by others in place (live updates).
 */
export default schemaResource('alert', { create: false, liveList: 'inPlace' });
