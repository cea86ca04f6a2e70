/**
 * How the app reaches the identity provider (Cognito, or the local identity stand-in), and the
 * stand-in's own settings, which the gateway serves and the app's local environment points at.
 */

export interface AuthSettings {
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  identityPoolId: string;
  /** Set only for the local identity stand-in. */
  userPoolEndpoint?: string;
  identityPoolEndpoint?: string;
  /** Hosted-UI base of the single sign-on provider (oauth2/authorize, oauth2/token, logout); only when SSO is active. */
  oauthBase?: string;
}

/** The local identity stand-in: its pools, and its paths on the gateway's origin. */
export const localIdentity = {
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_LocalPool',
  userPoolClientId: 'localwebtoolclient',
  identityPoolId: 'eu-west-1:5f1c1d6e-0000-4000-8000-00000000b10c',
  userPoolPath: '/__identity/cognito-idp',
  identityPoolPath: '/__identity/cognito-identity',
  /** Base of the hosted-UI endpoints (oauth2/authorize, oauth2/token, oauth2/revoke, logout), as a Cognito domain. */
  oauthPath: '/__identity',
} as const;
