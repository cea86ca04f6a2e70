import { isSuperAdmin, operatorRoleMarker, parseRole } from '../schema/roles.ts';
import { accessLevel, permissionSet, type PermissionSet, type Policy } from '../schema/permissions.ts';
import type { FeatureIds } from '../schema/features.ts';

/** GET webtool/identity_access/nav_drawer `data`. */
export interface NavigationData {
  features: { feature_id: number }[];
  permissions: Policy[];
  partner_info: { partner_type: string; partner_id: string | null; partner_name: string | null };
  role: { role_name: string; role_description: string; role_description_translations?: Record<string, string> };
  commit_version?: string;
}

/** What the app knows about the signed-in user's reach, computed once at sign-in. */
export interface AccessProfile {
  roleName: string;
  /** The stored default, which the super-admin check reads. */
  roleDescription: string;
  /** The description per app language, where its role has one (`role_description_translations`). */
  roleDescriptions: Record<string, string>;
  partnerType: string;
  partner: string | undefined;
  partnerName: string | null;
  superAdmin: boolean;
  permissions: PermissionSet;
}

export function accessProfile(groups: readonly string[], navigation: NavigationData): AccessProfile | undefined {
  const role = parseRole(groups);
  if (!role) return undefined;
  const superAdmin = isSuperAdmin(role.roleName, navigation.role.role_description, operatorRoleMarker);
  return {
    roleName: role.roleName,
    roleDescription: navigation.role.role_description,
    roleDescriptions: navigation.role.role_description_translations ?? {},
    partnerType: role.partnerType,
    partner: role.partner,
    partnerName: navigation.partner_info.partner_name,
    superAdmin,
    permissions: permissionSet(navigation.permissions ?? [], superAdmin),
  };
}

export interface ResourceAccessRule {
  features: FeatureIds;
  partnerTypes: readonly string[] | 'All';
}

const READ_ACTIONS = new Set(['list', 'show', 'export']);

/**
 * react-admin's canAccess as a pure function: partner type allowed (super admins pass) and the
 * module permission held; reading needs any level, writing the advance level.
 */
export function canAccess(
  profile: AccessProfile | undefined,
  rules: Readonly<Record<string, ResourceAccessRule>>,
  { resource, action }: { resource: string; action: string },
): boolean {
  if (!profile) return false;
  const rule = rules[resource];
  if (!rule) return true;
  const typeAllowed =
    profile.superAdmin || rule.partnerTypes === 'All' || rule.partnerTypes.includes(profile.partnerType);
  if (!typeAllowed) return false;
  const level = accessLevel(profile.permissions, rule.features);
  if (level === undefined) return false;
  return READ_ACTIONS.has(action) || level === 'advance';
}
