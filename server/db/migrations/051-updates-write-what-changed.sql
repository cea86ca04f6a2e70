-- A saved record rewrites only what its change moves (issue 32, `npm run load`: on PostgreSQL the UPDATE of a
-- service point was half of the server's time, some 2 ms warm, 5 ms under load, most of it in its triggers).
--
-- 1. Sort keys (migrations 007, 049): the update deleted every sort key of the record and inserted them all
--    again, some twenty rows and sixty index entries for a comment. Now each key is written only if its value
--    or the search text moved; the keys of a record that left (a key or resource rewritten) go as before.
-- 2. The dashboard's service point counts (migrations 046, 050): a save that changes none of the fields the
--    counts group by (dashboard_service_point_basis, next to dashboard_service_point_groups) no longer computes
--    the groups of the old and the new document only to find that no count moves.
-- 3. The change feed (migration 045): an update's notice names what changed, `"c": [...]`, the document's
--    top-level fields whose value moved, `@search` for the search text and `@partner` for the owning partner
--    columns (absent when the record's key changed: anything may have). A list's count kept by the gateway
--    (kept-counts.ts) then outlives a change that cannot move it: a comment saved on one service point no longer
--    ends every search's count.
--
-- The migration runner splits on ';' at line ends: inside a function body a ';' never ends a line.
CREATE OR REPLACE FUNCTION record_sort_keys_replace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM record_sort_keys k USING removed r WHERE k.resource = r.resource AND k.key = r.key AND NOT EXISTS (SELECT 1 FROM added a WHERE a.resource = r.resource AND a.key = r.key); INSERT INTO record_sort_keys AS k (resource, field, key, value, search) SELECT a.resource, f.field, a.key, record_sort_key(a.doc, f), a.search FROM added a JOIN record_sort_fields f ON f.resource = a.resource ORDER BY 1, 3, 2 ON CONFLICT (resource, key, field) DO UPDATE SET value = excluded.value, search = excluded.search WHERE k.value IS DISTINCT FROM excluded.value OR k.search IS DISTINCT FROM excluded.search; RETURN NULL; END $$;

-- What dashboard_service_point_groups (migration 046) reads of a service point: two documents with the same
-- basis are in the same groups. A field the groups read and the basis missed would leave counts stale
-- (dashboard-rollups.test.ts changes every field of the demo's service points and holds the two together).
CREATE FUNCTION dashboard_service_point_basis(doc jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_array(doc -> 'is_terminated', doc -> 'status', doc -> 'carriers_access', doc -> 'location_owner_id', doc -> 'maintenance_provider_id', doc -> 'support_provider_id', doc -> 'country', doc -> 'region_id', doc -> 'sub_region_id', doc -> 'municipality', doc -> 'city', doc -> 'service_point_group_id') $$;

CREATE OR REPLACE FUNCTION dashboard_service_points_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM (SELECT key, doc FROM written WHERE resource = 'service_points') n FULL JOIN (SELECT key, doc FROM removed WHERE resource = 'service_points') o ON o.key = n.key WHERE n.key IS NULL OR o.key IS NULL OR dashboard_service_point_basis(n.doc) IS DISTINCT FROM dashboard_service_point_basis(o.doc)) THEN RETURN NULL; END IF; INSERT INTO dashboard_service_points AS d (owner_field, owner_value, area_key, area_value, status_key, carriers, n) SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, sum(w.sign) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'service_points' UNION ALL SELECT doc, 1 FROM written WHERE resource = 'service_points') w, LATERAL dashboard_service_point_groups(w.doc) g GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(w.sign) <> 0 ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT (owner_field, owner_value, area_key, area_value, status_key, carriers) DO UPDATE SET n = d.n + excluded.n; RETURN NULL; END $$;

-- live_publish (migration 045) for updates, with the old rows beside the new ones. `c`: the document's top-level
-- fields whose value moved (or that went), `@search`, `@partner`.
CREATE FUNCTION live_publish_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF (SELECT count(*) FROM live_rows) > 100 THEN PERFORM pg_notify('webtool_changes', json_build_object('r', d.r, 'a', 'bulk')::text) FROM (SELECT DISTINCT resource AS r FROM live_rows) d; ELSE PERFORM pg_notify('webtool_changes', CASE WHEN octet_length(m.p) < 7900 THEN m.p ELSE json_build_object('r', m.r, 'a', 'bulk')::text END) FROM (SELECT c.resource AS r, json_build_object('r', c.resource, 'k', c.key, 'a', 'update', 'v', c.version, 'by', coalesce(nullif(current_setting('webtool.actor', true), ''), c.updated_by), 'bp', nullif(current_setting('webtool.actor_partner', true), ''), 'o', (SELECT json_object_agg(f.field, c.doc -> f.field) FROM live_owner_fields f WHERE f.resource = c.resource), 'c', CASE WHEN o.key IS NOT NULL THEN (SELECT coalesce(json_agg(d.f ORDER BY d.f), '[]'::json) FROM (SELECT e.key AS f FROM jsonb_each(c.doc) e WHERE o.doc -> e.key IS DISTINCT FROM e.value UNION ALL SELECT k FROM jsonb_object_keys(o.doc) k WHERE NOT c.doc ? k UNION ALL SELECT '@search' WHERE c.search IS DISTINCT FROM o.search UNION ALL SELECT '@partner' WHERE (c.partner_type, c.partner_id) IS DISTINCT FROM (o.partner_type, o.partner_id)) d) END)::text AS p FROM live_rows c LEFT JOIN live_old o ON o.resource = c.resource AND o.key = c.key) m; END IF; RETURN NULL; END $$;

DROP TRIGGER records_live_update ON records;
CREATE TRIGGER records_live_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS live_old NEW TABLE AS live_rows FOR EACH STATEMENT EXECUTE FUNCTION live_publish_update();
