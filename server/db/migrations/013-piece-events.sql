-- Shipments (issue 16): a piece's history is a log of events (spec 02 §4, 101 HardReserved ...
-- 1212 EndUserConnectedToHW), appended by server/gateway/rules/piece-store.ts in the same
-- transaction as the piece's derived state, tokens and compartment. Tens of thousands of pieces
-- with several events each: a table of its own, read by piece (the timeline) and by time (reports).
CREATE TABLE piece_events (
  id bigserial PRIMARY KEY,
  piece_id text NOT NULL,
  event_code integer NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  actor text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX piece_events_by_piece ON piece_events (piece_id, at, id);
CREATE INDEX piece_events_by_time ON piece_events (at);

-- Pieces are read by their service point (active shipments block a termination), by their end user
-- (whose deletion waits for them), and by barcode.
CREATE INDEX records_pieces_by_service_point ON records ((doc->>'service_point_id')) WHERE resource = 'shipments';
CREATE INDEX records_pieces_by_end_user ON records ((doc->>'enduser_id')) WHERE resource = 'shipments';
CREATE INDEX records_pieces_by_barcode ON records ((doc->>'piece_barcode')) WHERE resource = 'shipments';
