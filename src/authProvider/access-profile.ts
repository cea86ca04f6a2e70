import { isSuperAdmin, operatorRoleMarker, parseRole } from '../schema/roles.ts';
import { accessLevel, permissionSet, type Policy } from '../schema/permissions.ts';
import type { FeatureIds } from '../schema/features.ts';
import type { UserProfile } from '../schema/ui/profile.ts';
import { mayDo, type ResourceAccessRule as ActionAccessRule } from '../schema/resource-actions.ts';

/** GET webtool/identity_access/nav_drawer `data`. */
export interface NavigationData {
  features: { feature_id: number }[];
  permissions: Policy[];
  partner_info: { partner_type: string; partner_id: string | null; partner_name: string | null };
  role: { role_name: string; role_description: string; role_description_translations?: Record<string, string> };
  commit_version?: string;
}

/** What the app knows about the signed-in user's reach, computed once at sign-in (`useProfile()` reads it). */
export type AccessProfile = UserProfile;

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

export interface ResourceAccessRule extends ActionAccessRule {
  features: FeatureIds;
}

/**
 * react-admin's canAccess as a pure function: partner type allowed (super admins pass) and the
 * module permission held; reading needs any level, each write action what the schema's
 * `x-resource.actions` says (the advance level by default), as the gateway checks it.
 */
export function canAccess(
  profile: AccessProfile | undefined,
  rules: Readonly<Record<string, ResourceAccessRule>>,
  { resource, action }: { resource: string; action: string },
): boolean {
  if (!profile) return false;
  const rule = rules[resource];
  if (!rule) return true;
  const actor = {
    partnerType: profile.partnerType,
    superAdmin: profile.superAdmin,
    level: accessLevel(profile.permissions, rule.features),
  };
  return mayDo(actor, rule, action);
}
