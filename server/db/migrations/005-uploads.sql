-- Files uploaded through `PUT webtool/<endpoint>` (a carrier's logo), stored once sanitised. The id is
-- random and unguessable: `GET /uploads/<id>.<ext>` serves the file without credentials, as the
-- production signed storage URL does, and a new upload gets a new id, so a cached copy is never stale.
-- (resource, key, field) names the record and readOnly field whose URL points here.

CREATE TABLE uploads (
  id text PRIMARY KEY,
  resource text NOT NULL,
  key text NOT NULL,
  field text NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX uploads_record ON uploads (resource, key, field);
