export interface ParsedRole {
  roleName: string;
  /** e.g. carrier, maintenance_provider, operator. */
  partnerType: string;
  /** The partner's segment of the role name (its id, or the operator's marker). */
  partner: string | undefined;
}

/**
 * The role is the first group. Its partner type is the name without its last two
 * underscore-separated parts (the first part when there are 3 or fewer); the partner is the
 * segment that follows the partner type (spec 01 §6).
 */
export function parseRole(groups: readonly string[] | undefined): ParsedRole | undefined {
  const roleName = groups?.[0]?.trim();
  if (!roleName) return undefined;
  const parts = roleName.split('_');
  const typeParts = parts.length <= 3 ? 1 : parts.length - 2;
  return {
    roleName,
    partnerType: parts.slice(0, typeParts).join('_'),
    partner: parts[typeParts],
  };
}

/** A super admin's role description contains 'Super' and its name the operator's role marker. */
export function isSuperAdmin(roleName: string, roleDescription: string | undefined, marker: string): boolean {
  return Boolean(roleDescription?.includes('Super')) && roleName.includes(marker);
}

/** Marker in the operator company's role names (the provider's first role). */
export const operatorRoleMarker = 'operator';
