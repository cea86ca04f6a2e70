import { Navigate, useLocation } from 'react-router-dom';
import { Loading, usePermissions } from 'react-admin';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { homeDestination } from '../authProvider/home-route.ts';
import { NotAvailablePage } from '../custom/pages/not-available-page.tsx';
import { lazyPage } from '../schema/ui/lazy-page.tsx';
import { environment } from './environment.ts';
import { landingPath } from './landing.ts';
import { isBuiltArea } from './coming-areas.ts';

/** The dashboard and its charts are chunks of their own, fetched on its first visit. */
const DashboardPage = lazyPage(async () => (await import('../custom/dashboard/dashboard-page.tsx')).DashboardPage);

/**
 * The home route ('' and /dashboard). '' opens the first area the user may use (src/app/landing.ts):
 * the dashboard for a user with permission 177; /dashboard, asked for by name, shows it, or sends on
 * as the home rule does.
 */
export function HomePage() {
  const { permissions: profile, isPending } = usePermissions<AccessProfile>();
  const { pathname, search } = useLocation();
  if (isPending) return <Loading />;
  if (!profile) return <Navigate to="/login" replace />;
  if (pathname === '/' || pathname === '') {
    const landing = landingPath(profile, { shipmentReports: environment.shipmentReports, isBuilt: isBuiltArea });
    if (landing) return <Navigate to={landing === '/dashboard' ? `${landing}${search}` : landing} replace />;
    return <NotAvailablePage area="dashboard" />;
  }
  const destination = homeDestination(profile, false);
  if (destination !== 'dashboard') return <Navigate to={destination} replace />;
  return <DashboardPage />;
}
