import type { AccessProfile } from './access-profile.ts';
import { hasPermission } from '../schema/permissions.ts';

const DASHBOARD = 177;
const SHIPMENTS = 179;
const toServicePoints = new Set(['maintenance_provider', 'hardware_provider', 'location_owner']);

/**
 * Where the home route leads (spec 01 §2.3): these partner types go to the service points; others
 * see the dashboard with permission 177, else the shipments with 179, else the service points.
 * For the empty url the dashboard permission is the module grant itself; on /dashboard a super
 * admin passes as for any route.
 */
export function homeDestination(
  profile: AccessProfile,
  urlEmpty: boolean,
): 'dashboard' | '/shipments' | '/service-points' {
  if (toServicePoints.has(profile.partnerType)) return '/service-points';
  const dashboard = urlEmpty
    ? profile.permissions.granted.has(DASHBOARD) || profile.superAdmin
    : hasPermission(profile.permissions, DASHBOARD);
  if (dashboard) return 'dashboard';
  if (hasPermission(profile.permissions, SHIPMENTS)) return '/shipments';
  return '/service-points';
}
