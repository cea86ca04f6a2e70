import { canOpenPath } from '../authProvider/route-access.ts';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { areaByKey, areas, type AreaIconName } from '../schema/areas.ts';
import { features } from '../schema/features.ts';
import { optionEnabled } from '../schema/permissions.ts';

export interface NavItem {
  /** Locale key under `menu`. */
  key: string;
  path: string;
  icon?: AreaIconName;
  /** Child links shown under this item. */
  children?: NavItem[];
}

const navItem = ({ key, path, icon }: NavItem): NavItem => ({ key, path, icon });

/** The navigation items of spec 01 §2.2, in menu order: the areas that have a menu item. */
export const navItems: NavItem[] = areas.filter((area) => area.menu).map(navItem);

const shipmentReports = navItem(areaByKey.get('shipment_reports')!);

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
    .map((item) => (item.key === 'shipment_search' && carrierReport ? { ...item, children: [shipmentReports] } : item));
}
