import { Navigate, useLocation } from 'react-router-dom';
import { Loading, usePermissions } from 'react-admin';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { homeDestination } from '../authProvider/home-route.ts';
import { NotAvailablePage } from '../custom/pages/not-available-page.tsx';

/** The home route ('' and /dashboard): the dashboard, or where the home rule sends the user. */
export function HomePage() {
  const { permissions: profile, isPending } = usePermissions<AccessProfile>();
  const { pathname } = useLocation();
  if (isPending) return <Loading />;
  if (!profile) return <Navigate to="/login" replace />;
  const destination = homeDestination(profile, pathname === '/' || pathname === '');
  if (destination !== 'dashboard') return <Navigate to={destination} replace />;
  return <NotAvailablePage area="dashboard" />;
}
