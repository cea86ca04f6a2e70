-- Dashboard rollups without joins whose plan depends on estimates (issue 32.1). `npm run load` on
-- PostgreSQL stopped on a statement timeout while seeding: migration 047's dashboard_piece_rows joined
-- its CTEs to each other (the facts back to their pieces, the events to the pieces) and the trigger
-- joined written service points to every piece; with statistics taken when the tables were nearly
-- empty, the planner expected one piece and chose nested loops over thousands (tens of millions of
-- comparisons, minutes). Here every piece carries its own columns, its events and its delivery and end
-- times are read through the events' index by piece (a lateral lookup, OFFSET 0 so it stays one), and
-- the pieces of a written service point are found through their index. The rows are the same.
CREATE OR REPLACE FUNCTION dashboard_piece_rows(ids text[])
RETURNS TABLE (piece_id text, day date, kind text, carrier_id text, service_point_id text, hardware_id text,
  support_provider_id text, areas jsonb, n bigint, total numeric)
LANGUAGE sql STABLE AS $$
  WITH p AS MATERIALIZED (
    SELECT r.key, (r.doc->>'created_at')::timestamptz AS booked, r.doc,
      (r.doc->>'created_at')::timestamptz AT TIME ZONE 'UTC' AS booked_utc,
      coalesce(r.doc->>'carrier_id', '') AS carrier_id, coalesce(r.doc->>'service_point_id', '') AS service_point_id,
      coalesce(r.doc->>'hardware_id', '') AS hardware_id, coalesce(r.doc->>'support_provider_id', '') AS support_provider_id,
      coalesce((SELECT jsonb_strip_nulls(jsonb_build_object('country', lower(s.doc->>'country'), 'region', s.doc->>'region_id',
        'sub_region', s.doc->>'sub_region_id', 'municipality', lower(s.doc->>'municipality'),
        'city', lower(s.doc->>'city'), 'service_point_group', s.doc->>'service_point_group_id'))
        FROM records s WHERE s.resource = 'service_points' AND s.key = r.doc->>'service_point_id'), '{}'::jsonb) AS areas
    FROM records r
    WHERE r.resource = 'shipments' AND r.key = ANY(ids) AND r.doc->>'created_at' IS NOT NULL
      AND coalesce(r.doc->>'test_piece', 'false') <> 'true'
  ),
  facts AS (
    SELECT p.key, p.booked_utc::date AS day, k.kind, 0::numeric AS total, p.carrier_id, p.service_point_id,
      p.hardware_id, p.support_provider_id, p.areas
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
    SELECT p.key, p.booked_utc::date, k.kind, k.hours, p.carrier_id, p.service_point_id, p.hardware_id,
      p.support_provider_id, p.areas
    FROM p CROSS JOIN LATERAL (
      SELECT min(e.at) FILTER (WHERE e.event_code IN (103, 1212)) AS delivered,
        min(e.at) FILTER (WHERE e.event_code IN (201, 202, 203, 204, 205, 446)) AS ended
      FROM piece_events e WHERE e.piece_id = p.key OFFSET 0
    ) l, LATERAL (VALUES
      ('life_to_delivery', extract(epoch FROM (l.delivered - p.booked)) / 3600),
      (CASE WHEN l.ended > l.delivered THEN 'life_in_locker' END, extract(epoch FROM (l.ended - l.delivered)) / 3600),
      (CASE WHEN l.ended > l.delivered THEN 'life_total' END, extract(epoch FROM (l.ended - p.booked)) / 3600)) k(kind, hours)
    WHERE l.delivered IS NOT NULL AND k.kind IS NOT NULL
    UNION ALL
    SELECT p.key, (e.at AT TIME ZONE 'UTC')::date,
      CASE
        WHEN e.event_code IN (103, 1212) THEN 'ev_delivered'
        WHEN e.event_code IN (201) THEN 'ev_picked_up'
        WHEN e.event_code IN (202, 203, 204) THEN 'ev_collected'
        WHEN e.event_code IN (106, 413) THEN 'ev_expired'
        ELSE 'rating_' || round((e.details->>'rating')::numeric)
      END,
      CASE WHEN e.event_code = 1201 THEN (e.details->>'rating')::numeric ELSE 0 END,
      p.carrier_id, p.service_point_id, p.hardware_id, p.support_provider_id, p.areas
    FROM p CROSS JOIN LATERAL (
      SELECT e.event_code, e.at, e.details FROM piece_events e WHERE e.piece_id = p.key OFFSET 0
    ) e
    WHERE e.event_code IN (103, 1212, 201, 202, 203, 204, 106, 413) OR (e.event_code = 1201 AND e.details ? 'rating')
  )
  SELECT f.key, f.day, f.kind, f.carrier_id, f.service_point_id, f.hardware_id, f.support_provider_id, f.areas,
    count(*), sum(f.total)
  FROM facts f
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
$$;

CREATE OR REPLACE FUNCTION dashboard_pieces_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource IN ('shipments', 'service_points')) THEN RETURN NULL; END IF; PERFORM dashboard_refresh(ARRAY(SELECT key FROM written WHERE resource = 'shipments' UNION SELECT p.key FROM written w CROSS JOIN LATERAL (SELECT p.key FROM records p WHERE p.resource = 'shipments' AND p.doc->>'service_point_id' = w.key OFFSET 0) p WHERE w.resource = 'service_points')); RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION dashboard_pieces_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NOT EXISTS (SELECT 1 FROM written WHERE resource IN ('shipments', 'service_points')) THEN RETURN NULL; END IF; PERFORM dashboard_refresh(ARRAY(SELECT key FROM written WHERE resource = 'shipments' UNION SELECT key FROM removed WHERE resource = 'shipments' UNION SELECT p.key FROM written w JOIN removed o ON o.resource = w.resource AND o.key = w.key CROSS JOIN LATERAL (SELECT p.key FROM records p WHERE p.resource = 'shipments' AND p.doc->>'service_point_id' = w.key OFFSET 0) p WHERE w.resource = 'service_points' AND (w.doc->>'country', w.doc->>'region_id', w.doc->>'sub_region_id', w.doc->>'municipality', w.doc->>'city', w.doc->>'service_point_group_id') IS DISTINCT FROM (o.doc->>'country', o.doc->>'region_id', o.doc->>'sub_region_id', o.doc->>'municipality', o.doc->>'city', o.doc->>'service_point_group_id'))); RETURN NULL; END $$;
