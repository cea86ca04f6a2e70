/**
 * The stores the rules read and write, each named once: a store is a resource of the `records`
 * table (a webtool/ endpoint, or a document kind without a screen of its own), with the schema its
 * documents follow, so that the record-store API (`docs.ts`) refuses a field the documents do not have.
 */

export const SERVICE_POINTS = 'service_points';
export const SERVICE_POINT_GROUPS = 'service_points/service_point_groups';
export const HARDWARE_UNITS = 'service_points/hardware_units';
export const PINPADS = 'service_points/pinpad';
export const HARDWARE_ORDERS = 'service_points/hardware_order';
export const SUB_ORDERS = 'service_points/hardware_order/sub_orders';
/** One document per compartment (schemas/compartment.schema.json); no screen of its own. */
export const COMPARTMENTS = 'compartments';
/** Reference data: the models units and PIN pads are built as. */
export const HARDWARE_MODELS = 'hardware_models';
/** The lists of `webtool/lists` (reference values by `type`). */
export const LISTS = 'lists';
export const TICKETS = 'maintenance/tickets';
export const OPERATORS = 'maintenance/operators';
export const PIECES = 'shipments';
export const END_USERS = 'shipments/endusers';
export const NOTIFICATIONS = 'shipments/notifications';
export const CARRIERS = 'partners/carrier';
export const COURIERS = 'couriers';
export const HARDWARE_OWNERS = 'partners/hardware_provider';
export const LOCATION_OWNERS = 'partners/location_owner';
export const MAINTENANCE_PROVIDERS = 'partners/maintenance_provider';
export const LOCATIONS = 'locations';
export const PROPOSALS = 'locations/proposals';
export const CONTACTS = 'locations/contacts';
export const PRICES = 'invoicing/price_structure';
export const INVOICES = 'invoicing';
export const ALERTS = 'alerts';
export const WEBHOOKS = 'alerts/webhooks';
export const TEST_APP_USERS = 'testappusers';
export const LICENCES = 'hardware/license';

/**
 * Each store's documents: the schema (`$id`) whose top-level properties are its fields, or, for the
 * reference data without a schema, the fields the rules read.
 */
export const STORES = {
  [SERVICE_POINTS]: { schema: 'service-point' },
  [SERVICE_POINT_GROUPS]: { schema: 'service-point-group' },
  [HARDWARE_UNITS]: { schema: 'hardware-unit' },
  [PINPADS]: { schema: 'pinpad' },
  [HARDWARE_ORDERS]: { schema: 'hardware-order' },
  [SUB_ORDERS]: { schema: 'sub-order' },
  [COMPARTMENTS]: { schema: 'compartment' },
  [HARDWARE_MODELS]: { fields: ['hardware_model_id', 'name', 'hardware_type', 'layout'] },
  [LISTS]: { fields: ['type', 'id', 'name', 'column_name'] },
  [TICKETS]: { schema: 'ticket' },
  [OPERATORS]: { schema: 'maintenance-operator' },
  [PIECES]: { schema: 'piece' },
  [END_USERS]: { schema: 'end-user' },
  [NOTIFICATIONS]: { schema: 'notification' },
  [CARRIERS]: { schema: 'carrier' },
  [COURIERS]: { schema: 'courier' },
  [HARDWARE_OWNERS]: { schema: 'hardware-owner' },
  [LOCATION_OWNERS]: { schema: 'location-owner' },
  [MAINTENANCE_PROVIDERS]: { schema: 'maintenance-provider' },
  [LOCATIONS]: { schema: 'location' },
  [PROPOSALS]: { schema: 'location-proposal' },
  [CONTACTS]: { schema: 'location-contact' },
  [PRICES]: { schema: 'price-structure' },
  [INVOICES]: { schema: 'invoice' },
  [ALERTS]: { schema: 'alert' },
  [WEBHOOKS]: { schema: 'webhook-event' },
  [TEST_APP_USERS]: { schema: 'test-app-user' },
} as const satisfies Record<string, { schema: string } | { fields: readonly string[] }>;

export type Store = keyof typeof STORES;

/**
 * The SQL condition "this row is of `store`", the name written out rather than a parameter so that
 * the planner sees a partial index on the resource fits (migration 009's compartments by unit).
 * Only a declared store's name can be given, so nothing of a caller's reaches the SQL text.
 */
export function inStore(store: Store, alias?: string): string {
  if (!Object.hasOwn(STORES, store)) throw new Error(`Unknown store ${store}`);
  return `${alias ? `${alias}.` : ''}resource = '${store}'`;
}
