/**
 * Feature ids of the permission policies (spec 01 §6). A module is reachable with its basic,
 * advance or (service points only) scout permission; `parent` is the menu group.
 */
export interface FeatureIds {
  basic?: number;
  advance?: number;
  scout?: number;
  parent?: number;
}

export const features = {
  dashboard: { basic: 177 },
  hardware_provider: { basic: 218, advance: 219, parent: 197 },
  location_owner: { basic: 216, advance: 217, parent: 196 },
  maintenance_providers: { basic: 220, advance: 221, parent: 199 },
  maintenance_tickets: { basic: 230, advance: 231, parent: 213 },
  carriers: { basic: 214, advance: 215, parent: 193 },
  webtool_users: { basic: 205, advance: 206, parent: 204 },
  end_user: { basic: 183, advance: 184 },
  servicepoints: { basic: 187, advance: 188, scout: 240, parent: 186 },
  hardware: { basic: 190, advance: 191, parent: 197 },
  support_providers: { basic: 224, advance: 225, parent: 201 },
  pinpad: { basic: 254 },
  notifications: { basic: 228, advance: 229 },
  shipments: { basic: 180, advance: 181, parent: 179 },
  locations: { basic: 234, advance: 235, parent: 233 },
  couriers: { basic: 256, advance: 194, parent: 194 },
  test_app_users: { basic: 238 },
  servicepoint_groups: { basic: 255, advance: 212, parent: 212 },
  bookings: { basic: 259, advance: 232, parent: 232 },
  maintenance_operators: { basic: 257, advance: 200, parent: 200 },
  price_structure: { basic: 236, advance: 192 },
  hardware_license: { basic: 241 },
  hardware_orders: { basic: 239 },
  location_generator: { basic: 242 },
  carrier_invoice: { basic: 236 },
  business_intelligence: { basic: 247 },
  resource_center: { basic: 253 },
  webhooks: { basic: 258, advance: 246, parent: 246 },
} as const satisfies Record<string, FeatureIds>;

export type FeatureName = keyof typeof features;

/** Every id a feature can be granted by (basic, advance, scout, parent). */
export function featureIdsOf(name: FeatureName): number[] {
  return [...new Set(Object.values(features[name] as FeatureIds))];
}
