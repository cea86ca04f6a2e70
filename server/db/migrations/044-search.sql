-- The app bar's search (issue 31.1, server/gateway/search.ts, `GET webtool/search`): each kind it looks in
-- reads an index, so that a query stays fast at 100,000 service points and a million pieces. Piece ids
-- and barcodes by their start already have theirs (migration 026), the `search` text its trigram index
-- (migration 004), records by id the primary key.
-- GIN indexes here take no pending list (fastupdate off): PGlite has no autovacuum to merge one, and every
-- search would read it in full; a write updates its few entries at once instead, a little slower.

-- A piece by the code of one of its tokens (a pickup code read out on the phone): `doc->'tokens' @> '[{"code": "123456"}]'`.
CREATE INDEX IF NOT EXISTS records_piece_token_codes ON records USING gin ((doc->'tokens') jsonb_path_ops) WITH (fastupdate = off) WHERE resource = 'shipments';
-- An end user by phone in E.164, however the stored number is spaced (the end-user search compares so too).
CREATE INDEX IF NOT EXISTS records_end_user_phone ON records ((regexp_replace(doc->>'phone', '[^0-9+]', '', 'g'))) WHERE resource = 'shipments/endusers';
-- An end user by the start of an e-mail address, in any case.
CREATE INDEX IF NOT EXISTS records_end_user_email ON records (lower(doc->>'email') text_pattern_ops) WHERE resource = 'shipments/endusers';
-- A service point by any part of its street address (its name, city, zip and sp_id are in `search`).
CREATE INDEX IF NOT EXISTS records_service_point_address_trgm ON records USING gin (lower(doc->>'address') gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points';
-- Hardware units, carriers and partners by the start of a name, couriers by the start of a code, PIN pads by their chip id.
CREATE INDEX IF NOT EXISTS records_name_prefix ON records (resource, lower(doc->>'name') text_pattern_ops);
CREATE INDEX IF NOT EXISTS records_courier_code_prefix ON records (lower(doc->>'code') text_pattern_ops) WHERE resource = 'couriers';
CREATE INDEX IF NOT EXISTS records_pinpad_chip_prefix ON records (lower(doc->>'ble_chip_id') text_pattern_ops) WHERE resource = 'service_points/pinpad';
-- The search text of the smaller resources by trigram, each its own index: the shared one of migration 004
-- also holds a million pieces' ids and barcodes, whose digits share the trigrams of any number typed
-- (a pickup code, a service point id), and reading their entries cost seconds where these cost a few ms.
CREATE INDEX IF NOT EXISTS records_service_point_search_trgm ON records USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points';
CREATE INDEX IF NOT EXISTS records_hardware_search_trgm ON records USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points/hardware_units';
CREATE INDEX IF NOT EXISTS records_pinpad_search_trgm ON records USING gin (search gin_trgm_ops) WITH (fastupdate = off) WHERE resource = 'service_points/pinpad';
