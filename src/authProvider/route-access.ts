import { areas, type Area } from '../schema/areas.ts';
import { features } from '../schema/features.ts';
import { accessLevel, type PermissionSet } from '../schema/permissions.ts';

/** Who may open a path prefix, and which module permission it needs (spec 01 §2.3), from its area. */
type RouteRule = Pick<Area, 'path' | 'partnerTypes' | 'feature' | 'alsoNeeds'>;

/** Longer prefixes first, so /service-points/group wins over /service-points. */
export const routeRules: readonly RouteRule[] = [...areas].sort((a, b) => b.path.length - a.path.length);

export interface AccessSubject {
  partnerType: string;
  permissions: PermissionSet;
}

export function ruleFor(path: string): RouteRule | undefined {
  const lower = path.toLowerCase();
  return routeRules.find((rule) => lower === rule.path || lower.startsWith(`${rule.path}/`));
}

/** Partner type (super admins pass) and the module permission of the area must both allow it. */
export function canOpenPath(subject: AccessSubject, path: string): boolean {
  const rule = ruleFor(path);
  if (!rule) return true;
  const { superAdmin } = subject.permissions;
  const typeAllowed = superAdmin || rule.partnerTypes === 'All' || rule.partnerTypes.includes(subject.partnerType);
  if (!typeAllowed) return false;
  if (rule.alsoNeeds && accessLevel(subject.permissions, features[rule.alsoNeeds]) === undefined) return false;
  return rule.feature ? accessLevel(subject.permissions, features[rule.feature]) !== undefined : true;
}
