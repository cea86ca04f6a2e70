-- Sort keys (README "Performance"): a page of a long list is found by stepping through an index in
-- sort order, one step per row skipped. The gateway used to create expression indexes on `records`
-- (`doc->'field'`), and PostgreSQL reads the row for every step of such a scan, because it cannot
-- rebuild `doc` from the index: 50,000 rows skipped were 50,000 rows read. This narrow copy of
-- each sortable value, with the record's search text, answers a page of the whole resource or of a
-- search from its indexes alone (index-only scans), reading only the page's own records.

-- The expression indexes go: the sort keys serve every ordered read they served.
DO $$ DECLARE name text; BEGIN FOR name IN SELECT indexname FROM pg_indexes WHERE tablename = 'records' AND indexname LIKE 'records\_sort\_%' LOOP EXECUTE format('DROP INDEX %I', name); END LOOP; END $$;

-- Which fields of a resource have sort keys: the gateway keeps this in step with the schemas
-- (record-store.ts, ensureSortKeys), and fills in the keys of a field it adds.
CREATE TABLE record_sort_fields (
  resource text NOT NULL,
  field text NOT NULL,
  PRIMARY KEY (resource, field)
);

-- One row per record and sort field: `value` is `doc->field` (SQL NULL when missing, which sorts
-- last both ways, like the list's ORDER BY), `search` a copy of `records.search`.
CREATE TABLE record_sort_keys (
  resource text NOT NULL,
  field text NOT NULL,
  key text NOT NULL,
  value jsonb,
  search text NOT NULL,
  PRIMARY KEY (resource, key, field)
);
-- Both list orders (DESC NULLS LAST is not ASC NULLS LAST backwards); each, scanned backwards,
-- gives the other order's reverse, for pages nearer the end. `search` is included so that a search
-- is filtered inside the index.
CREATE INDEX record_sort_keys_asc ON record_sort_keys (resource, field, value ASC NULLS LAST, key ASC) INCLUDE (search);
CREATE INDEX record_sort_keys_desc ON record_sort_keys (resource, field, value DESC NULLS LAST, key DESC) INCLUDE (search);

-- Kept by statement-level triggers, as record_counts is (migration 004): a bulk insert of thousands
-- of records adds their keys in one statement.
CREATE FUNCTION record_sort_keys_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_sort_keys (resource, field, key, value, search) SELECT a.resource, f.field, a.key, a.doc -> f.field, a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource; RETURN NULL; END $$;

CREATE FUNCTION record_sort_keys_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_sort_keys k USING removed r WHERE k.resource = r.resource AND k.key = r.key; RETURN NULL; END $$;

CREATE FUNCTION record_sort_keys_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_sort_keys k USING removed r WHERE k.resource = r.resource AND k.key = r.key; INSERT INTO record_sort_keys (resource, field, key, value, search) SELECT a.resource, f.field, a.key, a.doc -> f.field, a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource; RETURN NULL; END $$;

CREATE FUNCTION record_sort_keys_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN TRUNCATE record_sort_keys; RETURN NULL; END $$;

CREATE TRIGGER records_sort_keys_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_sort_keys_add();
CREATE TRIGGER records_sort_keys_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION record_sort_keys_remove();
CREATE TRIGGER records_sort_keys_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_sort_keys_replace();
CREATE TRIGGER records_sort_keys_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION record_sort_keys_clear();
