import type { OpnameContext } from '../resource-rules.ts';
import { RECORD_LOOKUPS } from '../lists.ts';
import { badRequest } from '../http-error.ts';
import { scopeFor } from '../tenancy.ts';
import { noPermission } from '../http-error.ts';
import { SERVICE_POINTS } from './hardware-store.ts';
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

export const ticketQueries = { carriers, pdf: ticketPdf };
