import { assertResourceAccess } from '../../caller-access.ts';
import { noPermission } from '../../http-error.ts';
import { parseListQuery } from '../../list-query.ts';
import { listWhere } from '../../record-store.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { scopeFor } from '../../tenancy.ts';
import { TicketStatus } from '../../../../src/types/generated/codes.ts';
import type { MapPoint } from '../../../../src/contract/service-point-map.ts';
import { ALERTS, inStore, TICKETS } from '../shared/endpoints.ts';

/**
 * Open work the caller may see of another resource (tickets, alerts): SQL over `records` aliased `w`, or
 * undefined when the caller may not read it (its counts are then left out, not shown as zero).
 */
function workScope(ctx: OpnameContext, endpoint: string, params: unknown[]): string | undefined {
  const resource = ctx.resources.get(endpoint);
  if (!resource) return undefined;
  try {
    assertResourceAccess(ctx.access, resource, 'read');
  } catch {
    return undefined;
  }
  const scope = scopeFor(ctx.access, resource);
  if (scope === 'none') return undefined;
  if (scope === 'all') return 'true';
  params.push(scope.value);
  return `w.doc->>${sqlText(scope.field)} = $${params.length}`;
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * `GET webtool/servicepoints?opname=map_points&<the list's filters>` (issue 31.3): every service point of
 * the list the caller sees (same filters, search, tenancy scope and list conditions as the list, all pages
 * at once) that has coordinates, as compact points for the network map: id, name, lat, lng, status and the
 * counts of its open tickets (not Closed) and open alerts (no ticket yet, or one not Closed). A count is
 * null where the caller may not read tickets or alerts.
 */
async function mapPoints(ctx: OpnameContext, query: Record<string, string>) {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  const { opname: _opname, limit: _limit, offset: _offset, ...filters } = query;
  const listQuery = parseListQuery(ctx.resource, filters);
  if (scope !== 'all') listQuery.scope = scope;
  const conditions = ctx.rules.listConditions;
  if (conditions) listQuery.conditions = [...(listQuery.conditions ?? []), ...conditions(listQuery)];
  const { where, params } = listWhere(ctx.resource, listQuery);
  const ticketScope = workScope(ctx, TICKETS, params);
  const alertScope = workScope(ctx, 'alerts', params);
  const closed = String(TicketStatus.Closed);
  const tickets = ticketScope
    ? `(SELECT w.doc->>'sp_id' AS sp, count(*)::int AS n FROM records w
        WHERE ${inStore(TICKETS, 'w')} AND coalesce(w.doc->>'status', '') <> '${closed}' AND ${ticketScope}
        GROUP BY 1)`
    : undefined;
  const alerts = alertScope
    ? `(SELECT w.doc->>'service_point_id' AS sp, count(*)::int AS n FROM records w
        LEFT JOIN records t ON ${inStore(TICKETS, 't')} AND t.key = w.doc->>'ticket_id'
        WHERE ${inStore(ALERTS, 'w')} AND (w.doc->>'ticket_id' IS NULL OR coalesce(t.doc->>'status', '') <> '${closed}')
          AND ${alertScope}
        GROUP BY 1)`
    : undefined;
  const result = await ctx.db.query<{
    id: string;
    name: string | null;
    lat: number;
    lng: number;
    status: number | null;
    tickets: number | null;
    alerts: number | null;
  }>(
    `WITH points AS (
       SELECT key, doc FROM records
       WHERE ${where} AND jsonb_typeof(doc->'latitude') = 'number' AND jsonb_typeof(doc->'longitude') = 'number'
     )
     SELECT p.key AS id, p.doc->>'name' AS name, (p.doc->>'latitude')::float8 AS lat,
            (p.doc->>'longitude')::float8 AS lng, (p.doc->>'status')::int AS status,
            ${tickets ? 'coalesce(tk.n, 0)' : 'NULL::int'} AS tickets,
            ${alerts ? 'coalesce(al.n, 0)' : 'NULL::int'} AS alerts
     FROM points p
     ${tickets ? `LEFT JOIN ${tickets} tk ON tk.sp = p.key` : ''}
     ${alerts ? `LEFT JOIN ${alerts} al ON al.sp = p.key` : ''}
     ORDER BY p.key`,
    params,
  );
  const data: MapPoint[] = result.rows.map((row) => ({
    id: Number(row.id),
    name: row.name ?? '',
    lat: row.lat,
    lng: row.lng,
    status: row.status,
    open_tickets: row.tickets,
    open_alerts: row.alerts,
  }));
  return { success: true, data, total: data.length };
}

export const servicePointMapQueries = { map_points: mapPoints };
