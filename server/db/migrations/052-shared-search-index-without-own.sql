-- The shared trigram index of the search text (migration 004) no longer holds the resources that have one of
-- their own (migration 044: service points, hardware units, PIN pads), which is the one their lists and the
-- app bar's search read. A record's update cannot be HOT (its document is in expression indexes), so each save
-- wrote its search text's trigrams into both, and into the shared one's pending list, which the save that
-- fills it merges at once: on PostgreSQL some 0.3-0.45 ms of a service point's 1.8 ms UPDATE, and now and then
-- a save that waited for a whole merge (issue 32, `npm run load`). The other resources' searches read it as
-- before: `resource = 'shipments'` implies the index's condition.
DROP INDEX records_search_trgm;
CREATE INDEX records_search_trgm ON records USING gin (search gin_trgm_ops) WITH (gin_pending_list_limit = 256)
  WHERE resource NOT IN ('service_points', 'service_points/hardware_units', 'service_points/pinpad');
