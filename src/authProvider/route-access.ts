import { features, type FeatureName } from '../schema/features.ts';
import { accessLevel, hasPermission, type PermissionSet } from '../schema/permissions.ts';

/** Who may open a path prefix, and which module permission it needs (spec 01 §2.3). */
interface RouteRule {
  prefix: string;
  partnerTypes: readonly string[] | 'All';
  feature?: FeatureName;
  /** An extra feature id the route needs besides the module (e.g. price structure). */
  alsoNeeds?: number;
}

const operator = ['operator'];

/** Longer prefixes first, so /service-points/group wins over /service-points. */
export const routeRules: readonly RouteRule[] = (
  [
    { prefix: '/locations', partnerTypes: operator, feature: 'locations' },
    { prefix: '/shipments', partnerTypes: [...operator, 'carrier', 'support_provider'], feature: 'shipments' },
    // Parcel details: a piece's logs, read as its shipment is.
    { prefix: '/piece-logs', partnerTypes: [...operator, 'carrier', 'support_provider'], feature: 'shipments' },
    { prefix: '/service-points/group', partnerTypes: operator, feature: 'servicepoint_groups' },
    { prefix: '/service-points', partnerTypes: 'All', feature: 'servicepoints' },
    { prefix: '/hardware-owners', partnerTypes: [...operator, 'hardware_provider'], feature: 'hardware_provider' },
    { prefix: '/hardware-orders', partnerTypes: operator, feature: 'hardware_orders' },
    { prefix: '/hardware', partnerTypes: [...operator, 'hardware_provider'], feature: 'hardware' },
    { prefix: '/pinpad', partnerTypes: [...operator, 'hardware_provider'], feature: 'pinpad' },
    { prefix: '/carriers', partnerTypes: operator, feature: 'carriers' },
    { prefix: '/couriers', partnerTypes: [...operator, 'carrier'], feature: 'couriers' },
    { prefix: '/booking', partnerTypes: [...operator, 'carrier'], feature: 'bookings' },
    {
      prefix: '/reports/carrier-invoicing',
      partnerTypes: operator,
      feature: 'carrier_invoice',
      alsoNeeds: features.price_structure.basic,
    },
    { prefix: '/location-owners', partnerTypes: [...operator, 'location_owner'], feature: 'location_owner' },
    {
      prefix: '/maintenance-providers',
      partnerTypes: [...operator, 'maintenance_provider'],
      feature: 'maintenance_providers',
    },
    { prefix: '/operators', partnerTypes: [...operator, 'maintenance_provider'], feature: 'maintenance_operators' },
    { prefix: '/support-providers', partnerTypes: [...operator, 'support_provider'], feature: 'support_providers' },
    {
      prefix: '/tickets',
      partnerTypes: [...operator, 'support_provider', 'maintenance_provider'],
      feature: 'maintenance_tickets',
    },
    { prefix: '/test-app-users', partnerTypes: operator, feature: 'test_app_users' },
    { prefix: '/end-users', partnerTypes: [...operator, 'carrier', 'support_provider'], feature: 'end_user' },
    { prefix: '/webtool-users', partnerTypes: 'All', feature: 'webtool_users' },
    { prefix: '/license', partnerTypes: operator, feature: 'hardware_license' },
    { prefix: '/location-generator', partnerTypes: operator, feature: 'location_generator' },
    { prefix: '/debug', partnerTypes: operator },
    { prefix: '/loma', partnerTypes: 'All', feature: 'servicepoints' },
    { prefix: '/webhooks', partnerTypes: [...operator, 'carrier'], feature: 'webhooks' },
    // Prefixes the navigation uses beyond the table of §2.3: their module permission still applies.
    { prefix: '/service-point-groups', partnerTypes: operator, feature: 'servicepoint_groups' },
    { prefix: '/dashboard', partnerTypes: 'All', feature: 'dashboard' },
    // Alerts on hardware units and tickets: the maintenance area's (schemas/alert.schema.json).
    {
      prefix: '/alerts',
      partnerTypes: [...operator, 'support_provider', 'maintenance_provider'],
      feature: 'maintenance_tickets',
    },
    { prefix: '/invoicing-report', partnerTypes: operator, feature: 'carrier_invoice' },
    { prefix: '/price-structure', partnerTypes: operator, feature: 'price_structure' },
    { prefix: '/notifications', partnerTypes: 'All', feature: 'notifications' },
    // Reports read shipments: the partner types that see shipments (spec 01 §2.3, /shipments).
    {
      prefix: '/reports',
      partnerTypes: [...operator, 'carrier', 'support_provider'],
      feature: 'business_intelligence',
    },
    { prefix: '/production-orders', partnerTypes: operator, feature: 'hardware_orders' },
    { prefix: '/logs', partnerTypes: operator },
  ] satisfies RouteRule[]
).sort((a, b) => b.prefix.length - a.prefix.length);

export interface AccessSubject {
  partnerType: string;
  permissions: PermissionSet;
}

export function ruleFor(path: string): RouteRule | undefined {
  const lower = path.toLowerCase();
  return routeRules.find((rule) => lower === rule.prefix || lower.startsWith(`${rule.prefix}/`));
}

/** Partner type (super admins pass) and the module permission of the area must both allow it. */
export function canOpenPath(subject: AccessSubject, path: string): boolean {
  const rule = ruleFor(path);
  if (!rule) return true;
  const { superAdmin } = subject.permissions;
  const typeAllowed = superAdmin || rule.partnerTypes === 'All' || rule.partnerTypes.includes(subject.partnerType);
  if (!typeAllowed) return false;
  if (rule.alsoNeeds !== undefined && !hasPermission(subject.permissions, rule.alsoNeeds)) return false;
  return rule.feature ? accessLevel(subject.permissions, features[rule.feature]) !== undefined : true;
}
