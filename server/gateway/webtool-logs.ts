import type { Db } from '../db/adapter.ts';
import type { CallerAccess } from './caller-access.ts';
import { badRequest, noPermission, notFound } from './http-error.ts';
import type { SpecialRoute } from './webtool-routes.ts';
import type { LogEntry, LogGroupColumn, LogResult, LogRow } from '../../src/contract/logs.ts';

/**
 * The "Webtool logs" contract (spec 02 §7, logs): CloudWatch Logs Insights in production, served
 * here from the gateway's own audit trail. Times are epoch seconds, as CloudWatch takes them.
 */

const DAY_SECONDS = 24 * 60 * 60;
const MAX_RANGE_SECONDS = 31 * DAY_SECONDS;
export const MAX_ROWS = 1000;
const MAX_QUERY_LENGTH = 500;
/** The end of year 9999: later instants are not dates PostgreSQL and browsers agree on. */
const LATEST_TIME = 253402300799;
/** A create lists every field of the record; the one-line summary names only the first ones. */
const SUMMARY_FIELDS = 10;

interface LogSearch {
  /** ISO instants, both inclusive. */
  from: string;
  to: string;
  /** A LIKE pattern with the caller's wildcards escaped, or undefined for every row. */
  pattern?: string;
  /** Only the entries of one piece (spec 02 §7, logs GET with piece_id): its shipment record's. */
  pieceId?: string;
  limit: number;
}

interface LogGroup {
  name: string;
  title: string;
  search(db: Db, search: LogSearch): Promise<{ rows: LogRow[]; total: number }>;
  /** Whether a `@ptr` has this group's shape: another shape is a malformed pointer, not a missing entry. */
  ownsPtr(ptr: string): boolean;
  read(db: Db, ptr: string): Promise<LogEntry | undefined>;
}

const PAST_TENSE: Record<string, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  enable: 'enabled',
  disable: 'disabled',
};

/** "operator updated partners/carrier 12: name, phone" — one line whatever the stored values hold. */
function auditMessage(
  row: { username: string | null; action: string; resource: string; key: string },
  fields: string[],
) {
  const named = fields.slice(0, SUMMARY_FIELDS);
  if (fields.length > named.length) named.push(`+${fields.length - named.length}`);
  const line = `${row.username ?? 'system'} ${PAST_TENSE[row.action] ?? row.action} ${row.resource} ${row.key}`;
  return (named.length ? `${line}: ${named.join(', ')}` : line).replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ');
}

const AUDIT_PTR = /^[1-9]\d{0,17}$/;

const auditGroup: LogGroup = {
  name: 'webtool-audit',
  title: 'Webtool audit trail',
  async search(db, { from, to, pattern, pieceId, limit }) {
    // The filter text covers who, what and the stored values; the values were masked when written.
    const result = await db.query<{
      id: string | number;
      at: string | Date;
      username: string | null;
      resource: string;
      key: string;
      action: string;
      fields: string[];
      total: string | number;
    }>(
      `SELECT id, at, username, resource, key, action,
              CASE WHEN jsonb_typeof(changes) = 'object'
                THEN (SELECT coalesce(jsonb_agg(field ORDER BY field), '[]'::jsonb) FROM jsonb_object_keys(changes) AS field)
                ELSE '[]'::jsonb END AS fields,
              count(*) OVER () AS total
       FROM audit_log
       WHERE at >= $1::timestamptz AND at <= $2::timestamptz
         AND ($3::text IS NULL
              OR concat_ws(' ', username, resource, key, action, changes::text) ILIKE $3::text ESCAPE '\\')
         AND ($5::text IS NULL OR (resource = 'shipments' AND key = $5::text))
       ORDER BY at DESC, id DESC
       LIMIT $4`,
      [from, to, pattern ?? null, limit, pieceId ?? null],
    );
    return {
      total: result.rows.length ? Number(result.rows[0].total) : 0,
      rows: result.rows.map((row) => ({
        '@timestamp': new Date(row.at).toISOString(),
        '@message': auditMessage(row, row.fields),
        '@ptr': String(row.id),
        username: row.username,
        action: row.action,
        resource: row.resource,
        key: row.key,
        fields: row.fields,
      })),
    };
  },
  ownsPtr: (ptr) => AUDIT_PTR.test(ptr),
  async read(db, ptr) {
    const result = await db.query<LogEntry>(
      `SELECT at, username, partner_type, partner_id, resource, key, action, changes
       FROM audit_log WHERE id = $1::bigint`,
      [ptr],
    );
    const entry = result.rows[0];
    return entry && { ...entry, at: new Date(entry.at).toISOString() };
  },
};

const logGroups: readonly LogGroup[] = [auditGroup];

function assertOperator(access: CallerAccess) {
  if (!access.seesAll) throw noPermission();
}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw badRequest('gateway.given_twice', { name });
  return String(value);
}

function epochSeconds(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > LATEST_TIME) {
    throw badRequest('gateway.epoch_seconds', { name });
  }
  return value;
}

function likePattern(queryString: unknown): string | undefined {
  if (queryString === undefined || queryString === null) return undefined;
  if (typeof queryString !== 'string') throw badRequest('gateway.text_expected', { name: 'queryString' });
  if (queryString.length > MAX_QUERY_LENGTH) {
    throw badRequest('gateway.max_length', { name: 'queryString', max: MAX_QUERY_LENGTH });
  }
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
  if (queryString.includes('\u0000')) throw badRequest('gateway.control_characters', { name: 'queryString' });
  const text = queryString.trim();
  return text ? `%${text.replace(/[\\%_]/g, '\\$&')}%` : undefined;
}

function groupsNamed(names: unknown): LogGroup[] {
  if (!Array.isArray(names) || names.length === 0) {
    throw badRequest('gateway.log_groups_expected');
  }
  const chosen = new Set<LogGroup>();
  for (const name of names) {
    const group = logGroups.find((candidate) => candidate.name === name);
    if (!group) throw badRequest('gateway.unknown_value', { name: 'log group', value: String(name).slice(0, 100) });
    chosen.add(group);
  }
  return [...chosen];
}

/** Rows of every chosen group in one newest-first list, cut at MAX_ROWS. */
async function searchLogs(
  db: Db,
  groups: LogGroup[],
  request: { startTime: unknown; endTime: unknown; queryString: unknown; pieceId?: string },
): Promise<LogResult> {
  const startTime = epochSeconds(request.startTime, 'startTime');
  const endTime = epochSeconds(request.endTime, 'endTime');
  if (startTime >= endTime) throw badRequest('gateway.start_before_end', { start: 'startTime', end: 'endTime' });
  if (endTime - startTime > MAX_RANGE_SECONDS) throw badRequest('gateway.range_too_long', { days: 31 });
  const search: LogSearch = {
    from: new Date(startTime * 1000).toISOString(),
    to: new Date(endTime * 1000).toISOString(),
    pattern: likePattern(request.queryString),
    pieceId: request.pieceId,
    limit: MAX_ROWS,
  };
  const found = await Promise.all(groups.map((group) => group.search(db, search)));
  const total = found.reduce((sum, part) => sum + part.total, 0);
  const data = found
    .flatMap((part) => part.rows)
    .sort((a, b) => b['@timestamp'].localeCompare(a['@timestamp']))
    .slice(0, MAX_ROWS);
  return { success: true, data, total, ...(total > data.length ? { truncated: true } : {}) };
}

async function readLog(db: Db, ptr: string | undefined) {
  if (!ptr) throw badRequest('gateway.log_pointer_required');
  const group = logGroups.find((candidate) => candidate.ownsPtr(ptr));
  if (!group) throw badRequest('gateway.log_pointer_invalid');
  const entry = await group.read(db, ptr);
  if (!entry) throw notFound('gateway.log_entry_not_found');
  return { success: true, data: entry };
}

const getLogs: SpecialRoute = async ({ request, access, db }) => {
  assertOperator(access);
  const query = request.query as Record<string, unknown>;
  const opname = single(query.opname, 'opname');
  if (opname === 'log_group_list') {
    return {
      success: true,
      data: logGroups.map((group): LogGroupColumn => ({ column_id: group.name, column_name: group.title })),
    };
  }
  if (opname === 'log') return readLog(db, single(query.ptr, 'ptr'));
  if (opname !== undefined) throw badRequest('gateway.unknown_opname', { opname: opname.slice(0, 100) });
  const pieceId = single(query.piece_id, 'piece_id');
  // A piece id as bookings take it (spec 02 §8: at most 30 characters).
  if (pieceId !== undefined && !/^\S{1,30}$/.test(pieceId)) {
    throw badRequest('gateway.piece_id_format');
  }
  const seconds = (name: string) => {
    const raw = single(query[name], name);
    if (raw === undefined || !/^\d{1,12}$/.test(raw)) throw badRequest('gateway.epoch_seconds_required', { name });
    return Number(raw);
  };
  return searchLogs(db, [...logGroups], {
    startTime: seconds('start_time'),
    endTime: seconds('end_time'),
    queryString: single(query.request, 'request'),
    pieceId,
  });
};

const postLogs: SpecialRoute = async ({ request, access, db }) => {
  assertOperator(access);
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('gateway.body_not_object');
  }
  const { opname, startTime, endTime, queryString, logGroupNames } = body as Record<string, unknown>;
  if (opname !== 'query') throw badRequest('gateway.one_of', { name: 'opname', values: 'query' });
  return searchLogs(db, groupsNamed(logGroupNames), { startTime, endTime, queryString });
};

/** Special routes of `webtool/logs`, for the gateway's `special` map; operator company only. */
export const webtoolLogsRoutes: Record<string, SpecialRoute> = {
  'GET logs': getLogs,
  'POST logs': postLogs,
};
