/**
 * Environment settings (spec 01 §9). Local mode points Amplify and the gateway at this origin;
 * production values come from VITE_* variables at build time.
 */
import { localIdentity, type AuthSettings } from '../contract/auth-settings.ts';
import { configuredCountry } from '../schema/configured-country.ts';

const env = import.meta.env;

export interface Environment {
  version: string;
  live: boolean;
  production: boolean;
  companyName: string;
  languages: readonly ['en-US', 'fr-FR'];
  defaultLanguage: 'en-US';
  country: string;
  shipmentReports: boolean;
  ssoActive: boolean;
  enableLoma: boolean;
  replaceLoma: boolean;
  footerVersionTooltip: boolean;
  inactiveSignOutSeconds: number;
  /** Base URL of the API gateway; the webtool/ paths hang below it. */
  apiBase: string;
  auth: AuthSettings;
}

const local = (env.VITE_AUTH_MODE ?? 'local') === 'local';
const origin = typeof window === 'undefined' ? 'http://localhost:8080' : window.location.origin;
/** Single sign-on: on locally (the stand-in's hosted UI) unless VITE_SSO_ACTIVE=false; off by default otherwise. */
const ssoActive = env.VITE_SSO_ACTIVE === 'true' || (local && env.VITE_SSO_ACTIVE !== 'false');

export const environment: Environment = {
  version: '3.7.2',
  live: true,
  production: true,
  companyName: env.VITE_COMPANY_NAME ?? 'Infinity Lockers',
  languages: ['en-US', 'fr-FR'],
  defaultLanguage: 'en-US',
  country: configuredCountry,
  shipmentReports: env.VITE_SHIPMENT_REPORTS === 'true',
  ssoActive,
  enableLoma: env.VITE_ENABLE_LOMA === 'true',
  replaceLoma: env.VITE_REPLACE_LOMA === 'true',
  footerVersionTooltip: false,
  inactiveSignOutSeconds: 10800,
  apiBase: env.VITE_API_BASE ?? origin,
  auth: local
    ? {
        region: localIdentity.region,
        userPoolId: localIdentity.userPoolId,
        userPoolClientId: localIdentity.userPoolClientId,
        identityPoolId: localIdentity.identityPoolId,
        userPoolEndpoint: `${origin}${localIdentity.userPoolPath}`,
        identityPoolEndpoint: `${origin}${localIdentity.identityPoolPath}`,
        oauthBase: ssoActive ? `${origin}${localIdentity.oauthPath}` : undefined,
      }
    : {
        region: env.VITE_AWS_REGION ?? '',
        userPoolId: env.VITE_USER_POOL_ID ?? '',
        userPoolClientId: env.VITE_USER_POOL_CLIENT_ID ?? '',
        identityPoolId: env.VITE_IDENTITY_POOL_ID ?? '',
        oauthBase: ssoActive ? env.VITE_OAUTH_BASE : undefined,
      },
};
