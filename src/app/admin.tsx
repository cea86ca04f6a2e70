import { lazy, Suspense, useCallback, useMemo } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Admin, CustomRoutes, memoryStore, Resource, useAuthProvider, useLogin, type I18nProvider } from 'react-admin';
import { environment } from './environment.ts';
import { accessRules, endpoints, resources } from './resources.ts';
import { listErrors } from './list-errors.tsx';
import { AppLayout } from './layout.tsx';
import { AppNotification } from './notifications.tsx';
import { routerProvider } from './router-provider.ts';
import { theme } from './theme.ts';
import { HomePage } from './home-page.tsx';
import { RouteGuard } from './route-guard.tsx';
import { layoutRoutes } from './route-tables.tsx';
import { currentSession } from '../authProvider/amplify-session.ts';
import { createAuthProvider } from '../authProvider/auth-provider.ts';
import { activity } from '../authProvider/session-rules.ts';
import type { NavigationData } from '../authProvider/access-profile.ts';
import { createGatewayClient } from '../dataProvider/gateway-client.ts';
import { createDataProvider } from '../dataProvider/data-provider.ts';
import { createLiveUpdates } from '../dataProvider/live-updates.ts';
import { signRequest } from '../dataProvider/signed-fetch.ts';
import { LoginPage } from '../custom/account/login-page.tsx';
import { SsoCallbackPage } from '../custom/account/sso-callback-page.tsx';
import type { EnterApp } from '../custom/account/auth-layout.tsx';
import { authRoutes } from './auth-routes.tsx';
import { NotFoundPage } from '../custom/pages/not-found-page.tsx';
import { lazyPage } from '../schema/ui/lazy-page.tsx';
import { preloadSchemaPages } from '../schema/ui/schema-resource.tsx';
import { accessLevel } from '../schema/permissions.ts';

// The print pages (and the barcode library) load when a label or a location sheet is printed.
const BookingLabelPage = lazy(() =>
  import('../custom/print/booking-label-page.tsx').then((module) => ({ default: module.BookingLabelPage })),
);
const LocationPrintPage = lazy(() =>
  import('../custom/print/location-print-page.tsx').then((module) => ({ default: module.LocationPrintPage })),
);

preloadSchemaPages();

const HelpPage = lazyPage(async () => (await import('../custom/help/help-page.tsx')).HelpPage);
const LocationGeneratorLayout = lazyPage(
  async () => (await import('../custom/location-generator/location-generator-layout.tsx')).LocationGeneratorLayout,
);
const GeneratorReportsPage = lazyPage(
  async () => (await import('../custom/location-generator/reports-page.tsx')).ReportsPage,
);
const GeneratorCreateReportPage = lazyPage(
  async () => (await import('../custom/location-generator/create-report-page.tsx')).CreateReportPage,
);
const GeneratorLocationsPage = lazyPage(
  async () => (await import('../custom/location-generator/report-locations-page.tsx')).ReportLocationsPage,
);

async function signingSession() {
  const session = await currentSession();
  if (!session?.tokens?.idToken) throw Object.assign(new Error('Login is expired.'), { status: 401 });
  activity.record();
  return {
    region: environment.auth.region,
    idToken: session.tokens.idToken.toString(),
    accessToken: session.tokens.accessToken.toString(),
    credentials: session.credentials,
  };
}

const companyName = environment.companyName;

/** Inside react-admin, entering the app goes through its login, which resets its own state. */
function useEnterApp(): EnterApp {
  const login = useLogin();
  return useCallback((returnUrl) => login({}, returnUrl ?? '/'), [login]);
}

function Login() {
  return <LoginPage companyName={companyName} enterApp={useEnterApp()} />;
}

function SsoCallback() {
  const authProvider = useAuthProvider();
  const leaveApp = useCallback(async () => authProvider?.logout({}), [authProvider]);
  return <SsoCallbackPage companyName={companyName} enterApp={useEnterApp()} leaveApp={leaveApp} />;
}

/**
 * List state (page, sort, filters) lasts for the visit only. What a page keeps across sessions is
 * the policy's call (save_filters_and_columns, src/schema/saved-filters.ts), so react-admin's own
 * localStorage store must not keep it for everyone.
 */
const store = memoryStore();

/**
 * The admin: react-admin, its resources and pages. The shell (app.tsx) loads it lazily once a
 * session is there; from then on it serves every address, the sign-in screens included, so that
 * its notifications ("Token is expired ...") reach the sign-in screen it sends the user to.
 */
export function WebtoolAdmin({ i18nProvider }: { i18nProvider: I18nProvider }) {
  const { dataProvider, authProvider } = useMemo(() => {
    const call = createGatewayClient({
      apiBase: environment.apiBase,
      session: signingSession,
      replaceLoma: environment.replaceLoma,
      version: environment.version,
      translate: (key, args) => i18nProvider.translate(key, { _: key, ...args }),
    });
    const authProvider = createAuthProvider({
      rules: accessRules,
      loadNavigation: async () =>
        (
          await call<{ data: NavigationData }>({
            method: 'GET',
            path: 'webtool/identity_access/nav_drawer',
            query: { userinfo: '' },
          })
        ).data,
    });
    const isScout = async (resource: string) => {
      const profile = await authProvider.profile();
      return Boolean(profile && accessLevel(profile.permissions, accessRules[resource].features) === 'scout');
    };
    // One live stream per tab (GET webtool/stream, signed like every call; ARCHITECTURE.md "Live updates").
    const namesByEndpoint = new Map<string, string[]>();
    for (const [name, { endpoint }] of Object.entries(endpoints)) {
      namesByEndpoint.set(endpoint, [...(namesByEndpoint.get(endpoint) ?? []), name]);
    }
    const live = createLiveUpdates({
      namesOf: (endpoint) => namesByEndpoint.get(endpoint) ?? [],
      open: async (signal) => {
        const { url, init } = await signRequest(
          environment.apiBase,
          { method: 'GET', path: 'webtool/stream', headers: { accept: 'text/event-stream' } },
          await signingSession(),
        );
        const response = await fetch(url, { ...init, signal, cache: 'no-store' });
        if (!response.ok || !response.body) throw new Error(`The live stream answered ${response.status}`);
        return response.body;
      },
    });
    return {
      dataProvider: createDataProvider(call, {
        resources: endpoints,
        onListError: listErrors.report,
        isScout,
        live,
      }),
      authProvider,
    };
  }, [i18nProvider]);

  return (
    <Admin
      disableTelemetry
      store={store}
      title={companyName}
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      loginPage={Login}
      layout={AppLayout}
      dashboard={HomePage}
      catchAll={NotFoundPage}
      accessDenied={NotFoundPage}
      notification={AppNotification}
      routerProvider={routerProvider}
      theme={theme}
    >
      {resources.map(({ model: _model, ...resource }) => (
        <Resource key={resource.name} {...resource} />
      ))}
      <CustomRoutes>{layoutRoutes(environment.enableLoma ? 'loma' : 'service-points')}</CustomRoutes>
      <CustomRoutes noLayout>
        <Route
          path="/help"
          element={<HelpPage filesBase={`${environment.apiBase}/files`} companyName={companyName} />}
        />
        {authRoutes(companyName)}
        <Route path="/callback" element={<SsoCallback />} />
        <Route
          path="/print/booking/:id?"
          element={
            <RouteGuard>
              <Suspense fallback={null}>
                <BookingLabelPage companyName={companyName} />
              </Suspense>
            </RouteGuard>
          }
        />
        <Route
          path="/print/location/:id"
          element={
            <RouteGuard>
              <Suspense fallback={null}>
                <LocationPrintPage companyName={companyName} />
              </Suspense>
            </RouteGuard>
          }
        />
        <Route
          path="/location-generator/*"
          element={
            <RouteGuard>
              <LocationGeneratorLayout>
                <Routes>
                  <Route index element={<GeneratorReportsPage />} />
                  <Route path="create-report" element={<GeneratorCreateReportPage />} />
                  <Route path="locations/*" element={<GeneratorLocationsPage />} />
                </Routes>
              </LocationGeneratorLayout>
            </RouteGuard>
          }
        />
      </CustomRoutes>
    </Admin>
  );
}
