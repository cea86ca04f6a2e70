import { useMemo } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { Admin, Resource, type I18nProvider } from 'react-admin';
import { environment } from './environment.ts';
import { configureAmplify, currentSession } from '../authProvider/amplify-session.ts';
import { createAuthProvider } from '../authProvider/auth-provider.ts';
import { createGatewayClient } from '../dataProvider/gateway-client.ts';
import { createDataProvider } from '../dataProvider/data-provider.ts';
import { LoginPage } from '../custom/login/login-page.tsx';
import servicePoints from '../resources/service-points/index.tsx';

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
  const authProvider = useMemo(() => createAuthProvider(), []);
  const dataProvider = useMemo(() => {
    const call = createGatewayClient({
      apiBase: environment.apiBase,
      session: signingSession,
      replaceLoma: environment.replaceLoma,
      version: environment.version,
    });
    return createDataProvider(call, {
      resources: { 'service-points': { endpoint: 'service_points', id: 'service_point_id' } },
    });
  }, []);

  return (
    <BrowserRouter>
      <Admin
        disableTelemetry
        title={environment.companyName}
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        loginPage={Login}
        requireAuth
      >
        <Resource name="service-points" {...servicePoints} />
      </Admin>
    </BrowserRouter>
  );
}
