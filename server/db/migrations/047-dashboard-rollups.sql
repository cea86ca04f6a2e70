-- Dashboard rollups (issue 30 speed): the four piece widgets (parcels, delivery_pickup, booking_life,
-- user_ratings) sum daily counts instead of reading a million events. The counts are kept by the
-- database in the same transaction as every write that changes them: one refresh, called by statement
-- triggers on `records` (pieces) and `piece_events`, so no write path of the gateway, the seed or a
-- migration can forget it and the figures cannot drift from the rows.
--
-- `dashboard_piece_rollups` holds what each piece adds (its rows, as JSON); a refresh of some pieces
-- takes their old rows off `dashboard_daily`, computes the new ones from the piece and its events, and
-- adds them. Test shipments add nothing. Kinds: by booking day `parcels`, `waiting` (active) and the
-- outcome (`picked_up`, `returned`, `cancelled`, `processed`); by booking day, of delivered pieces,
-- `life_to_delivery`, `life_in_locker`, `life_total` (n pieces, total hours); by event day
-- `ev_delivered`, `ev_picked_up`, `ev_collected`, `ev_expired` and `rating_<stars>` (total = stars).
-- Grain 0 is by carrier only (the network's and a carrier's views); grain 1 also by service point,
-- hardware unit and support provider (a partner's own points, units or pieces); grain 2 by carrier and
-- one area of the piece's service point (`area_key`, `area_value`: country, city and municipality in
-- lower case, the others as ids), for an area's view. A service point moved to another area refreshes
-- its pieces.
--
-- The migration runner splits on ';' at line ends: inside the function bodies a ';' never ends a line.
CREATE TABLE dashboard_piece_rollups (
  piece_id text PRIMARY KEY,
  rows jsonb NOT NULL
);

CREATE TABLE dashboard_daily (
  grain smallint NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  carrier_id text NOT NULL,
  service_point_id text NOT NULL,
  hardware_id text NOT NULL,
  support_provider_id text NOT NULL,
  area_key text NOT NULL,
  area_value text NOT NULL,
  n bigint NOT NULL,
  total numeric NOT NULL,
  PRIMARY KEY (grain, day, kind, carrier_id, area_key, area_value, service_point_id, hardware_id, support_provider_id)
);
CREATE INDEX dashboard_daily_by_point ON dashboard_daily (service_point_id, day) WHERE grain = 1;

-- What the given pieces add, computed from the pieces and their events as they are now.
CREATE FUNCTION dashboard_piece_rows(ids text[])
RETURNS TABLE (piece_id text, day date, kind text, carrier_id text, service_point_id text, hardware_id text,
  support_provider_id text, areas jsonb, n bigint, total numeric)
LANGUAGE sql STABLE AS $$
  WITH p AS (
    SELECT r.key, (r.doc->>'created_at')::timestamptz AS booked, r.doc
    FROM records r
    WHERE r.resource = 'shipments' AND r.key = ANY(ids) AND r.doc->>'created_at' IS NOT NULL
      AND coalesce(r.doc->>'test_piece', 'false') <> 'true'
  ),
  events AS (
    SELECT e.piece_id, e.event_code, e.at, e.details FROM piece_events e JOIN p ON e.piece_id = p.key
  ),
  life AS (
    SELECT e.piece_id,
      min(e.at) FILTER (WHERE e.event_code IN (103, 1212)) AS delivered,
      min(e.at) FILTER (WHERE e.event_code IN (201, 202, 203, 204, 205, 446)) AS ended
    FROM events e GROUP BY e.piece_id
  ),
  facts AS (
    SELECT p.key, (p.booked AT TIME ZONE 'UTC')::date AS day, k.kind, 0::numeric AS total
    FROM p, LATERAL (VALUES ('parcels'),
      (CASE WHEN coalesce(p.doc->>'active', 'false') = 'true' THEN 'waiting' END),
      (CASE
        WHEN (p.doc->>'state')::int IN (201) THEN 'picked_up'
        WHEN (p.doc->>'state')::int IN (202, 203, 204) THEN 'returned'
        WHEN (p.doc->>'state')::int IN (110, 206, 207) THEN 'cancelled'
        WHEN (p.doc->>'state')::int IN (205, 446) THEN 'processed'
      END)) k(kind)
    WHERE k.kind IS NOT NULL
    UNION ALL
    SELECT p.key, (p.booked AT TIME ZONE 'UTC')::date, k.kind, k.hours
    FROM p JOIN life l ON l.piece_id = p.key, LATERAL (VALUES
      ('life_to_delivery', extract(epoch FROM (l.delivered - p.booked)) / 3600),
      (CASE WHEN l.ended > l.delivered THEN 'life_in_locker' END, extract(epoch FROM (l.ended - l.delivered)) / 3600),
      (CASE WHEN l.ended > l.delivered THEN 'life_total' END, extract(epoch FROM (l.ended - p.booked)) / 3600)) k(kind, hours)
    WHERE l.delivered IS NOT NULL AND k.kind IS NOT NULL
    UNION ALL
    SELECT e.piece_id, (e.at AT TIME ZONE 'UTC')::date,
      CASE
        WHEN e.event_code IN (103, 1212) THEN 'ev_delivered'
        WHEN e.event_code IN (201) THEN 'ev_picked_up'
        WHEN e.event_code IN (202, 203, 204) THEN 'ev_collected'
        WHEN e.event_code IN (106, 413) THEN 'ev_expired'
        ELSE 'rating_' || round((e.details->>'rating')::numeric)
      END,
      CASE WHEN e.event_code = 1201 THEN (e.details->>'rating')::numeric ELSE 0 END
    FROM events e
    WHERE e.event_code IN (103, 1212, 201, 202, 203, 204, 106, 413) OR (e.event_code = 1201 AND e.details ? 'rating')
  )
  SELECT f.key, f.day, f.kind, coalesce(p.doc->>'carrier_id', ''), coalesce(p.doc->>'service_point_id', ''),
    coalesce(p.doc->>'hardware_id', ''), coalesce(p.doc->>'support_provider_id', ''),
    jsonb_strip_nulls(jsonb_build_object('country', lower(s.doc->>'country'), 'region', s.doc->>'region_id',
      'sub_region', s.doc->>'sub_region_id', 'municipality', lower(s.doc->>'municipality'),
      'city', lower(s.doc->>'city'), 'service_point_group', s.doc->>'service_point_group_id')),
    count(*), sum(f.total)
  FROM facts f JOIN p ON p.key = f.key
    LEFT JOIN records s ON s.resource = 'service_points' AND s.key = p.doc->>'service_point_id'
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
$$;

-- Adds signed rows (a piece's old ones negated, its new ones) to the three grains of `dashboard_daily`.
CREATE FUNCTION dashboard_add(delta jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_daily AS d (grain, day, kind, carrier_id, area_key, area_value, service_point_id, hardware_id,
    support_provider_id, n, total)
  SELECT g.grain, r.day, r.kind, r.carrier_id, coalesce(g.key, ''), coalesce(g.value, ''),
    CASE WHEN g.grain = 1 THEN r.service_point_id ELSE '' END,
    CASE WHEN g.grain = 1 THEN r.hardware_id ELSE '' END,
    CASE WHEN g.grain = 1 THEN r.support_provider_id ELSE '' END,
    sum(r.n), sum(r.total)
  FROM jsonb_to_recordset(delta) AS r(day date, kind text, carrier_id text, service_point_id text, hardware_id text,
      support_provider_id text, areas jsonb, n bigint, total numeric)
    CROSS JOIN LATERAL (SELECT 0 AS grain, NULL::text AS key, NULL::text AS value UNION ALL SELECT 1, NULL, NULL
      UNION ALL SELECT 2, area.key, area.value FROM jsonb_each_text(coalesce(r.areas, '{}')) area) g
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT (grain, day, kind, carrier_id, area_key, area_value, service_point_id, hardware_id, support_provider_id)
  DO UPDATE SET n = d.n + excluded.n, total = d.total + excluded.total
$$;

-- The pieces' old rows off, their new rows on, each piece's rows kept for its next refresh.
CREATE FUNCTION dashboard_refresh(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  old_rows jsonb
  ; new_rows jsonb
  ; BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN
  ; END IF
  ; SELECT jsonb_agg(jsonb_set(jsonb_set(r, '{n}', to_jsonb(-(r->>'n')::bigint)), '{total}', to_jsonb(-(r->>'total')::numeric)))
    INTO old_rows
    FROM dashboard_piece_rollups d, jsonb_array_elements(d.rows) r WHERE d.piece_id = ANY(ids)
  ; DELETE FROM dashboard_piece_rollups WHERE piece_id = ANY(ids)
  ; SELECT jsonb_agg(to_jsonb(f)) INTO new_rows FROM dashboard_piece_rows(ids) f
  ; INSERT INTO dashboard_piece_rollups (piece_id, rows)
    SELECT r->>'piece_id', jsonb_agg(r - 'piece_id') FROM jsonb_array_elements(coalesce(new_rows, '[]')) r GROUP BY 1
  ; PERFORM dashboard_add(coalesce(old_rows, '[]') || coalesce(new_rows, '[]'))
  ; END
$$;

-- The pieces written, and those at a service point written (its area may have changed); a statement
-- writing neither returns at once.
CREATE FUNCTION dashboard_pieces_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource IN ('shipments', 'service_points')) THEN RETURN NULL; END IF; PERFORM dashboard_refresh(ARRAY(SELECT key FROM written WHERE resource = 'shipments' UNION SELECT p.key FROM written w JOIN records p ON p.resource = 'shipments' AND p.doc->>'service_point_id' = w.key WHERE w.resource = 'service_points')); RETURN NULL; END $$;

CREATE FUNCTION dashboard_pieces_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource IN ('shipments', 'service_points')) THEN RETURN NULL; END IF; PERFORM dashboard_refresh(ARRAY(SELECT key FROM written WHERE resource = 'shipments' UNION SELECT key FROM removed WHERE resource = 'shipments' UNION SELECT p.key FROM written w JOIN removed o ON o.resource = w.resource AND o.key = w.key JOIN records p ON p.resource = 'shipments' AND p.doc->>'service_point_id' = w.key WHERE w.resource = 'service_points' AND (w.doc->>'country', w.doc->>'region_id', w.doc->>'sub_region_id', w.doc->>'municipality', w.doc->>'city', w.doc->>'service_point_group_id') IS DISTINCT FROM (o.doc->>'country', o.doc->>'region_id', o.doc->>'sub_region_id', o.doc->>'municipality', o.doc->>'city', o.doc->>'service_point_group_id'))); RETURN NULL; END $$;

CREATE FUNCTION dashboard_events_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM dashboard_refresh(ARRAY(SELECT DISTINCT piece_id FROM written)); RETURN NULL; END $$;

CREATE FUNCTION dashboard_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM dashboard_refresh(ARRAY(SELECT piece_id FROM written UNION SELECT piece_id FROM removed)); RETURN NULL; END $$;

CREATE FUNCTION dashboard_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM dashboard_piece_rollups; DELETE FROM dashboard_daily; RETURN NULL; END $$;

-- Without events the pieces still count (booked, waiting, their outcome): all of them computed again.
CREATE FUNCTION dashboard_events_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN DELETE FROM dashboard_piece_rollups; DELETE FROM dashboard_daily; PERFORM dashboard_refresh(ARRAY(SELECT key FROM records WHERE resource = 'shipments')); RETURN NULL; END $$;

CREATE TRIGGER records_dashboard_insert AFTER INSERT ON records
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_pieces_written();
CREATE TRIGGER records_dashboard_delete AFTER DELETE ON records
  REFERENCING OLD TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_pieces_written();
CREATE TRIGGER records_dashboard_update AFTER UPDATE ON records
  REFERENCING OLD TABLE AS removed NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_pieces_updated();
CREATE TRIGGER records_dashboard_truncate AFTER TRUNCATE ON records
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_truncated();
CREATE TRIGGER piece_events_dashboard_insert AFTER INSERT ON piece_events
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_events_written();
CREATE TRIGGER piece_events_dashboard_delete AFTER DELETE ON piece_events
  REFERENCING OLD TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_events_written();
CREATE TRIGGER piece_events_dashboard_update AFTER UPDATE ON piece_events
  REFERENCING OLD TABLE AS removed NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION dashboard_events_updated();
CREATE TRIGGER piece_events_dashboard_truncate AFTER TRUNCATE ON piece_events
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_events_truncated();

-- The pieces already stored.
SELECT dashboard_refresh(ARRAY(SELECT key FROM records WHERE resource = 'shipments'));
