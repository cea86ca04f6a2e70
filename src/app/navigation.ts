import { canOpenPath } from '../authProvider/route-access.ts';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { features } from '../schema/features.ts';
import { optionEnabled } from '../schema/permissions.ts';

export interface NavItem {
  /** Locale key under `menu`. */
  key: string;
  path: string;
  /** Child links shown under this item. */
  children?: NavItem[];
}

/** The navigation items of spec 01 §2.2, in menu order. */
export const navItems: NavItem[] = [
  { key: 'dashboard', path: '/dashboard' },
  { key: 'shipment_search', path: '/shipments' },
  { key: 'end_user_search', path: '/end-users' },
  { key: 'service_points', path: '/service-points' },
  { key: 'service_point_groups', path: '/service-points/group' },
  { key: 'hardware', path: '/hardware' },
  { key: 'pinpad', path: '/pinpad' },
  { key: 'carriers', path: '/carriers' },
  { key: 'couriers', path: '/couriers' },
  { key: 'location_owners', path: '/location-owners' },
  { key: 'hardware_owners', path: '/hardware-owners' },
  { key: 'maintenance_providers', path: '/maintenance-providers' },
  { key: 'operators', path: '/operators' },
  { key: 'support_providers', path: '/support-providers' },
  { key: 'price_structure', path: '/price-structure' },
  { key: 'webtool_users', path: '/webtool-users' },
  { key: 'notifications', path: '/notifications' },
  { key: 'tickets', path: '/tickets' },
  { key: 'booking', path: '/booking' },
  { key: 'locations', path: '/locations' },
  { key: 'invoicing_report', path: '/invoicing-report' },
  { key: 'license', path: '/license' },
  { key: 'hardware_orders', path: '/hardware-orders' },
  { key: 'production_orders', path: '/production-orders' },
  { key: 'reports', path: '/reports' },
  { key: 'location_generator', path: '/location-generator' },
  { key: 'webtool_logs', path: '/logs' },
  { key: 'webhooks', path: '/webhooks' },
  { key: 'alerts', path: '/alerts' },
  { key: 'test_app_users', path: '/test-app-users' },
  { key: 'profile', path: '/profile' },
];

export interface MenuOptions {
  /** Environment flag for the shipment reports link. */
  shipmentReports: boolean;
}

/** The sidebar of a user: the items they may open, with the shipment reports link when enabled. */
export function menuFor(profile: AccessProfile, options: MenuOptions): NavItem[] {
  const carrierReport =
    options.shipmentReports ||
    optionEnabled(profile.permissions, features.shipments.basic, 'carrier_report') ||
    optionEnabled(profile.permissions, features.shipments.advance, 'carrier_report');
  return navItems
    .filter((item) => canOpenPath(profile, item.path))
    .map((item) =>
      item.path === '/shipments' && carrierReport
        ? { ...item, children: [{ key: 'shipment_reports', path: '/shipments/reports' }] }
        : item,
    );
}
