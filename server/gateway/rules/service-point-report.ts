import { randomUUID } from 'node:crypto';
import { badRequest, HttpError, notFound } from '../http-error.ts';
import { listRecords, MAX_LIMIT, type Doc } from '../record-store.ts';
import type { OpnameContext, ResourceRules } from '../resource-rules.ts';
import { scopeFor } from '../tenancy.ts';

/** The report's columns, in the file's first row (spec 02 §7: rows joined by `#`, fields by `|`). */
export const REPORT_COLUMNS = ['service_point_id', 'sp_id', 'name', 'status', 'city', 'zip'] as const;

/** A finished report is kept this long for its requester to fetch, as a signed report URL lasts 600 s. */
const KEPT_MS = 600_000;

type ReportJob =
  | { owner: string; status: 'pending'; progress: number }
  | { owner: string; status: 'ready'; file: string; rows: number }
  | { owner: string; status: 'failed'; message: string };

const jobs = new Map<string, ReportJob>();

/** `#` and `|` separate rows and fields: a value holding one would break the file, so it becomes a space. */
const fieldText = (value: unknown) =>
  (value === undefined || value === null ? '' : String(value)).replace(/[#|]/g, ' ');

async function buildReport(ctx: OpnameContext, requestId: string, owner: string) {
  const scope = scopeFor(ctx.access, ctx.resource);
  const rows: Doc[] = [];
  let total = Infinity;
  while (rows.length < total) {
    const page = await listRecords(ctx.db, ctx.resource, {
      offset: rows.length,
      limit: MAX_LIMIT,
      orderBy: ctx.resource.id,
      orderDir: 'ASC',
      filters: {},
      ...(scope !== 'all' && scope !== 'none' && { scope }),
    });
    total = page.total;
    if (!page.data.length) break;
    rows.push(...page.data);
    jobs.set(requestId, { owner, status: 'pending', progress: Math.round((100 * rows.length) / total) });
  }
  const lines = [
    REPORT_COLUMNS.join('|'),
    ...rows.map((row) => REPORT_COLUMNS.map((c) => fieldText(row[c])).join('|')),
  ];
  jobs.set(requestId, { owner, status: 'ready', file: lines.join('#'), rows: rows.length });
}

/**
 * A report of the caller's service points, requested then polled (spec 02 §4, "Report generation"):
 * `GET ?opname=report_request` answers a `request_id` at once and builds the file in the
 * background; `GET ?opname=report_status&request_id=` answers `pending` with a progress, then
 * `ready` with the file, or `failed`. Only the requester may poll a request.
 */
export const servicePointReportQueries: NonNullable<ResourceRules['queries']> = {
  async report_request(ctx) {
    if (scopeFor(ctx.access, ctx.resource) === 'none')
      throw new HttpError(403, 'You have no permission for this request.');
    const requestId = randomUUID();
    const owner = ctx.access.caller.username;
    jobs.set(requestId, { owner, status: 'pending', progress: 0 });
    setTimeout(() => jobs.delete(requestId), KEPT_MS).unref();
    buildReport(ctx, requestId, owner).catch((error: unknown) =>
      jobs.set(requestId, { owner, status: 'failed', message: (error as Error).message }),
    );
    return { success: true, request_id: requestId };
  },
  async report_status(ctx, query) {
    const requestId = query.request_id;
    if (!requestId) throw badRequest('request_id is required.');
    const job = jobs.get(requestId);
    if (!job || job.owner !== ctx.access.caller.username) throw notFound('Unknown report request.');
    const { owner: _owner, ...answer } = job;
    return { success: true, ...answer };
  },
};
