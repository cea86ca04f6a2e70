-- The webtool logs screen (server/gateway/webtool-logs.ts) reads the audit trail by time range,
-- newest first, across all records: the per-record index does not serve that.
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
