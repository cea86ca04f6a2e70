import type { AccessProfile } from '../authProvider/access-profile.ts';
import { homeDestination } from '../authProvider/home-route.ts';
import { canOpenPath } from '../authProvider/route-access.ts';
import { menuFor, type MenuOptions } from './navigation.ts';

/**
 * Where the home route ('') opens: spec 01 §2.3's rule (the dashboard with permission 177, else the
 * shipments with 179, else the service points). A destination the user may not open, or not built
 * yet, gives way to the first menu area that is, so that a day never starts on a "not available"
 * page. Undefined: there is none (a user with no area at all).
 */
export function landingPath(
  profile: AccessProfile,
  options: MenuOptions & { isBuilt: (path: string) => boolean },
): string | undefined {
  const ruled = homeDestination(profile, true);
  const wanted = ruled === 'dashboard' ? '/dashboard' : ruled;
  if (options.isBuilt(wanted) && canOpenPath(profile, wanted)) return wanted;
  return menuFor(profile, options).find((item) => options.isBuilt(item.path) && item.path !== '/profile')?.path;
}
