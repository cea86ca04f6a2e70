-- A shipment is found by the first characters of its piece id or barcode (`x-filter.prefix`,
-- `piece_id_prefix=` and `piece_barcode_prefix=`, issue 24): `lower(doc->>'<field>') LIKE 'abc1%'`
-- reads these indexes (text_pattern_ops serves LIKE prefixes whatever the collation) instead of
-- every piece. The resource leads, so that a prefix is looked up among the pieces alone.
CREATE INDEX IF NOT EXISTS records_piece_id_prefix
  ON records (resource, lower(doc->>'piece_id') text_pattern_ops);
CREATE INDEX IF NOT EXISTS records_piece_barcode_prefix
  ON records (resource, lower(doc->>'piece_barcode') text_pattern_ops);
