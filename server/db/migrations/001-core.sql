-- Every entity lives in one table: a JSONB document plus the few columns the gateway needs
-- to key, scope and version it. A new schema field is just a new key in `doc`: no migration.
CREATE TABLE records (
  resource text NOT NULL,
  key text NOT NULL,
  partner_type text,
  partner_id text,
  doc jsonb NOT NULL,
  search text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text,
  updated_by text,
  PRIMARY KEY (resource, key)
);
CREATE INDEX records_partner ON records (resource, partner_id);
CREATE INDEX records_updated ON records (resource, updated_at DESC);

-- Numeric ids per resource, handed out by the gateway (carrier_id, service_point_id, ...).
CREATE TABLE id_sequences (
  resource text PRIMARY KEY,
  last_value bigint NOT NULL DEFAULT 0
);

-- Who changed what: written in the same transaction as the change.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  username text,
  partner_type text,
  partner_id text,
  resource text NOT NULL,
  key text NOT NULL,
  action text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_record ON audit_log (resource, key, at DESC);
