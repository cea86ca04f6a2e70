import { usePermissions } from 'react-admin';
import type { PermissionSet } from '../permissions.ts';

/**
 * What the app knows about the signed-in user's reach, computed once at sign-in
 * (src/authProvider/access-profile.ts) and given by the authProvider's `getPermissions`.
 */
export interface UserProfile {
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

/**
 * The signed-in user's profile: partner type and id, super-admin, and the policies behind feature levels
 * and options; undefined while it loads or when signed out. The one way screens read it.
 */
export function useProfile(): UserProfile | undefined {
  return usePermissions<UserProfile | undefined>().permissions;
}
