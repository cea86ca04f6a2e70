-- Sort keys for `x-resource.sort.last` (issue 32.1). A default order that puts some records after the
-- others both ways (terminated service points) sorts by the pair [rank, value]; migration 007's keys
-- hold the value alone, so that order had none, and every page of the default service point list
-- sorted the whole resource: 0.6 to 1.9 s at 100,000 service points, p95 553 ms over the bench. A sort
-- field may now be such a pair, one field per direction (the rank is reversed for DESC so that the
-- index's order is the list's): `source` names the value's field, `sink_field` and `sink_values` the
-- records that sink, `sink_desc` the direction. The key equals the list's ORDER BY expression
-- (record-store.ts, sinksLast), so a keyed page is the same page.
ALTER TABLE record_sort_fields ADD COLUMN source text;
ALTER TABLE record_sort_fields ADD COLUMN sink_field text;
ALTER TABLE record_sort_fields ADD COLUMN sink_values jsonb;
ALTER TABLE record_sort_fields ADD COLUMN sink_desc boolean;

-- A record's key for one sort field: its value, or [rank, value] for a pair.
CREATE FUNCTION record_sort_key(doc jsonb, f record_sort_fields) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN f.sink_field IS NULL THEN doc -> f.field ELSE jsonb_build_array(to_jsonb(coalesce(f.sink_values @> jsonb_build_array(doc -> f.sink_field), false) <> f.sink_desc), doc -> f.source) END $$;

CREATE OR REPLACE FUNCTION record_sort_keys_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO record_sort_keys (resource, field, key, value, search) SELECT a.resource, f.field, a.key, record_sort_key(a.doc, f), a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource; RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION record_sort_keys_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_sort_keys k USING removed r WHERE k.resource = r.resource AND k.key = r.key; INSERT INTO record_sort_keys (resource, field, key, value, search) SELECT a.resource, f.field, a.key, record_sort_key(a.doc, f), a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource; RETURN NULL; END $$;
