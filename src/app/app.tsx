import { lazy, Suspense, useMemo } from 'react';
import { createBrowserRouter, Route, RouterProvider, Routes } from 'react-router-dom';
import { Admin, CustomRoutes, memoryStore, Resource, type I18nProvider } from 'react-admin';
import { environment } from './environment.ts';
import { accessRules, endpoints, resources } from './resources.ts';
import { listErrors } from './list-errors.tsx';
import { AppLayout } from './layout.tsx';
import { AppNotification } from './notifications.tsx';
import { theme } from './theme.ts';
import { HomePage } from './home-page.tsx';
import { RouteGuard } from './route-guard.tsx';
import { layoutRoutes } from './route-tables.tsx';
import { configureAmplify, currentSession } from '../authProvider/amplify-session.ts';
import { createAuthProvider } from '../authProvider/auth-provider.ts';
import { activity } from '../authProvider/session-rules.ts';
import type { NavigationData } from '../authProvider/access-profile.ts';
import { createGatewayClient } from '../dataProvider/gateway-client.ts';
import { createDataProvider } from '../dataProvider/data-provider.ts';
import { LoginPage } from '../custom/account/login-page.tsx';
import { SsoCallbackPage } from '../custom/account/sso-callback-page.tsx';
import { ForgotPasswordPage } from '../custom/account/forgot-password-page.tsx';
import { ConfirmPasswordPage } from '../custom/account/confirm-password-page.tsx';
import { HelpPage } from '../custom/help/help-page.tsx';
import { NotFoundPage } from '../custom/pages/not-found-page.tsx';
import { NotAvailablePage } from '../custom/pages/not-available-page.tsx';
import { LocationGeneratorLayout } from '../custom/location-generator/location-generator-layout.tsx';

// The print pages (and the barcode library) load when a label or a location sheet is printed.
const BookingLabelPage = lazy(() =>
  import('../custom/print/booking-label-page.tsx').then((module) => ({ default: module.BookingLabelPage })),
);
const LocationPrintPage = lazy(() =>
  import('../custom/print/location-print-page.tsx').then((module) => ({ default: module.LocationPrintPage })),
);

configureAmplify(environment.auth);

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
const Login = () => <LoginPage companyName={companyName} />;

/**
 * List state (page, sort, filters) lasts for the visit only. What a page keeps across sessions is
 * the policy's call (save_filters_and_columns, src/schema/saved-filters.ts), so react-admin's own
 * localStorage store must not keep it for everyone.
 */
const store = memoryStore();

function WebtoolAdmin({ i18nProvider }: { i18nProvider: I18nProvider }) {
  const { dataProvider, authProvider } = useMemo(() => {
    const call = createGatewayClient({
      apiBase: environment.apiBase,
      session: signingSession,
      replaceLoma: environment.replaceLoma,
      version: environment.version,
      translate: (key, args) => i18nProvider.translate(key, { _: key, ...args }),
    });
    return {
      dataProvider: createDataProvider(call, { resources: endpoints, onListError: listErrors.report }),
      authProvider: createAuthProvider({
        rules: accessRules,
        loadNavigation: async () =>
          (
            await call<{ data: NavigationData }>({
              method: 'GET',
              path: 'webtool/identity_access/nav_drawer',
              query: { userinfo: '' },
            })
          ).data,
      }),
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
        <Route path="/forgot-password" element={<ForgotPasswordPage companyName={companyName} />} />
        <Route path="/confirm-password" element={<ConfirmPasswordPage companyName={companyName} />} />
        <Route path="/callback" element={<SsoCallbackPage companyName={companyName} />} />
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
                  <Route index element={<NotAvailablePage area="location_generator" />} />
                  <Route path="create-report" element={<NotAvailablePage area="location_generator_setup" />} />
                  <Route path="locations/*" element={<NotAvailablePage area="location_generator_locations" />} />
                </Routes>
              </LocationGeneratorLayout>
            </RouteGuard>
          }
        />
      </CustomRoutes>
    </Admin>
  );
}

export function App({ i18nProvider }: { i18nProvider: I18nProvider }) {
  // A data router: react-admin's unsaved-changes guard needs one; plain paths, not fragments.
  const router = useMemo(
    () => createBrowserRouter([{ path: '*', element: <WebtoolAdmin i18nProvider={i18nProvider} /> }]),
    [i18nProvider],
  );
  return <RouterProvider router={router} />;
}
