import { schemaResource } from '../../schema/ui/schema-resource.tsx';

/**
 * Notifications (issue 28.3): what end users and couriers were sent for the pieces, searched by piece, phone,
 * kind, status and period, and read; never created nor edited (the gateway makes them from piece events).
 */
export default schemaResource('notification', { create: false, edit: false });
