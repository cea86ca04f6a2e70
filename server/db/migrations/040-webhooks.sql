-- Webhooks (issue 28). A webhook event is a record of resource 'alerts/webhooks' (schemas/webhook-event.schema.json),
-- made from a piece event in the piece event's own transaction (server/gateway/rules/webhooks.ts). Each delivery
-- attempt is a row here, written by the delivery worker (server/gateway/webhook-delivery.ts) which runs as
-- background jobs: the row is written before the request leaves (outcome 'sending'), so that a process that dies
-- mid-delivery leaves a trace the next taker closes ('interrupted') before it sends again with the same event id.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  event_id bigint NOT NULL,
  job_id uuid,
  at timestamptz NOT NULL,
  url text,
  outcome text NOT NULL CHECK (outcome IN ('sending', 'delivered', 'http_error', 'timeout', 'network_error', 'refused', 'interrupted')),
  http_status integer,
  duration_ms integer,
  response_excerpt text,
  process text
);
CREATE INDEX webhook_attempts_by_event ON webhook_attempts (event_id, at, id);

-- The worker looks for events due a delivery; the list searches by carrier, time and status.
CREATE INDEX records_webhooks_due ON records ((doc->>'next_attempt_at'))
  WHERE resource = 'alerts/webhooks' AND doc->>'status' = 'pending';
CREATE INDEX records_webhooks_by_time ON records ((doc->>'at')) WHERE resource = 'alerts/webhooks';
