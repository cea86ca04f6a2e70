-- Notifications (issue 28.3): records of resource 'shipments/notifications' (schemas/notification.schema.json),
-- made from piece events by server/gateway/rules/notifications.ts. The piece page reads a piece's notifications
-- and the reminder job asks whether a piece had its reminder; the list searches by phone and by time.
CREATE INDEX records_notifications_by_piece ON records ((doc->>'piece_id'), (doc->>'kind'))
  WHERE resource = 'shipments/notifications';
CREATE INDEX records_notifications_by_phone ON records ((doc->>'recipient_phone'))
  WHERE resource = 'shipments/notifications';
CREATE INDEX records_notifications_by_time ON records ((doc->>'at')) WHERE resource = 'shipments/notifications';
