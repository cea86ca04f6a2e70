-- Live updates (issue 31.2): every committed change of a record is published on the channel
-- `webtool_changes` with pg_notify, from statement-level triggers on `records` (as record_counts, 004,
-- and the sort keys, 007): one place for the write pipeline, the opnames that write around it and the
-- background jobs alike. NOTIFY inside the writing transaction is delivered only on commit, to every
-- session listening (every gateway process on PostgreSQL, the process itself on PGlite).
--
-- A payload is small JSON: {"r": resource, "k": key, "a": "insert"|"update"|"delete", "v": version,
-- "by": who, "bp": their "<partner type>:<partner>", "o": {owner field: value}}; `o` holds the fields the gateway filters by (x-resource.tenancy,
-- the scout contact), listed per resource in `live_owner_fields` by the gateway at start. `by` is the
-- `webtool.actor` (and `webtool.actor_partner`) the write pipeline sets for its transaction, else the row's `updated_by`.
-- A statement touching more than 100 records (a seed, an import, a migration) sends one
-- {"r": resource, "a": "bulk"} per resource instead: subscribers re-read that resource.
CREATE TABLE live_owner_fields (
  resource text NOT NULL,
  field text NOT NULL,
  PRIMARY KEY (resource, field)
);

-- One function for the three triggers: each names its transition table `live_rows` (the new rows of an
-- insert or update, the old rows of a delete). Kept on one line: migrations split on `;` at line ends.
CREATE FUNCTION live_publish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF (SELECT count(*) FROM live_rows) > 100 THEN PERFORM pg_notify('webtool_changes', json_build_object('r', d.r, 'a', 'bulk')::text) FROM (SELECT DISTINCT resource AS r FROM live_rows) d; ELSE PERFORM pg_notify('webtool_changes', CASE WHEN octet_length(m.p) < 7900 THEN m.p ELSE json_build_object('r', m.r, 'a', 'bulk')::text END) FROM (SELECT c.resource AS r, json_build_object('r', c.resource, 'k', c.key, 'a', lower(TG_OP), 'v', c.version, 'by', coalesce(nullif(current_setting('webtool.actor', true), ''), c.updated_by), 'bp', nullif(current_setting('webtool.actor_partner', true), ''), 'o', (SELECT json_object_agg(f.field, c.doc -> f.field) FROM live_owner_fields f WHERE f.resource = c.resource))::text AS p FROM live_rows c) m; END IF; RETURN NULL; END $$;

CREATE TRIGGER records_live_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS live_rows FOR EACH STATEMENT EXECUTE FUNCTION live_publish();
CREATE TRIGGER records_live_update AFTER UPDATE ON records
  REFERENCING NEW TABLE AS live_rows FOR EACH STATEMENT EXECUTE FUNCTION live_publish();
CREATE TRIGGER records_live_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS live_rows FOR EACH STATEMENT EXECUTE FUNCTION live_publish();
