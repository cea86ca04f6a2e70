import { Navigate, Route, useParams } from 'react-router-dom';
import { NotAvailablePage } from '../custom/pages/not-available-page.tsx';
import { lazyPage } from '../schema/ui/lazy-page.tsx';
import { endpoints } from './resources.ts';
import { HomePage } from './home-page.tsx';
import { comingAreas } from './coming-areas.ts';
import { environment } from './environment.ts';

/**
 * Every area's page is a chunk of its own, fetched on the first visit: a new area is one lazyPage
 * line here and one Route below (resources get the same from schemaResource).
 */
const ProfilePage = lazyPage(async () => (await import('../custom/account/profile-page.tsx')).ProfilePage);
const WebtoolLogsPage = lazyPage(async () => (await import('../custom/logs/webtool-logs-page.tsx')).WebtoolLogsPage);
const PieceLogsPage = lazyPage(async () => (await import('../resources/shipments/piece-logs-page.tsx')).PieceLogsPage);
const ShipmentReportsPage = lazyPage(
  async () => (await import('../custom/reports/shipment-reports-page.tsx')).ShipmentReportsPage,
);

const InvoicingReportPage = lazyPage(
  async () => (await import('../custom/invoicing/invoicing-report-page.tsx')).InvoicingReportPage,
);

const LicencePage = lazyPage(async () => (await import('../custom/licences/licence-page.tsx')).LicencePage);

const ServicePointMapPage = lazyPage(
  async () => (await import('../custom/service-point-map/service-point-map-page.tsx')).ServicePointMapPage,
);

const DebugPage = lazyPage(async () => (await import('../custom/debug/debug-page.tsx')).DebugPage);

/** What the debug page says of the app itself (spec 01 §9); the gateway answers the rest. */
const appFacts = {
  version: environment.version,
  build: import.meta.env.VITE_COMMIT_VERSION ?? 'local',
  mode: (import.meta.env.VITE_AUTH_MODE ?? 'local') === 'local' ? 'local' : 'cloud',
  production: environment.production,
  live: environment.live,
  country: environment.country,
};

/** The audit trail names records by gateway endpoint; the logs screen labels them by resource. */
const resourceNames = Object.fromEntries(Object.entries(endpoints).map(([name, { endpoint }]) => [endpoint, name]));

function LomaRedirect() {
  const params = useParams();
  return <Navigate to={`/service-points${params['*'] ? `/${params['*']}` : ''}`} replace />;
}

export type RouteTable = 'service-points' | 'loma';

/**
 * Routes inside the main layout. The configuration flag picks the route table: with 'loma', the
 * service point screens are reached under /loma as well; /loma becomes /service-points when
 * replace-loma is on, and in the standard table.
 */
export function layoutRoutes(table: RouteTable) {
  return [
    <Route key="dashboard" path="/dashboard" element={<HomePage />} />,
    <Route key="profile" path="/profile" element={<ProfilePage />} />,
    <Route key="logs" path="/logs" element={<WebtoolLogsPage resourceNames={resourceNames} />} />,
    <Route key="piece-logs" path="/piece-logs" element={<PieceLogsPage />} />,
    <Route key="shipment-reports" path="/shipments/reports" element={<ShipmentReportsPage />} />,
    <Route key="reports" path="/reports" element={<ShipmentReportsPage />} />,
    <Route key="invoicing-report" path="/invoicing-report" element={<InvoicingReportPage />} />,
    <Route key="carrier-invoicing" path="/reports/carrier-invoicing" element={<InvoicingReportPage />} />,
    <Route key="license" path="/license" element={<LicencePage />} />,
    <Route key="debug" path="/debug" element={<DebugPage app={appFacts} />} />,
    // The network map (issue 31.3): under /service-points, so it is open to exactly who may open the list.
    <Route key="service-point-map" path="/service-points/map" element={<ServicePointMapPage />} />,
    <Route key="groups" path="/service-points/group/*" element={<Navigate to="/service-point-groups" replace />} />,
    table === 'loma' ? (
      <Route key="loma" path="/loma/*" element={<LomaRedirect />} />
    ) : (
      <Route key="loma" path="/loma/*" element={<Navigate to="/service-points" replace />} />
    ),
    ...Object.entries(comingAreas).map(([path, area]) => (
      <Route key={path} path={`/${path}/*`} element={<NotAvailablePage area={area} />} />
    )),
  ];
}
