-- Wrong passwords in a row, per user (subject 'user:<username or login>') and per client address
-- ('address:<ip>'), as Cognito counts them: past the free ones, each locks its subject for a
-- growing interval. Kept here, with the rest of the identity state, so a restart forgets nothing.
CREATE TABLE identity_password_failures (
  subject text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);
