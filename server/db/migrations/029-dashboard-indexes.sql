-- Dashboard (issue 30): the widgets aggregate pieces booked in a period (`doc->>'created_at'`, the
-- shipment search's date filter too) and events of some codes in a period (deliveries, pickups,
-- ratings). Without these, a widget reads every piece or every event of the network.
CREATE INDEX IF NOT EXISTS records_pieces_by_created ON records ((doc->>'created_at')) WHERE resource = 'shipments';
CREATE INDEX IF NOT EXISTS piece_events_by_code_time ON piece_events (event_code, at);
