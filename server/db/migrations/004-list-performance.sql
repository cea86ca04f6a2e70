-- List queries on large resources (README "Performance"): the free search, exact totals and fresh
-- planner statistics. Sort keys depend on the schemas, so the gateway keeps those in step
-- (server/gateway/record-store.ts, ensureSortKeys; migration 007), not this file.

-- The free search is a substring match (`search LIKE '%term%'`): only a trigram index answers it
-- without reading every row. pg_trgm is a standard contrib module (trusted since PostgreSQL 13, so
-- the database owner may create it); PGlite loads its build of it in server/db/adapter.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
-- A small pending list: searches read it in full, and PGlite has no autovacuum to merge it.
CREATE INDEX records_search_trgm ON records USING gin (search gin_trgm_ops) WITH (gin_pending_list_limit = 256);

-- Rows per resource, so that an unfiltered list (the first page a user opens) gets its exact total
-- without counting 100,000 rows. Writers only ever append a delta row, never update a shared counter
-- row: concurrent writers on a real server then never wait for, nor deadlock on, each other.
-- The reader sums the deltas and folds them into one row now and then.
CREATE TABLE record_counts (
  resource text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX record_counts_resource ON record_counts (resource);
INSERT INTO record_counts (resource, n) SELECT resource, count(*) FROM records GROUP BY resource;

-- Statement-level triggers with transition tables: one delta row per statement and resource, so the
-- seed's bulk inserts of thousands of rows add one row each, not thousands.
CREATE FUNCTION record_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_counts (resource, n) SELECT resource, count(*) FROM added GROUP BY resource; RETURN NULL; END $$;

CREATE FUNCTION record_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_counts (resource, n) SELECT resource, -count(*) FROM removed GROUP BY resource; RETURN NULL; END $$;

-- An update moves a row between resources only if it rewrites `resource`; a plain document update
-- nets to zero and adds nothing.
CREATE FUNCTION record_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_counts (resource, n) SELECT resource, sum(d) FROM (SELECT resource, 1 AS d FROM added UNION ALL SELECT resource, -1 FROM removed) moved GROUP BY resource HAVING sum(d) <> 0; RETURN NULL; END $$;

CREATE FUNCTION record_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_counts; RETURN NULL; END $$;

CREATE TRIGGER records_count_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_counts_inserted();
CREATE TRIGGER records_count_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION record_counts_deleted();
CREATE TRIGGER records_count_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION record_counts_updated();
CREATE TRIGGER records_count_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION record_counts_truncated();
