import type { Db } from '../../../db/adapter.ts';
import { formatReportFile } from '../../../../src/schema/report-file.ts';
import type { JobWork } from '../../background-jobs.ts';
import { HttpError, noPermission } from '../../http-error.ts';
import type { OpnameContext, ResourceRules } from '../../resource-rules.ts';
import { refusedFields } from '../../write-pipeline.ts';
import { scopeFor } from '../../tenancy.ts';
import { PieceEvent } from '../shared/piece-events.ts';
import { PIECES } from '../shared/piece-store.ts';
import { CARRIERS, inStore, SERVICE_POINTS } from '../shared/endpoints.ts';
import { queryParams, requiredText } from '../shared/params.ts';

const requestParams = queryParams({ request_id: requiredText('request_id') });

/**
 * Shipment reports (spec 02 §4, §7): `GET webtool/shipments?opname=reports` with the kind
 * (`generate_parcels_rpt`, `generate_events_rpt`, `generate_inventory_rpt`), `from_date`, `to_date`,
 * `carrier_id`, `min_event_id`, `max_event_id` answers a `request_id` at once; the file is built in
 * the background from the pieces and their events, and `GET ?opname=report_file&request_id=` answers
 * `pending` with a progress, then `ready` with the file (rows joined by `#`, fields by `|`, column
 * names first) and when its link expires (600 s, spec 01 §9), or `failed`. Only the requester polls
 * it; a carrier's report holds its own pieces, a support provider's those at its service points.
 */

export const SHIPMENT_REPORT_JOB = 'shipment_report';
export const REPORT_FORM = 'shipment-report-request';
/** Signed report links last 600 s (spec 01 §9); the job queue keeps a finished job as long. */
export const REPORT_LINK_SECONDS = 600;
const PAGE = 2000;

export type ReportKind = 'generate_parcels_rpt' | 'generate_events_rpt' | 'generate_inventory_rpt';

interface ReportPayload {
  kind: ReportKind;
  from_date: string;
  to_date: string;
  carrier_id?: number;
  min_event_id?: number;
  max_event_id?: number;
  /** The caller's tenancy over pieces: the piece field that must hold its partner. */
  scope: { field: string; value: string } | 'all';
}

export const REPORT_COLUMNS: Record<ReportKind, string[]> = {
  generate_parcels_rpt: [
    'piece_id',
    'piece_barcode',
    'carrier',
    'sp_id',
    'service_point',
    'piece_type',
    'reservation',
    'state',
    'test_piece',
    'created_at',
    'expiry_at',
    'active',
  ],
  generate_events_rpt: ['event_id', 'at', 'piece_id', 'event_code', 'event', 'carrier', 'sp_id', 'actor'],
  generate_inventory_rpt: [
    'sp_id',
    'service_point',
    'hardware_id',
    'compartment_id',
    'piece_id',
    'carrier',
    'state',
    'created_at',
    'expiry_at',
  ],
};

const eventNames = new Map<number, string>(Object.entries(PieceEvent).map(([name, code]) => [code, name]));

/** The pieces' WHERE clause for a payload, and its parameters (numbered from `first`). */
function pieceFilter(payload: ReportPayload, alias: string, params: unknown[]) {
  let where = `${alias}.${inStore(PIECES)}`;
  if (payload.scope !== 'all') {
    params.push(payload.scope.value);
    where += ` AND ${alias}.doc->>'${payload.scope.field}' = $${params.length}`;
  }
  if (payload.carrier_id !== undefined) {
    params.push(String(payload.carrier_id));
    where += ` AND ${alias}.doc->>'carrier_id' = $${params.length}`;
  }
  return where;
}

/** The period's bounds: from the start of `from_date` to the end of `to_date` (UTC). */
const periodOf = (payload: ReportPayload) => [`${payload.from_date}T00:00:00Z`, `${payload.to_date}T23:59:59.999Z`];

function eventRange(payload: ReportPayload, alias: string, params: unknown[]) {
  let where = '';
  if (payload.min_event_id !== undefined) {
    params.push(payload.min_event_id);
    where += ` AND ${alias}.id >= $${params.length}`;
  }
  if (payload.max_event_id !== undefined) {
    params.push(payload.max_event_id);
    where += ` AND ${alias}.id <= $${params.length}`;
  }
  return where;
}

/** Names of carriers and service points, looked up once per report. */
async function namesOf(db: Db) {
  const carriers = await db.query<{ key: string; name: string }>(
    `SELECT key, doc->>'name' AS name FROM records WHERE ${inStore(CARRIERS)}`,
  );
  return new Map(carriers.rows.map((row) => [row.key, row.name]));
}

interface Row {
  [column: string]: unknown;
}

/** Runs a paged query (its SQL ends before ORDER BY/LIMIT), reporting progress, and returns every row. */
async function pagedRows(
  db: Db,
  sql: string,
  order: string,
  params: unknown[],
  progress: (percent: number) => Promise<void>,
) {
  const total = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) counted`, params)).rows[0].n);
  const rows: Row[] = [];
  while (rows.length < total) {
    const page = await db.query<Row>(`${sql} ORDER BY ${order} OFFSET ${rows.length} LIMIT ${PAGE}`, params);
    if (!page.rows.length) break;
    rows.push(...page.rows);
    await progress((95 * rows.length) / Math.max(total, 1));
  }
  return rows;
}

async function reportRows(db: Db, payload: ReportPayload, progress: (percent: number) => Promise<void>) {
  const carriers = await namesOf(db);
  const params: unknown[] = [];
  const [from, to] = periodOf(payload);
  if (payload.kind === 'generate_events_rpt') {
    const where = pieceFilter(payload, 'p', params);
    params.push(from, to);
    const sql = `SELECT e.id::int AS event_id, e.at, e.piece_id, e.event_code, e.actor, p.doc->>'carrier_id' AS carrier_id,
        s.doc->>'sp_id' AS sp_id
      FROM piece_events e JOIN records p ON ${inStore(PIECES, 'p')} AND p.key = e.piece_id
      LEFT JOIN records s ON ${inStore(SERVICE_POINTS, 's')} AND s.key = p.doc->>'service_point_id'
      WHERE ${where} AND e.at BETWEEN $${params.length - 1} AND $${params.length}${eventRange(payload, 'e', params)}`;
    const rows = await pagedRows(db, sql, 'e.at, e.id', params, progress);
    return rows.map((row) => [
      row.event_id,
      new Date(String(row.at)).toISOString(),
      row.piece_id,
      row.event_code,
      eventNames.get(Number(row.event_code)) ?? '',
      carriers.get(String(row.carrier_id)) ?? row.carrier_id,
      row.sp_id,
      row.actor,
    ]);
  }
  const where = pieceFilter(payload, 'p', params);
  params.push(from, to);
  const period = ` AND p.doc->>'created_at' BETWEEN $${params.length - 1} AND $${params.length}`;
  const ranged =
    payload.min_event_id !== undefined || payload.max_event_id !== undefined
      ? ` AND EXISTS (SELECT 1 FROM piece_events e WHERE e.piece_id = p.key${eventRange(payload, 'e', params)})`
      : '';
  const inventory =
    payload.kind === 'generate_inventory_rpt' ? ` AND coalesce((p.doc->>'active')::boolean, false)` : '';
  const sql = `SELECT p.doc, s.doc->>'sp_id' AS sp_id, s.doc->>'name' AS sp_name
    FROM records p LEFT JOIN records s ON ${inStore(SERVICE_POINTS, 's')} AND s.key = p.doc->>'service_point_id'
    WHERE ${where}${period}${ranged}${inventory}`;
  const rows = await pagedRows(db, sql, `p.doc->>'created_at', p.key`, params, progress);
  return rows.map((row) => {
    const piece = row.doc as Record<string, unknown>;
    const carrier = carriers.get(String(piece.carrier_id)) ?? piece.carrier_id;
    const state = eventNames.get(Number(piece.state)) ?? piece.state;
    if (payload.kind === 'generate_inventory_rpt') {
      return [
        row.sp_id,
        row.sp_name,
        piece.hardware_id,
        piece.compartment_id,
        piece.piece_id,
        carrier,
        state,
        piece.created_at,
        piece.expiry_at,
      ];
    }
    return [
      piece.piece_id,
      piece.piece_barcode,
      carrier,
      row.sp_id,
      row.sp_name,
      piece.piece_type,
      piece.reservation,
      state,
      piece.test_piece === true ? 'yes' : 'no',
      piece.created_at,
      piece.expiry_at,
      piece.active === true ? 'yes' : 'no',
    ];
  });
}

/** The job's work: the report's rows read from the pieces and events, written as the spec's file. */
export function shipmentReportWork(db: Db): JobWork {
  return async (payload, progress) => {
    const request = payload as unknown as ReportPayload;
    const rows = await reportRows(db, request, progress);
    return {
      file: formatReportFile(REPORT_COLUMNS[request.kind], rows),
      rows: rows.length,
      expires_at: new Date(Date.now() + REPORT_LINK_SECONDS * 1000).toISOString(),
    };
  };
}

/** Query values are text: the form's integer fields become numbers before its schema checks them. */
function typedForm(query: Record<string, string>) {
  const values: Record<string, unknown> = {};
  for (const field of ['kind', 'from_date', 'to_date'] as const) if (query[field]) values[field] = query[field];
  for (const field of ['carrier_id', 'min_event_id', 'max_event_id'] as const) {
    const raw = query[field];
    if (raw === undefined || raw === '') continue;
    values[field] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return values;
}

function pieceScopeOf(ctx: OpnameContext) {
  const pieces = ctx.resources.get(PIECES) ?? ctx.resource;
  const scope = scopeFor(ctx.access, pieces);
  if (scope === 'none') throw noPermission();
  return scope;
}

export const shipmentReportQueries: NonNullable<ResourceRules['queries']> = {
  async reports(ctx, query) {
    const scope = pieceScopeOf(ctx);
    const values = typedForm(query);
    // A carrier's report is of its own pieces: it may leave the carrier out, not name another.
    if (ctx.access.partnerType === 'carrier' && scope !== 'all') {
      if (values.carrier_id !== undefined && String(values.carrier_id) !== scope.value) throw noPermission();
      values.carrier_id = Number(scope.value);
    }
    const checked = ctx.validateForm(REPORT_FORM, values);
    if (!checked.valid) throw refusedFields(checked.errors);
    const payload: ReportPayload = { ...(checked.data as Omit<ReportPayload, 'scope'>), scope };
    const requestId = await ctx.jobs.enqueue(SHIPMENT_REPORT_JOB, ctx.access.caller.username, { ...payload });
    return { success: true, request_id: requestId };
  },

  async report_file(ctx, query) {
    const { request_id: requestId } = requestParams(query);
    const job = await ctx.jobs.state(requestId, ctx.access.caller.username);
    if (!job) {
      throw new HttpError(404, 'The report file has expired.', { message_key: 'catalogue.report_expired' });
    }
    if (job.status === 'ready') {
      const { file, expires_at } = job.result as { file: string; expires_at: string };
      return { success: true, status: 'ready', file, expires_at };
    }
    return { success: true, ...job };
  },
};
