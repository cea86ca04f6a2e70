-- Dashboard service point and compartment counts (issue 30 speed): the service_point widget (service points by status,
-- today) sums counted groups instead of reading every service point. Like the piece rollups (migration
-- 047), the counts are kept by the database in the same transaction as every write that changes them:
-- statement triggers on `records` take the written service points' old documents off and add their new
-- ones, so no write path of the gateway, the seed or a migration can forget them and they cannot drift.
-- Each trigger adds its counts in the order of the count's key (ORDER BY): two concurrent statements on
-- PostgreSQL then lock the shared count rows in the same order and wait for each other, never deadlock.
--
-- `dashboard_service_points` counts service points by `status_key` (the widget's key: '9' when
-- terminated, else the status, '1' when none) and `carriers` (the carriers the point serves, its
-- `carriers_access` as sorted text, so that "serves any of these carriers" is `carriers && $1` and a point
-- served by two asked carriers counts once), in four grains told apart by empty columns:
--   owner_field = '' and area_key = ''   the network's and a carrier's views;
--   owner_field = '' and area_key <> ''  their view of an area (`area_value`: country, city and
--                                        municipality in lower case, the others as ids, as migration 047);
--   owner_field <> ''                    a partner's own points: the service points' tenancy fields
--                                        (schemas/service-point.schema.json), with or without an area.
-- A group whose points all left keeps a row with n = 0 (the widget sums groups with n <> 0 only).
--
-- The migration runner splits on ';' at line ends: inside the function bodies a ';' never ends a line.
CREATE TABLE dashboard_service_points (
  owner_field text NOT NULL,
  owner_value text NOT NULL,
  area_key text NOT NULL,
  area_value text NOT NULL,
  status_key text NOT NULL,
  carriers text[] NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (owner_field, owner_value, area_key, area_value, status_key, carriers)
);

-- The groups one service point's document counts in (one row each).
CREATE FUNCTION dashboard_service_point_groups(doc jsonb)
RETURNS TABLE (owner_field text, owner_value text, area_key text, area_value text, status_key text, carriers text[])
LANGUAGE sql IMMUTABLE AS $$
  SELECT o.field, o.value, a.key, a.value,
    CASE WHEN coalesce(doc->>'is_terminated', 'false') = 'true' THEN '9' ELSE coalesce(doc->>'status', '1') END,
    ARRAY(SELECT DISTINCT c FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(doc->'carriers_access') = 'array'
      THEN doc->'carriers_access' ELSE '[]'::jsonb END) c ORDER BY c)
  FROM (SELECT '' AS field, '' AS value UNION ALL
      SELECT f.field, doc->>f.field FROM (VALUES ('location_owner_id'), ('maintenance_provider_id'), ('support_provider_id')) f(field)
      WHERE doc->>f.field IS NOT NULL) o,
    (SELECT '' AS key, '' AS value UNION ALL
      SELECT f.key, f.value FROM (VALUES ('country', lower(doc->>'country')), ('region', doc->>'region_id'),
        ('sub_region', doc->>'sub_region_id'), ('municipality', lower(doc->>'municipality')), ('city', lower(doc->>'city')),
        ('service_point_group', doc->>'service_point_group_id')) f(key, value)
      WHERE f.value IS NOT NULL) a
$$;

-- The written service points' old documents off (n - 1 in each of their groups), their new ones on (n + 1);
-- a statement writing no service point returns at once.
CREATE FUNCTION dashboard_service_points_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource = 'service_points') THEN RETURN NULL; END IF; INSERT INTO dashboard_service_points AS d (owner_field, owner_value, area_key, area_value, status_key, carriers, n) SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, sum(w.sign) FROM (SELECT doc, 1 AS sign FROM written WHERE resource = 'service_points') w, LATERAL dashboard_service_point_groups(w.doc) g GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT (owner_field, owner_value, area_key, area_value, status_key, carriers) DO UPDATE SET n = d.n + excluded.n; RETURN NULL; END $$;

CREATE FUNCTION dashboard_service_points_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM removed WHERE resource = 'service_points') THEN RETURN NULL; END IF; INSERT INTO dashboard_service_points AS d (owner_field, owner_value, area_key, area_value, status_key, carriers, n) SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, sum(w.sign) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'service_points') w, LATERAL dashboard_service_point_groups(w.doc) g GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT (owner_field, owner_value, area_key, area_value, status_key, carriers) DO UPDATE SET n = d.n + excluded.n; RETURN NULL; END $$;

CREATE FUNCTION dashboard_service_points_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource = 'service_points') THEN RETURN NULL; END IF; INSERT INTO dashboard_service_points AS d (owner_field, owner_value, area_key, area_value, status_key, carriers, n) SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, sum(w.sign) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'service_points' UNION ALL SELECT doc, 1 FROM written WHERE resource = 'service_points') w, LATERAL dashboard_service_point_groups(w.doc) g GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6 ON CONFLICT (owner_field, owner_value, area_key, area_value, status_key, carriers) DO UPDATE SET n = d.n + excluded.n; RETURN NULL; END $$;

CREATE FUNCTION dashboard_service_points_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM dashboard_service_points; RETURN NULL; END $$;

CREATE TRIGGER records_dashboard_service_points_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_service_points_inserted();
CREATE TRIGGER records_dashboard_service_points_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dashboard_service_points_deleted();
CREATE TRIGGER records_dashboard_service_points_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_service_points_updated();
CREATE TRIGGER records_dashboard_service_points_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_service_points_truncated();

-- The service points already stored.
INSERT INTO dashboard_service_points (owner_field, owner_value, area_key, area_value, status_key, carriers, n)
SELECT g.owner_field, g.owner_value, g.area_key, g.area_value, g.status_key, g.carriers, count(*)
FROM records r, LATERAL dashboard_service_point_groups(r.doc) g WHERE r.resource = 'service_points'
GROUP BY 1, 2, 3, 4, 5, 6;

-- Compartments (the compartments_capacity widget): counted by hardware unit and size, with how many are
-- free, occupied, reserved (and not occupied) and out of service (disabled, faulty, inactive or locked,
-- neither occupied nor reserved), kept the same way: the widget sums the counts of the units its view
-- covers instead of reading every compartment. A unit whose compartments all left keeps rows of zeros
-- (the widget sums sizes with compartments only).
CREATE TABLE dashboard_compartments (
  hardware_id text NOT NULL,
  size text NOT NULL,
  compartments bigint NOT NULL,
  free bigint NOT NULL,
  occupied bigint NOT NULL,
  reserved bigint NOT NULL,
  out_of_service bigint NOT NULL,
  PRIMARY KEY (hardware_id, size)
);

-- What one compartment's document counts for (1 or 0 in each column), as the widget counts it.
CREATE FUNCTION dashboard_compartment_counts(doc jsonb)
RETURNS TABLE (hardware_id text, size text, compartments int, free int, occupied int, reserved int, out_of_service int)
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(doc->>'hardware_id', ''), coalesce(doc->>'size', 'medium'), 1,
    (coalesce(doc->>'is_free', 'false') = 'true')::int,
    (coalesce(doc->>'is_occupied', 'false') = 'true')::int,
    (coalesce(doc->>'is_reserved', 'false') = 'true' AND NOT coalesce(doc->>'is_occupied', 'false') = 'true')::int,
    (NOT coalesce(doc->>'is_occupied', 'false') = 'true' AND NOT coalesce(doc->>'is_reserved', 'false') = 'true'
      AND (coalesce(doc->>'is_disabled', 'false') = 'true' OR coalesce(doc->>'is_faulty', 'false') = 'true'
        OR coalesce(doc->>'is_inactive_comp', 'false') = 'true' OR coalesce(doc->>'is_locked', 'false') = 'true'))::int
$$;

-- The written compartments' old documents off, their new ones on; a statement writing none returns at once.
CREATE FUNCTION dashboard_compartments_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource = 'compartments') THEN RETURN NULL; END IF; INSERT INTO dashboard_compartments AS d SELECT c.hardware_id, c.size, sum(w.sign * c.compartments), sum(w.sign * c.free), sum(w.sign * c.occupied), sum(w.sign * c.reserved), sum(w.sign * c.out_of_service) FROM (SELECT doc, 1 AS sign FROM written WHERE resource = 'compartments') w, LATERAL dashboard_compartment_counts(w.doc) c GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT (hardware_id, size) DO UPDATE SET compartments = d.compartments + excluded.compartments, free = d.free + excluded.free, occupied = d.occupied + excluded.occupied, reserved = d.reserved + excluded.reserved, out_of_service = d.out_of_service + excluded.out_of_service; RETURN NULL; END $$;

CREATE FUNCTION dashboard_compartments_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM removed WHERE resource = 'compartments') THEN RETURN NULL; END IF; INSERT INTO dashboard_compartments AS d SELECT c.hardware_id, c.size, sum(w.sign * c.compartments), sum(w.sign * c.free), sum(w.sign * c.occupied), sum(w.sign * c.reserved), sum(w.sign * c.out_of_service) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'compartments') w, LATERAL dashboard_compartment_counts(w.doc) c GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT (hardware_id, size) DO UPDATE SET compartments = d.compartments + excluded.compartments, free = d.free + excluded.free, occupied = d.occupied + excluded.occupied, reserved = d.reserved + excluded.reserved, out_of_service = d.out_of_service + excluded.out_of_service; RETURN NULL; END $$;

CREATE FUNCTION dashboard_compartments_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource = 'compartments') THEN RETURN NULL; END IF; INSERT INTO dashboard_compartments AS d SELECT c.hardware_id, c.size, sum(w.sign * c.compartments), sum(w.sign * c.free), sum(w.sign * c.occupied), sum(w.sign * c.reserved), sum(w.sign * c.out_of_service) FROM (SELECT doc, -1 AS sign FROM removed WHERE resource = 'compartments' UNION ALL SELECT doc, 1 FROM written WHERE resource = 'compartments') w, LATERAL dashboard_compartment_counts(w.doc) c GROUP BY 1, 2 ORDER BY 1, 2 ON CONFLICT (hardware_id, size) DO UPDATE SET compartments = d.compartments + excluded.compartments, free = d.free + excluded.free, occupied = d.occupied + excluded.occupied, reserved = d.reserved + excluded.reserved, out_of_service = d.out_of_service + excluded.out_of_service; RETURN NULL; END $$;

CREATE FUNCTION dashboard_compartments_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM dashboard_compartments; RETURN NULL; END $$;

CREATE TRIGGER records_dashboard_compartments_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_compartments_inserted();
CREATE TRIGGER records_dashboard_compartments_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dashboard_compartments_deleted();
CREATE TRIGGER records_dashboard_compartments_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_compartments_updated();
CREATE TRIGGER records_dashboard_compartments_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_compartments_truncated();

-- The compartments already stored.
INSERT INTO dashboard_compartments
SELECT c.hardware_id, c.size, sum(c.compartments), sum(c.free), sum(c.occupied), sum(c.reserved), sum(c.out_of_service)
FROM records r, LATERAL dashboard_compartment_counts(r.doc) c WHERE r.resource = 'compartments'
GROUP BY 1, 2;
