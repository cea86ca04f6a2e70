import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createBrowserRouter, Route, RouterProvider, Routes, useNavigate } from 'react-router-dom';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { createTheme } from '@mui/material/styles';
import type { I18nProvider } from 'react-admin';
import { environment } from './environment.ts';
import { theme } from './theme.ts';
import { authRoutes } from './auth-routes.tsx';
import { configureAmplify } from '../authProvider/amplify-session.ts';
import { forgetSession, hadSession, rememberSession, sessionCheck } from '../authProvider/auth-provider.ts';
import type { EnterApp } from '../custom/account/auth-layout.tsx';
import { LoginPage } from '../custom/account/login-page.tsx';
import { noticeState } from '../custom/account/notice-toast.tsx';
import { SsoCallbackPage } from '../custom/account/sso-callback-page.tsx';
import { TranslatorProvider, type Translator } from '../custom/account/translation.tsx';

configureAmplify(environment.auth);

/**
 * The entry is this shell: the sign-in screens and the session check. The admin (react-admin, the
 * resources, every area) is a lazy chunk, fetched once a session is there.
 */
type AdminModule = typeof import('./admin.tsx');
let admin: AdminModule | undefined;
let adminLoading: Promise<AdminModule> | undefined;
/**
 * Not React.lazy: a Suspense boundary holds content back for 300 ms once it has shown its
 * fallback, which every signed-in page load would pay even with the admin already fetched.
 */
const loadAdmin = () =>
  (adminLoading ??= import('./admin.tsx').then(
    (module) => (admin = module),
    (error: unknown) => {
      adminLoading = undefined;
      throw error;
    },
  ));
const PublicHelpPage = lazy(() =>
  import('./public-help-page.tsx').then((module) => ({ default: module.PublicHelpPage })),
);

// A browser that signed in before most likely opens the admin: fetch it beside the session check.
if (hadSession()) void loadAdmin().catch(() => undefined);

const companyName = environment.companyName;
/** The admin's own theme (react-admin's, darker blues): the sign-in screens look as they did inside it. */
const shellTheme = createTheme(theme);

type AppI18nProvider = I18nProvider & Translator;

/**
 * Any address but the public ones: the admin opens when a session is there; otherwise the
 * sign-in screen, with the address to come back to and, when a session has expired, a word on it.
 * Nothing shows while the check runs, so a signed-in user never sees the sign-in screen flash.
 */
function SessionGate({ openAdmin }: { openAdmin: () => void }) {
  const navigate = useNavigate();
  // One check per visit of the gate: the check clears an expired session's keys, so a second one
  // (React's strict mode runs effects twice) would no longer know that it had expired.
  const check = useRef<ReturnType<typeof sessionCheck>>(undefined);

  useEffect(() => {
    check.current ??= sessionCheck();
    let current = true;
    void check.current.then((refusal) => {
      if (!current) return;
      if (!refusal) {
        openAdmin();
        return;
      }
      void navigate(refusal.redirectTo, {
        replace: true,
        state: refusal.message ? noticeState(refusal.message, 'warning') : null,
      });
    });
    return () => {
      current = false;
    };
  }, [navigate, openAdmin]);

  return null;
}

function Shell({ i18nProvider }: { i18nProvider: AppI18nProvider }) {
  const navigate = useNavigate();
  const [adminOpen, setAdminOpen] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const openAdmin = useCallback(() => {
    loadAdmin().then(() => setAdminOpen(true), setFailure);
  }, []);
  const enterApp = useCallback<EnterApp>(
    async (returnUrl) => {
      await rememberSession();
      await loadAdmin();
      await navigate(returnUrl ?? '/');
      setAdminOpen(true);
    },
    [navigate],
  );

  // To the router's error boundary, as a failed React.lazy would.
  if (failure) throw failure;
  if (adminOpen && admin) return <admin.WebtoolAdmin i18nProvider={i18nProvider} />;
  return (
    <ThemeProvider theme={shellTheme}>
      <CssBaseline enableColorScheme />
      <Routes>
        <Route path="/login" element={<LoginPage companyName={companyName} enterApp={enterApp} />} />
        {authRoutes(companyName)}
        <Route
          path="/callback"
          element={<SsoCallbackPage companyName={companyName} enterApp={enterApp} leaveApp={forgetSession} />}
        />
        <Route
          path="/help"
          element={
            <Suspense fallback={null}>
              <PublicHelpPage
                i18nProvider={i18nProvider}
                filesBase={`${environment.apiBase}/files`}
                companyName={companyName}
              />
            </Suspense>
          }
        />
        <Route path="*" element={<SessionGate openAdmin={openAdmin} />} />
      </Routes>
    </ThemeProvider>
  );
}

export function App({ i18nProvider }: { i18nProvider: AppI18nProvider }) {
  // A data router: react-admin's unsaved-changes guard needs one; plain paths, not fragments.
  const router = useMemo(
    () => createBrowserRouter([{ path: '*', element: <Shell i18nProvider={i18nProvider} /> }]),
    [i18nProvider],
  );
  return (
    <TranslatorProvider translator={i18nProvider}>
      <RouterProvider router={router} />
    </TranslatorProvider>
  );
}
