-- The search texts of the resources with trigram indexes of their own (migration 044: service points, hardware
-- units, PIN pads) move to a table of their own, written only when a text changes (issue 32, `npm run load`).
-- A record's update is never HOT (its document is in expression indexes), so every save, a comment as much as a
-- rename, wrote its search text's trigrams (some forty) into the search's GIN index and its address's into the
-- address's: on PostgreSQL 0.46 and 0.14 ms of a service point's 1.48 ms save (CPU of the server process,
-- 3,000 saves in a row, each index dropped in turn), the largest part of the save after the row itself.
-- Here a save that leaves both texts as they were writes no index entry: the trigger below compares and skips.
--
-- `records.search` stays what it was: the shared index (migration 052) reads it for the other resources, and a
-- search by its sort keys reads their copy (migration 007). These resources' searches find their keys here
-- (record-store.ts `listSql`, search.ts): `records.key IN (SELECT key FROM record_search_texts WHERE ...)`.
-- `address`: `lower(doc->>'address')` of a service point (the app bar's search by address), else NULL.
--
-- The migration runner splits on ';' at line ends: inside a function body a ';' never ends a line.
CREATE TABLE record_search_texts (
  resource text NOT NULL,
  key text NOT NULL,
  search text NOT NULL,
  address text,
  PRIMARY KEY (resource, key)
);

INSERT INTO record_search_texts (resource, key, search, address)
  SELECT resource, key, search, CASE WHEN resource = 'service_points' THEN lower(doc->>'address') END FROM records
  WHERE resource IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad');

DROP INDEX IF EXISTS records_service_point_search_trgm;
DROP INDEX IF EXISTS records_hardware_search_trgm;
DROP INDEX IF EXISTS records_pinpad_search_trgm;
DROP INDEX IF EXISTS records_service_point_address_trgm;
-- No pending list (fastupdate off), as in migration 044: PGlite has no autovacuum to merge one.
CREATE INDEX record_search_texts_service_points ON record_search_texts USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points';
CREATE INDEX record_search_texts_hardware ON record_search_texts USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points/hardware_units';
CREATE INDEX record_search_texts_pinpad ON record_search_texts USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points/pinpad';
CREATE INDEX record_search_texts_service_point_address ON record_search_texts USING gin (address gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points';

-- Kept by statement-level triggers, as the sort keys are (migrations 007, 051): a bulk insert in one statement.
CREATE FUNCTION record_search_texts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_search_texts (resource, key, search, address) SELECT a.resource, a.key, a.search, CASE WHEN a.resource = 'service_points' THEN lower(a.doc->>'address') END FROM added a WHERE a.resource IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad'); RETURN NULL; END $$;

CREATE FUNCTION record_search_texts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_search_texts t USING removed r WHERE t.resource = r.resource AND t.key = r.key AND r.resource IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad'); RETURN NULL; END $$;

-- An update writes a text only if it moved, compared with the old row first: an upsert that finds its row
-- unchanged still locks it (a write of the row's page, as migration 053 found for the sort keys). The texts of a
-- record that left (its key or resource rewritten) go.
CREATE FUNCTION record_search_texts_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_search_texts t USING removed r WHERE t.resource = r.resource AND t.key = r.key AND r.resource IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad') AND NOT EXISTS (SELECT 1 FROM added a WHERE a.resource = r.resource AND a.key = r.key); INSERT INTO record_search_texts AS t (resource, key, search, address) SELECT a.resource, a.key, a.search, CASE WHEN a.resource = 'service_points' THEN lower(a.doc->>'address') END FROM added a LEFT JOIN removed r ON r.resource = a.resource AND r.key = a.key WHERE a.resource IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad') AND (r.key IS NULL OR a.search IS DISTINCT FROM r.search OR (a.resource = 'service_points' AND a.doc->'address' IS DISTINCT FROM r.doc->'address')) ORDER BY 1, 2 ON CONFLICT (resource, key) DO UPDATE SET search = excluded.search, address = excluded.address WHERE t.search IS DISTINCT FROM excluded.search OR t.address IS DISTINCT FROM excluded.address; RETURN NULL; END $$;

CREATE FUNCTION record_search_texts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN TRUNCATE record_search_texts; RETURN NULL; END $$;

CREATE TRIGGER records_search_texts_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_search_texts_add();
CREATE TRIGGER records_search_texts_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION record_search_texts_remove();
CREATE TRIGGER records_search_texts_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_search_texts_replace();
CREATE TRIGGER records_search_texts_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION record_search_texts_clear();

ANALYZE record_search_texts;
