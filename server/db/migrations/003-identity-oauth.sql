-- Hosted-UI sign-in of the identity stand-in (server/identity/oauth.ts): OAuth 2.0 authorization
-- codes with PKCE, for the single sign-on option. A row outlives its code: hosted_session ties the
-- sign-in to the browser's hosted-UI cookie, so the logout endpoint can revoke what it produced.

CREATE TABLE identity_oauth_codes (
  code_hash text PRIMARY KEY,
  hosted_session text NOT NULL,
  username text NOT NULL REFERENCES identity_users (username) ON DELETE CASCADE,
  client_id text NOT NULL,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  -- The origin_jti of the tokens and refresh token the code is exchanged for.
  origin_jti uuid NOT NULL UNIQUE,
  auth_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX identity_oauth_codes_session_idx ON identity_oauth_codes (hosted_session);

CREATE INDEX identity_oauth_codes_expires_idx ON identity_oauth_codes (expires_at);
