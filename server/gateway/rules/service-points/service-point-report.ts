import type { Db } from '../../../db/adapter.ts';
import type { JobWork } from '../../background-jobs.ts';
import { noPermission, notFound } from '../../http-error.ts';
import { listRecords, MAX_LIMIT, type Doc } from '../../record-store.ts';
import type { ResourceDefinition } from '../../resource-registry.ts';
import type { ResourceRules } from '../../resource-rules.ts';
import { scopeFor, type Scope } from '../../tenancy.ts';
import { queryParams, requiredText } from '../shared/params.ts';

const requestParams = queryParams({ request_id: requiredText('request_id') });

/** The report's columns, in the file's first row (spec 02 §7: rows joined by `#`, fields by `|`). */
export const REPORT_COLUMNS = ['service_point_id', 'sp_id', 'name', 'status', 'city', 'zip'] as const;

/** The kind of the background job that builds a report (server/gateway/background-jobs.ts). */
export const SERVICE_POINT_REPORT_JOB = 'service_point_report';

/** What a report job needs, stored with it so that any gateway process can build it. */
interface ReportPayload {
  resource: string;
  scope: Exclude<Scope, 'none'>;
}

/** `#` and `|` separate rows and fields: a value holding one would break the file, so it becomes a space. */
const fieldText = (value: unknown) =>
  (value === undefined || value === null ? '' : String(value)).replace(/[#|]/g, ' ');

/** The job's work: every visible service point, a page at a time, reporting progress per page. */
export function servicePointReportWork(db: Db, resources: Map<string, ResourceDefinition>): JobWork {
  return async (payload, progress) => {
    const { resource: endpoint, scope } = payload as unknown as ReportPayload;
    const resource = resources.get(endpoint);
    if (!resource) throw new Error(`Unknown resource ${endpoint}`);
    const rows: Doc[] = [];
    let total = Infinity;
    while (rows.length < total) {
      const page = await listRecords(db, resource, {
        offset: rows.length,
        limit: MAX_LIMIT,
        orderBy: resource.id,
        orderDir: 'ASC',
        filters: {},
        ...(scope !== 'all' && { scope }),
      });
      total = page.total;
      if (!page.data.length) break;
      rows.push(...page.data);
      await progress((100 * rows.length) / total);
    }
    const lines = [
      REPORT_COLUMNS.join('|'),
      ...rows.map((row) => REPORT_COLUMNS.map((c) => fieldText(row[c])).join('|')),
    ];
    return { file: lines.join('#'), rows: rows.length };
  };
}

/**
 * A report of the caller's service points, requested then polled (spec 02 §4, "Report generation"):
 * `GET ?opname=report_request` answers a `request_id` at once and builds the file in the
 * background; `GET ?opname=report_status&request_id=` answers `pending` with a progress, then
 * `ready` with the file, or `failed`. Only the requester may poll a request.
 */
export const servicePointReportQueries: NonNullable<ResourceRules['queries']> = {
  async report_request(ctx) {
    const scope = scopeFor(ctx.access, ctx.resource);
    if (scope === 'none') throw noPermission();
    const payload: ReportPayload = { resource: ctx.resource.endpoint, scope };
    const requestId = await ctx.jobs.enqueue(SERVICE_POINT_REPORT_JOB, ctx.access.caller.username, { ...payload });
    return { success: true, request_id: requestId };
  },
  async report_status(ctx, query) {
    const { request_id: requestId } = requestParams(query);
    const job = await ctx.jobs.state(requestId, ctx.access.caller.username);
    if (!job) throw notFound('gateway.unknown_report_request');
    if (job.status === 'ready') return { success: true, status: 'ready', ...(job.result as object) };
    return { success: true, ...job };
  },
};
