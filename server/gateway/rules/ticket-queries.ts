import type { OpnameContext } from '../resource-rules.ts';
import { RECORD_LOOKUPS } from '../lists.ts';
import { badRequest } from '../http-error.ts';
import { scopeFor } from '../tenancy.ts';
import { noPermission } from '../http-error.ts';
import { visibleRecord } from '../write-pipeline.ts';
import { HARDWARE_UNITS, PINPADS, SERVICE_POINTS } from './hardware-store.ts';
import { ticketPdf } from './ticket-pdf.ts';

const ID = /^[1-9]\d{0,9}$/;

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
  if (query.ticket_id !== undefined && query.ticket_id !== '') {
    if (!ID.test(query.ticket_id)) throw badRequest('ticket_id must be a positive whole number.');
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

/**
 * `GET maintenance/tickets?opname=hardware&sp_id=N`: what a ticket at a service point the caller sees may
 * name, for the ticket form's pickers: its units (id, name, status) and its PIN pad (id, name). Whoever
 * may read tickets asks it, a maintenance provider included, which may not read the hardware screens.
 */
async function hardware(ctx: OpnameContext, query: Record<string, string>) {
  if (scopeFor(ctx.access, ctx.resource) === 'none') throw noPermission();
  const servicePointId = query.sp_id;
  if (servicePointId === undefined || !ID.test(servicePointId)) {
    throw badRequest('sp_id must be a positive whole number.');
  }
  const point = await visibleRecord(ctx.db, ctx.access, ctx.resources.get(SERVICE_POINTS)!, servicePointId);
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

export const ticketQueries = { carriers, pdf: ticketPdf, hardware };
