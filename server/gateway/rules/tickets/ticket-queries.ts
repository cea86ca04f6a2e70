import type { OpnameContext } from '../../resource-rules.ts';
import { RECORD_LOOKUPS } from '../../lists.ts';
import { notFound } from '../../http-error.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { noPermission } from '../../http-error.ts';
import { readRecord } from '../../record-writes.ts';
import { HARDWARE_UNITS, PINPADS, SERVICE_POINTS } from '../shared/hardware-store.ts';
import { ticketPdf } from './ticket-pdf.ts';
import { optionalIdText, positiveIdText, queryParams } from '../shared/params.ts';

/** A ticket's id, when one is asked for: the empty text is none. */
const ticketIdParams = queryParams({ ticket_id: optionalIdText('ticket_id') });
const hardwareParams = queryParams({ sp_id: positiveIdText('sp_id') });
const operatorParams = queryParams({ maintenance_provider_id: positiveIdText('maintenance_provider_id') });
const OPERATORS = 'maintenance/operators';

/**
 * `GET maintenance/tickets?opname=carriers[&ticket_id=N]` (spec 02 §7): the carriers with access to the
 * service points of the caller's tickets (of one ticket with `ticket_id`), as a lookup list
 * `{ column_id, column_name }` by name: whom a fault affects, and whom to tell.
 */
async function carriers(ctx: OpnameContext, query: Record<string, string>) {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  const params: unknown[] = [ctx.resource.endpoint];
  let where = 't.resource = $1';
  if (typeof scope === 'object') {
    params.push(scope.value);
    where += ` AND t.doc->>'${scope.field}' = $${params.length}`;
  }
  if (ticketIdParams(query).ticket_id) {
    params.push(query.ticket_id);
    where += ` AND t.key = $${params.length}`;
  }
  const carrier = RECORD_LOOKUPS.carrier_list;
  params.push(SERVICE_POINTS, carrier.resource);
  const found = await ctx.db.query<{ column_id: number; column_name: string; color: string | null }>(
    `SELECT DISTINCT (c.doc->>'${carrier.id}')::int AS column_id, c.doc->>'name' AS column_name,
            c.doc->>'color_code' AS color
     FROM records t
     JOIN records s ON s.resource = $${params.length - 1} AND s.key = t.doc->>'sp_id'
     JOIN LATERAL jsonb_array_elements_text(coalesce(s.doc->'carriers_access', '[]'::jsonb)) AS a(id) ON true
     JOIN records c ON c.resource = $${params.length} AND c.key = a.id
     WHERE ${where}`,
    params,
  );
  const data = found.rows
    .sort((a, b) => a.column_name.localeCompare(b.column_name))
    .map(({ color, ...item }) => (color && /^#[0-9a-f]{6}$/i.test(color) ? { ...item, color } : item));
  return { success: true, data, total: data.length };
}

/** Whether one of the caller's tickets is at the service point. */
async function hasTicketAt(ctx: OpnameContext, servicePointId: string) {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') return false;
  const params: unknown[] = [ctx.resource.endpoint, servicePointId];
  let where = `resource = $1 AND doc->>'sp_id' = $2`;
  if (typeof scope === 'object') {
    params.push(scope.value);
    where += ` AND doc->>'${scope.field}' = $3`;
  }
  return (await ctx.db.query(`SELECT 1 FROM records WHERE ${where} LIMIT 1`, params)).rows.length > 0;
}

/**
 * The service point of a ticket form: one the caller sees, or (issue 24) one where a ticket of the
 * caller's is: a maintenance provider assigned a ticket at a service point another provider maintains
 * must see where it goes and what it repairs there. Anything else is a 404, as for a record not seen.
 */
async function ticketServicePoint(ctx: OpnameContext, servicePointId: string) {
  const servicePoints = ctx.resources.get(SERVICE_POINTS)!;
  const point = await readRecord(ctx.db, servicePoints, servicePointId);
  if (!point) throw notFound();
  if (visible(scopeFor(ctx.access, servicePoints), point.doc)) return point;
  if (await hasTicketAt(ctx, servicePointId)) return point;
  throw notFound();
}

/**
 * `GET maintenance/tickets?opname=hardware&sp_id=N`: what a ticket at a service point the caller sees may
 * name, for the ticket form's pickers: its units (id, name, status) and its PIN pad (id, name). Whoever
 * may read tickets asks it, a maintenance provider included, which may not read the hardware screens.
 */
async function hardware(ctx: OpnameContext, query: Record<string, string>) {
  if (scopeFor(ctx.access, ctx.resource) === 'none') throw noPermission();
  const { sp_id: servicePointId } = hardwareParams(query);
  const point = await ticketServicePoint(ctx, servicePointId);
  const units = await ctx.db.query<{ hardware_id: number; name: string; status: number | null }>(
    `SELECT (doc->>'hardware_id')::int AS hardware_id, doc->>'name' AS name, (doc->>'status')::int AS status
     FROM records WHERE resource = $1 AND doc->>'service_point_id' = $2 ORDER BY (doc->>'hardware_id')::int`,
    [HARDWARE_UNITS, servicePointId],
  );
  const padId = point.doc.pinpad_id;
  const pad =
    padId === undefined || padId === null
      ? undefined
      : (
          await ctx.db.query<{ name: string | null }>(
            `SELECT doc->>'ble_chip_id' AS name FROM records WHERE resource = $1 AND key = $2`,
            [PINPADS, String(padId)],
          )
        ).rows[0];
  return {
    success: true,
    data: {
      units: units.rows,
      pinpad: pad ? { pinpad_id: Number(padId), name: pad.name ?? String(padId) } : null,
    },
  };
}

/**
 * `GET maintenance/tickets?opname=operators&maintenance_provider_id=N[&ticket_id=T]`: the operators a
 * ticket of that provider may be assigned to (the active ones of the provider, by name), for the ticket
 * form's operator picker; with `ticket_id`, the ticket's own operator stays listed even if inactive, so
 * that an old ticket reads as it was. Whoever reads tickets asks it; a provider only for itself.
 */
async function operators(ctx: OpnameContext, query: Record<string, string>) {
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  const { maintenance_provider_id: provider } = operatorParams(query);
  if (typeof scope === 'object' && scope.field === 'maintenance_provider_id' && scope.value !== provider) {
    return { success: true, data: [], total: 0 };
  }
  let keep = '';
  if (ticketIdParams(query).ticket_id) {
    const own = await readRecord(ctx.db, ctx.resource, query.ticket_id);
    if (own && visible(scope, own.doc)) keep = String(own.doc.maintenance_operator_id ?? '');
  }
  const found = await ctx.db.query<{ id: number; name: string; code: string | null; active: boolean }>(
    `SELECT (doc->>'operator_id')::int AS id, doc->>'name' AS name, doc->>'maintenance_operator_id' AS code,
            coalesce((doc->>'active')::boolean, true) AS active
     FROM records WHERE resource = $1 AND doc->>'maintenance_provider_id' = $2
       AND (coalesce((doc->>'active')::boolean, true) OR key = $3)
     ORDER BY doc->>'name', key`,
    [OPERATORS, provider, keep],
  );
  return { success: true, data: found.rows, total: found.rows.length };
}

export const ticketQueries = { carriers, pdf: ticketPdf, hardware, operators };
