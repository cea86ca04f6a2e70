/** Areas whose screens come with later issues: path -> menu key. */
export const comingAreas: Record<string, string> = {
  'location-owners': 'location_owners',
  'hardware-owners': 'hardware_owners',
  'maintenance-providers': 'maintenance_providers',
  'support-providers': 'support_providers',
  'price-structure': 'price_structure',
  notifications: 'notifications',
  'invoicing-report': 'invoicing_report',
  'reports/carrier-invoicing': 'invoicing_report',
  license: 'license',
  'hardware-orders': 'hardware_orders',
  'production-orders': 'production_orders',
  webhooks: 'webhooks',
  'test-app-users': 'test_app_users',
};

/** Whether the screens under `path` are built yet: the menu's first such area is where a day starts. */
export function isBuiltArea(path: string): boolean {
  const inner = path.replace(/^\//, '').toLowerCase();
  return (
    !inner.startsWith('location-generator') &&
    !Object.keys(comingAreas).some((area) => inner === area || inner.startsWith(`${area}/`))
  );
}
