import type { AccessProfile } from '../authProvider/access-profile.ts';
import { homeDestination } from '../authProvider/home-route.ts';
import { canOpenPath } from '../authProvider/route-access.ts';
import { hasPermission } from '../schema/permissions.ts';
import { menuFor, type MenuOptions } from './navigation.ts';

const SHIPMENTS = 179;

/**
 * Where the home route ('') opens. Spec 01 §2.3's rule first; while the dashboard is not built, a
 * user the rule sends there goes where the rule sends those without it (shipments with permission
 * 179, else service points). A destination the user may not open, or not built yet, gives way to the
 * first menu area that is, so that a day never starts on a "not available" page. Undefined: there
 * is none (a user with no area at all).
 */
export function landingPath(
  profile: AccessProfile,
  options: MenuOptions & { isBuilt: (path: string) => boolean },
): string | undefined {
  const ruled = homeDestination(profile, true);
  const wanted =
    ruled !== 'dashboard' ? ruled : hasPermission(profile.permissions, SHIPMENTS) ? '/shipments' : '/service-points';
  if (options.isBuilt(wanted) && canOpenPath(profile, wanted)) return wanted;
  return menuFor(profile, options).find((item) => options.isBuilt(item.path) && item.path !== '/profile')?.path;
}
