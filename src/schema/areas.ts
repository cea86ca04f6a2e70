import type { FeatureName } from './features.ts';

/**
 * Every area of the app, declared once: its route prefix, who may open it (spec 01 §2.3: partner
 * types and the module's feature), its menu item (spec 01 §2.2, in this array's order) and its
 * icon. The route rules (src/authProvider/route-access.ts), the sidebar (src/app/navigation.ts)
 * and the icons of the menu and of the resources (src/schema/ui/area-icons.tsx) are built from it.
 * An area that shows a schema resource names it; its schema's `x-resource.feature` must be the
 * area's feature (tests/unit/areas.test.ts ties them, and every route to a rule).
 */

/** The icon names the app draws (src/schema/ui/area-icons.tsx maps each to its MUI icon). */
export type AreaIconName =
  | 'AccountCircle'
  | 'AddLocationAlt'
  | 'AdminPanelSettings'
  | 'Assessment'
  | 'Build'
  | 'Business'
  | 'ConfirmationNumber'
  | 'Dashboard'
  | 'Dialpad'
  | 'DirectionsBike'
  | 'Engineering'
  | 'EventAvailable'
  | 'Factory'
  | 'HeadsetMic'
  | 'Key'
  | 'ListAlt'
  | 'LocalShipping'
  | 'Memory'
  | 'Notifications'
  | 'NotificationsActive'
  | 'People'
  | 'PersonSearch'
  | 'PhoneAndroid'
  | 'Place'
  | 'PrecisionManufacturing'
  | 'PriceChange'
  | 'Receipt'
  | 'Search'
  | 'ShoppingCart'
  | 'Storefront'
  | 'Summarize'
  | 'SupportAgent'
  | 'Webhook'
  | 'Workspaces';

export interface Area {
  /** The area's name; for a menu item its label is `menu.<key>`. */
  key: string;
  /** Route prefix (lower case, plain path). */
  path: string;
  /** Partner types that may open it (super admins always may). */
  partnerTypes: readonly string[] | 'All';
  /** The module permission it needs, by feature name; none for pages every signed-in user of the partner types has. */
  feature?: FeatureName;
  /** A feature it needs besides its own (the carrier invoicing report also needs the price structure). */
  alsoNeeds?: FeatureName;
  /** Shown in the sidebar, in the order of `areas`; `false` for routes reached from other pages. */
  menu: boolean;
  icon?: AreaIconName;
  /** The react-admin resource whose list this path is. */
  resource?: string;
}

const operator = ['operator'] as const;
const shipmentReaders = [...operator, 'carrier', 'support_provider'];
const ticketReaders = [...operator, 'support_provider', 'maintenance_provider'];

export const areas: readonly Area[] = [
  { key: 'dashboard', path: '/dashboard', partnerTypes: 'All', feature: 'dashboard', menu: true, icon: 'Dashboard' },
  {
    key: 'shipment_search',
    path: '/shipments',
    partnerTypes: shipmentReaders,
    feature: 'shipments',
    menu: true,
    icon: 'Search',
    resource: 'shipments',
  },
  {
    key: 'end_user_search',
    path: '/end-users',
    partnerTypes: shipmentReaders,
    feature: 'end_user',
    menu: true,
    icon: 'PersonSearch',
    resource: 'end-users',
  },
  {
    key: 'service_points',
    path: '/service-points',
    partnerTypes: 'All',
    feature: 'servicepoints',
    menu: true,
    icon: 'Storefront',
    resource: 'service-points',
  },
  {
    key: 'service_point_groups',
    path: '/service-points/group',
    partnerTypes: operator,
    feature: 'servicepoint_groups',
    menu: true,
    icon: 'Workspaces',
  },
  {
    key: 'hardware',
    path: '/hardware',
    partnerTypes: [...operator, 'hardware_provider'],
    feature: 'hardware',
    menu: true,
    icon: 'Memory',
    resource: 'hardware',
  },
  {
    key: 'pinpad',
    path: '/pinpad',
    partnerTypes: [...operator, 'hardware_provider'],
    feature: 'pinpad',
    menu: true,
    icon: 'Dialpad',
    resource: 'pinpad',
  },
  {
    key: 'carriers',
    path: '/carriers',
    partnerTypes: operator,
    feature: 'carriers',
    menu: true,
    icon: 'LocalShipping',
    resource: 'carriers',
  },
  {
    key: 'couriers',
    path: '/couriers',
    partnerTypes: [...operator, 'carrier'],
    feature: 'couriers',
    menu: true,
    icon: 'DirectionsBike',
    resource: 'couriers',
  },
  {
    key: 'location_owners',
    path: '/location-owners',
    partnerTypes: [...operator, 'location_owner'],
    feature: 'location_owner',
    menu: true,
    icon: 'Business',
    resource: 'location-owners',
  },
  {
    key: 'hardware_owners',
    path: '/hardware-owners',
    partnerTypes: [...operator, 'hardware_provider'],
    feature: 'hardware_provider',
    menu: true,
    icon: 'PrecisionManufacturing',
    resource: 'hardware-owners',
  },
  {
    key: 'maintenance_providers',
    path: '/maintenance-providers',
    partnerTypes: [...operator, 'maintenance_provider'],
    feature: 'maintenance_providers',
    menu: true,
    icon: 'Build',
    resource: 'maintenance-providers',
  },
  {
    key: 'operators',
    path: '/operators',
    partnerTypes: [...operator, 'maintenance_provider'],
    feature: 'maintenance_operators',
    menu: true,
    icon: 'Engineering',
    resource: 'operators',
  },
  {
    key: 'support_providers',
    path: '/support-providers',
    partnerTypes: [...operator, 'support_provider'],
    feature: 'support_providers',
    menu: true,
    icon: 'SupportAgent',
    resource: 'support-providers',
  },
  {
    // Spec 01 §2.2 names the route; §2.3 no rule: the operator company keeps its call centres, under the support providers' feature.
    key: 'hotline_providers',
    path: '/hotline-providers',
    partnerTypes: operator,
    feature: 'support_providers',
    menu: true,
    icon: 'HeadsetMic',
    resource: 'hotline-providers',
  },
  {
    key: 'price_structure',
    path: '/price-structure',
    partnerTypes: operator,
    feature: 'price_structure',
    menu: true,
    icon: 'PriceChange',
    resource: 'price-structure',
  },
  {
    key: 'webtool_users',
    path: '/webtool-users',
    partnerTypes: 'All',
    feature: 'webtool_users',
    menu: true,
    icon: 'People',
    resource: 'webtool-users',
  },
  {
    key: 'notifications',
    path: '/notifications',
    // The pieces' notifications: the operator company's, a carrier's own, a support provider's service points'.
    partnerTypes: [...operator, 'carrier', 'support_provider'],
    feature: 'notifications',
    menu: true,
    icon: 'Notifications',
    resource: 'notifications',
  },
  {
    key: 'tickets',
    path: '/tickets',
    partnerTypes: ticketReaders,
    feature: 'maintenance_tickets',
    menu: true,
    icon: 'ConfirmationNumber',
    resource: 'tickets',
  },
  {
    key: 'booking',
    path: '/booking',
    partnerTypes: [...operator, 'carrier'],
    feature: 'bookings',
    menu: true,
    icon: 'EventAvailable',
    resource: 'booking',
  },
  {
    key: 'locations',
    path: '/locations',
    partnerTypes: operator,
    feature: 'locations',
    menu: true,
    icon: 'Place',
    resource: 'locations',
  },
  // A location's proposals and contacts, opened from its page.
  {
    key: 'location_proposals',
    path: '/location-proposals',
    partnerTypes: operator,
    feature: 'locations',
    menu: false,
    icon: 'Place',
    resource: 'location-proposals',
  },
  {
    key: 'location_contacts',
    path: '/location-contacts',
    partnerTypes: operator,
    feature: 'locations',
    menu: false,
    icon: 'Place',
    resource: 'location-contacts',
  },
  {
    key: 'invoicing_report',
    path: '/invoicing-report',
    partnerTypes: operator,
    feature: 'carrier_invoice',
    menu: true,
    icon: 'Receipt',
  },
  { key: 'license', path: '/license', partnerTypes: operator, feature: 'hardware_license', menu: true, icon: 'Key' },
  {
    key: 'hardware_orders',
    path: '/hardware-orders',
    partnerTypes: operator,
    feature: 'hardware_orders',
    menu: true,
    icon: 'ShoppingCart',
    resource: 'hardware-orders',
  },
  {
    key: 'production_orders',
    path: '/production-orders',
    partnerTypes: operator,
    feature: 'hardware_orders',
    menu: true,
    icon: 'Factory',
    resource: 'production-orders',
  },
  {
    // Reports read shipments: the partner types that see shipments (spec 01 §2.3, /shipments).
    key: 'reports',
    path: '/reports',
    partnerTypes: shipmentReaders,
    feature: 'business_intelligence',
    menu: true,
    icon: 'Assessment',
  },
  {
    key: 'location_generator',
    path: '/location-generator',
    partnerTypes: operator,
    feature: 'location_generator',
    menu: true,
    icon: 'AddLocationAlt',
  },
  { key: 'webtool_logs', path: '/logs', partnerTypes: operator, menu: true, icon: 'ListAlt' },
  {
    key: 'webhooks',
    path: '/webhooks',
    partnerTypes: [...operator, 'carrier'],
    feature: 'webhooks',
    menu: true,
    icon: 'Webhook',
    resource: 'webhooks',
  },
  {
    // Alerts on hardware units and tickets: the maintenance area's.
    key: 'alerts',
    path: '/alerts',
    partnerTypes: ticketReaders,
    feature: 'maintenance_tickets',
    menu: true,
    icon: 'NotificationsActive',
    resource: 'alerts',
  },
  {
    key: 'test_app_users',
    path: '/test-app-users',
    partnerTypes: operator,
    feature: 'test_app_users',
    menu: true,
    icon: 'PhoneAndroid',
    resource: 'test-app-users',
  },
  { key: 'profile', path: '/profile', partnerTypes: 'All', menu: true, icon: 'AccountCircle' },

  // Routes reached from other pages, not from the sidebar.
  {
    // Shown under Shipment search when the shipment report option is on (src/app/navigation.ts).
    key: 'shipment_reports',
    path: '/shipments/reports',
    partnerTypes: shipmentReaders,
    feature: 'shipments',
    menu: false,
    icon: 'Summarize',
  },
  // Parcel details: a piece's logs, read as its shipment is.
  { key: 'piece_logs', path: '/piece-logs', partnerTypes: shipmentReaders, feature: 'shipments', menu: false },
  {
    key: 'service_point_group_list',
    path: '/service-point-groups',
    partnerTypes: operator,
    feature: 'servicepoint_groups',
    menu: false,
    icon: 'Workspaces',
    resource: 'service-point-groups',
  },
  {
    key: 'roles',
    path: '/roles',
    partnerTypes: 'All',
    feature: 'webtool_users',
    menu: false,
    icon: 'AdminPanelSettings',
    resource: 'roles',
  },
  { key: 'loma', path: '/loma', partnerTypes: 'All', feature: 'servicepoints', menu: false },
  {
    key: 'carrier_invoicing',
    path: '/reports/carrier-invoicing',
    partnerTypes: operator,
    feature: 'carrier_invoice',
    alsoNeeds: 'price_structure',
    menu: false,
  },
  { key: 'debug', path: '/debug', partnerTypes: operator, menu: false },
];

export const areaByKey: ReadonlyMap<string, Area> = new Map(areas.map((area) => [area.key, area]));

/** The area whose list is the resource's (its icon is the resource's). */
export function areaOfResource(resource: string): Area | undefined {
  return areas.find((area) => area.resource === resource);
}
