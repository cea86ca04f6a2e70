import { useMemo } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { Admin, Resource, type I18nProvider } from 'react-admin';
import { environment } from './environment.ts';
import { accessRules, endpoints, resources } from './resources.ts';
import { listErrors } from './list-errors.tsx';
import { AppLayout } from './layout.tsx';
import { configureAmplify, currentSession } from '../authProvider/amplify-session.ts';
import { createAuthProvider } from '../authProvider/auth-provider.ts';
import type { NavigationData } from '../authProvider/access-profile.ts';
import { createGatewayClient } from '../dataProvider/gateway-client.ts';
import { createDataProvider } from '../dataProvider/data-provider.ts';
import { LoginPage } from '../custom/login/login-page.tsx';

configureAmplify(environment.auth);

async function signingSession() {
  const session = await currentSession();
  if (!session?.tokens?.idToken) throw Object.assign(new Error('Login is expired.'), { status: 401 });
  return {
    region: environment.auth.region,
    idToken: session.tokens.idToken.toString(),
    accessToken: session.tokens.accessToken.toString(),
    credentials: session.credentials,
  };
}

function Login() {
  return <LoginPage companyName={environment.companyName} />;
}

export function App({ i18nProvider }: { i18nProvider: I18nProvider }) {
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
    <BrowserRouter>
      <Admin
        disableTelemetry
        title={environment.companyName}
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        loginPage={Login}
        layout={AppLayout}
        requireAuth
      >
        {resources.map(({ model: _model, ...resource }) => (
          <Resource key={resource.name} {...resource} />
        ))}
      </Admin>
    </BrowserRouter>
  );
}
