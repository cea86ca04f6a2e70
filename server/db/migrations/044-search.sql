-- The app bar's search (issue 31.1, server/gateway/search.ts, `GET webtool/search`): each kind it looks in
-- reads an index, so that a query stays fast at 100,000 service points and a million pieces. Piece ids
-- and barcodes by their start already have theirs (migration 026), the `search` text its trigram index
-- (migration 004), records by id the primary key.

-- A piece by the code of one of its tokens (a pickup code read out on the phone): `doc->'tokens' @> '[{"code": "123456"}]'`.
CREATE INDEX IF NOT EXISTS records_piece_token_codes ON records USING gin ((doc->'tokens') jsonb_path_ops) WHERE resource = 'shipments';
-- An end user by phone in E.164, however the stored number is spaced (the end-user search compares so too).
CREATE INDEX IF NOT EXISTS records_end_user_phone ON records ((regexp_replace(doc->>'phone', '[^0-9+]', '', 'g'))) WHERE resource = 'shipments/endusers';
-- An end user by the start of an e-mail address, in any case.
CREATE INDEX IF NOT EXISTS records_end_user_email ON records (lower(doc->>'email') text_pattern_ops) WHERE resource = 'shipments/endusers';
-- A service point by any part of its street address (its name, city, zip and sp_id are in `search`).
CREATE INDEX IF NOT EXISTS records_service_point_address_trgm ON records USING gin (lower(doc->>'address') gin_trgm_ops) WHERE resource = 'service_points';
-- Hardware units, carriers and partners by the start of a name, couriers by the start of a code, PIN pads by their chip id.
CREATE INDEX IF NOT EXISTS records_name_prefix ON records (resource, lower(doc->>'name') text_pattern_ops);
CREATE INDEX IF NOT EXISTS records_courier_code_prefix ON records (lower(doc->>'code') text_pattern_ops) WHERE resource = 'couriers';
CREATE INDEX IF NOT EXISTS records_pinpad_chip_prefix ON records (lower(doc->>'ble_chip_id') text_pattern_ops) WHERE resource = 'service_points/pinpad';
