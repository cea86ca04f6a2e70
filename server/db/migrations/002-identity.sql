-- Identity stand-in (server/identity): the user pool, its sign-in state, and the identity pool.
-- Tables are prefixed identity_ so they never meet the gateway's own tables; outbox keeps the
-- plain name tests and tools know it by.

CREATE TABLE identity_users (
  username text PRIMARY KEY,
  sub uuid NOT NULL UNIQUE,
  email text NOT NULL,
  family_name text NOT NULL DEFAULT '',
  -- Role names in order; they become the cognito:groups claim.
  groups jsonb NOT NULL DEFAULT '[]',
  enabled boolean NOT NULL DEFAULT true,
  status text NOT NULL CHECK (status IN ('CONFIRMED', 'FORCE_CHANGE_PASSWORD')),
  srp_salt text NOT NULL,
  srp_verifier text NOT NULL,
  temporary_password_expires_at timestamptz,
  -- Wrong emailed codes in a row; the limit blocks the account until blocked_until.
  failed_code_count integer NOT NULL DEFAULT 0,
  blocked_until timestamptz,
  invalid_otp_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX identity_users_email_key ON identity_users (lower(email));

-- The opaque Session handed to the client between two challenges. username is null for a
-- sign-in attempt on an unknown user, which is answered with a decoy challenge.
CREATE TABLE identity_auth_sessions (
  session text PRIMARY KEY,
  username text REFERENCES identity_users (username) ON DELETE CASCADE,
  login text NOT NULL,
  stage text NOT NULL CHECK (stage IN ('PASSWORD_VERIFIER', 'NEW_PASSWORD_REQUIRED', 'CUSTOM_CHALLENGE')),
  srp_a text,
  srp_b text,
  srp_big_b text,
  secret_block text,
  code text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX identity_auth_sessions_expires_idx ON identity_auth_sessions (expires_at);

-- Refresh tokens are stored hashed. origin_jti ties the id and access tokens to the sign-in
-- they came from, so revoking the refresh token revokes them for the user-pool API too.
CREATE TABLE identity_refresh_tokens (
  token_hash text PRIMARY KEY,
  origin_jti uuid NOT NULL UNIQUE,
  username text NOT NULL REFERENCES identity_users (username) ON DELETE CASCADE,
  client_id text NOT NULL,
  auth_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX identity_refresh_tokens_username_idx ON identity_refresh_tokens (username);

CREATE TABLE identity_identities (
  identity_id text PRIMARY KEY,
  username text NOT NULL UNIQUE REFERENCES identity_users (username) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- AWS-style temporary credentials; the gateway looks them up to check SigV4 signatures.
CREATE TABLE identity_credentials (
  access_key_id text PRIMARY KEY,
  secret_access_key text NOT NULL,
  session_token text NOT NULL,
  identity_id text NOT NULL REFERENCES identity_identities (identity_id) ON DELETE CASCADE,
  username text NOT NULL REFERENCES identity_users (username) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX identity_credentials_expires_idx ON identity_credentials (expires_at);

-- One RS256 key pair, generated on first use and kept so tokens survive a restart.
CREATE TABLE identity_signing_key (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  kid text NOT NULL,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity_password_resets (
  username text PRIMARY KEY REFERENCES identity_users (username) ON DELETE CASCADE,
  code text NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Emails of the local stack, read by tests and the dev outbox route.
CREATE TABLE outbox (
  id serial PRIMARY KEY,
  "to" text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  code text,
  sent_at timestamptz NOT NULL DEFAULT now()
);
