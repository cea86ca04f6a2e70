import type { FeatureIds } from './features.ts';

export interface Policy {
  feature_id: number;
  has_permission: boolean;
  configurations?: { type: string; show: boolean }[];
}

export type AccessLevel = 'advance' | 'scout' | 'basic';

export interface PermissionSet {
  superAdmin: boolean;
  granted: ReadonlySet<number>;
  policies: readonly Policy[];
}

export function permissionSet(policies: readonly Policy[], superAdmin: boolean): PermissionSet {
  return {
    superAdmin,
    policies,
    granted: new Set(policies.filter((p) => p.has_permission).map((p) => p.feature_id)),
  };
}

export function hasPermission(set: PermissionSet, featureId: number | undefined): boolean {
  if (featureId === undefined) return false;
  return set.superAdmin || set.granted.has(featureId);
}

/** advance when the advance feature is allowed, otherwise scout, otherwise basic (spec 01 §6). */
export function accessLevel(set: PermissionSet, feature: FeatureIds): AccessLevel | undefined {
  if (set.superAdmin) return 'advance';
  if (hasPermission(set, feature.advance)) return 'advance';
  if (hasPermission(set, feature.scout)) return 'scout';
  if (hasPermission(set, feature.basic)) return 'basic';
  return undefined;
}

/**
 * Whether a configuration of a feature is on: configurations are filtered by type (the option,
 * e.g. uppercase_courier_code; 'dropdown' by default) and their show flag (spec 01 §6).
 */
export function optionEnabled(set: PermissionSet, featureId: number, option = 'dropdown'): boolean {
  const policy = set.policies.find((p) => p.feature_id === featureId && p.has_permission);
  return Boolean(policy?.configurations?.some((c) => c.type === option && c.show));
}

/**
 * The service point options of spec 01 §6 (and their kin in other areas) are configured on any of a module's
 * levels: an option is on when a granted policy of one of the feature's ids configures it shown. An option no
 * granted policy configures takes `fallback`: municipality required is on unless a policy says otherwise.
 */
export function featureOption(set: PermissionSet, feature: FeatureIds, option: string, fallback = false): boolean {
  const ids = new Set([feature.basic, feature.advance, feature.scout].filter((id) => id !== undefined));
  const configured = set.policies
    .filter((policy) => policy.has_permission && ids.has(policy.feature_id))
    .flatMap((policy) => policy.configurations ?? [])
    .filter((configuration) => configuration.type === option);
  return configured.length ? configured.some((configuration) => configuration.show) : fallback;
}
