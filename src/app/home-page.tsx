import { Navigate, useLocation } from 'react-router-dom';
import { Loading, usePermissions } from 'react-admin';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { homeDestination } from '../authProvider/home-route.ts';
import { NotAvailablePage } from '../custom/pages/not-available-page.tsx';
import { environment } from './environment.ts';
import { landingPath } from './landing.ts';
import { isBuiltArea } from './coming-areas.ts';

/**
 * The home route ('' and /dashboard). '' opens the first area the user may use (src/app/landing.ts);
 * /dashboard, asked for by name, says the dashboard is not built yet, or sends on as the home rule does.
 */
export function HomePage() {
  const { permissions: profile, isPending } = usePermissions<AccessProfile>();
  const { pathname } = useLocation();
  if (isPending) return <Loading />;
  if (!profile) return <Navigate to="/login" replace />;
  if (pathname === '/' || pathname === '') {
    const landing = landingPath(profile, { shipmentReports: environment.shipmentReports, isBuilt: isBuiltArea });
    if (landing) return <Navigate to={landing} replace />;
    return <NotAvailablePage area="dashboard" />;
  }
  const destination = homeDestination(profile, false);
  if (destination !== 'dashboard') return <Navigate to={destination} replace />;
  return <NotAvailablePage area="dashboard" />;
}
