-- A saved record's triggers look first at what moved, with no function call per row (issue 32, `npm run load`).
--
-- 1. Sort keys (migration 051): each sort key of an updated record was upserted, the upsert's condition skipping
--    an unchanged one: for a comment saved on a service point, seven keys computed by record_sort_key and seven
--    attempted inserts, each finding its conflict and locking the key's row, some 0.35 ms of a 2 ms UPDATE on
--    PostgreSQL. Now a key is written only if its inputs (the field, or a sink-last pair's two fields) or the
--    search text moved, or if the record is new under its key (an insert, a key rewritten): the stored key is
--    the old document's (the triggers keep them in step; ensureSortKeys fills a field added later). The
--    upsert's own condition stays for a statement that writes a key twice.
-- 2. record_sort_key (migration 049) and dashboard_service_point_basis (051) were declared IMMUTABLE around
--    functions that are STABLE (jsonb_build_array, to_jsonb), which keeps PostgreSQL from inlining them: each
--    call ran as a function of its own, some 40 us a row. Declared STABLE, as they are, they are inlined.
--
-- 3. The change feed's update notice (migration 051) was built twice: its text is read twice (its length, then
--    itself), and PostgreSQL, flattening the subquery, computed the changed fields (`c`) for each reading, 0.25 ms
--    each for a service point. The subquery is now kept whole (OFFSET 0), and the changed fields are looked up
--    by key rather than by taking the document apart into values (jsonb_each).
--
-- The migration runner splits on ';' at line ends: inside a function body a ';' never ends a line.
CREATE OR REPLACE FUNCTION record_sort_key(doc jsonb, f record_sort_fields) RETURNS jsonb LANGUAGE sql STABLE AS $$ SELECT CASE WHEN f.sink_field IS NULL THEN doc -> f.field ELSE jsonb_build_array(to_jsonb(coalesce(f.sink_values @> jsonb_build_array(doc -> f.sink_field), false) <> f.sink_desc), doc -> f.source) END $$;

CREATE OR REPLACE FUNCTION dashboard_service_point_basis(doc jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$ SELECT jsonb_build_array(doc -> 'is_terminated', doc -> 'status', doc -> 'carriers_access', doc -> 'location_owner_id', doc -> 'maintenance_provider_id', doc -> 'support_provider_id', doc -> 'country', doc -> 'region_id', doc -> 'sub_region_id', doc -> 'municipality', doc -> 'city', doc -> 'service_point_group_id') $$;

CREATE OR REPLACE FUNCTION record_sort_keys_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_sort_keys k USING removed r WHERE k.resource = r.resource AND k.key = r.key AND NOT EXISTS (SELECT 1 FROM added a WHERE a.resource = r.resource AND a.key = r.key); INSERT INTO record_sort_keys AS k (resource, field, key, value, search) SELECT a.resource, f.field, a.key, record_sort_key(a.doc, f), a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource LEFT JOIN removed r ON r.resource = a.resource AND r.key = a.key WHERE r.key IS NULL OR a.search IS DISTINCT FROM r.search OR (a.doc -> f.field, a.doc -> f.sink_field, a.doc -> f.source) IS DISTINCT FROM (r.doc -> f.field, r.doc -> f.sink_field, r.doc -> f.source) ORDER BY 1, 3, 2 ON CONFLICT (resource, key, field) DO UPDATE SET value = excluded.value, search = excluded.search WHERE k.value IS DISTINCT FROM excluded.value OR k.search IS DISTINCT FROM excluded.search; RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION live_publish_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF (SELECT count(*) FROM live_rows) > 100 THEN PERFORM pg_notify('webtool_changes', json_build_object('r', d.r, 'a', 'bulk')::text) FROM (SELECT DISTINCT resource AS r FROM live_rows) d; ELSE PERFORM pg_notify('webtool_changes', CASE WHEN octet_length(m.p) < 7900 THEN m.p ELSE json_build_object('r', m.r, 'a', 'bulk')::text END) FROM (SELECT c.resource AS r, json_build_object('r', c.resource, 'k', c.key, 'a', 'update', 'v', c.version, 'by', coalesce(nullif(current_setting('webtool.actor', true), ''), c.updated_by), 'bp', nullif(current_setting('webtool.actor_partner', true), ''), 'o', (SELECT json_object_agg(f.field, c.doc -> f.field) FROM live_owner_fields f WHERE f.resource = c.resource), 'c', CASE WHEN o.key IS NOT NULL THEN (SELECT coalesce(json_agg(d.f ORDER BY d.f), '[]'::json) FROM (SELECT k AS f FROM jsonb_object_keys(c.doc) k WHERE c.doc -> k IS DISTINCT FROM o.doc -> k UNION ALL SELECT k FROM jsonb_object_keys(o.doc) k WHERE NOT c.doc ? k UNION ALL SELECT '@search' WHERE c.search IS DISTINCT FROM o.search UNION ALL SELECT '@partner' WHERE (c.partner_type, c.partner_id) IS DISTINCT FROM (o.partner_type, o.partner_id)) d) END)::text AS p FROM live_rows c LEFT JOIN live_old o ON o.resource = c.resource AND o.key = c.key OFFSET 0) m; END IF; RETURN NULL; END $$;
