/**
 * The "Webtool logs" contract (spec 02 §7): CloudWatch Logs Insights in production, the gateway's
 * audit trail locally. Shared by the gateway and the logs page.
 */

/** `GET webtool/logs?opname=log_group_list`: one selectable log group. */
export interface LogGroupColumn {
  column_id: string;
  column_name: string;
}

/** A result row: CloudWatch's three fields plus the columns the gateway adds for the screen. */
export interface LogRow {
  '@timestamp': string;
  '@message': string;
  '@ptr': string;
  username?: string | null;
  action?: string;
  resource?: string;
  key?: string;
  /** The fields the change touched, so that the screen can name them in the user's language; without them (CloudWatch's own rows) the summary is `@message`. */
  fields?: string[];
}

/** A search: at most the row limit, newest first; `truncated` when more matched. */
export interface LogResult {
  success: true;
  data: LogRow[];
  total: number;
  truncated?: boolean;
}

/** `GET webtool/logs?opname=log&ptr=<@ptr>`: one audit entry in full. */
export interface LogEntry {
  /** ISO instant. */
  at: string;
  username: string | null;
  partner_type: string | null;
  partner_id: string | null;
  resource: string;
  key: string;
  action: string;
  changes: unknown;
}

/** One change of a record, newest first in `GET webtool/<endpoint>?opname=history&<id>=...`. */
export interface HistoryEntry {
  id: number;
  /** ISO instant. */
  at: string;
  username: string | null;
  partner_type: string | null;
  partner_id: string | null;
  action: string;
  /** Field by field; secret values are masked. */
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** A page of a record's history. */
export interface HistoryPage {
  data: HistoryEntry[];
  total: number;
}
