import type { Db } from '../../../db/adapter.ts';
import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import { CARRIERS, COURIERS, inStore, OPERATORS } from '../shared/endpoints.ts';

/**
 * Who `reported_by` names (issue 24: a name where a person reads an id). Spec 02 keeps the field a free id of at most
 * 10 characters (a courier's code or a maintenance operator's id, as the ticket import gives it); the gateway finds
 * it at each write so the ticket page reads "Maintenance operator · Jonas Holm" or "Courier · NordPost".
 */
export async function ticketReporter(
  tx: Db,
  reportedBy: string | null | undefined,
): Promise<Pick<Ticket, 'reported_by_kind' | 'reported_by_name'>> {
  const id = reportedBy?.trim();
  if (!id) return { reported_by_kind: null, reported_by_name: null };
  const operator = await tx.query<{ name: string }>(
    `SELECT doc->>'name' AS name FROM records
      WHERE ${inStore(OPERATORS)} AND doc->>'maintenance_operator_id' = $1 LIMIT 1`,
    [id],
  );
  if (operator.rows[0]) return { reported_by_kind: 'operator', reported_by_name: operator.rows[0].name };
  const courier = await tx.query<{ carrier: string | null }>(
    `SELECT carrier.doc->>'name' AS carrier FROM records courier
       LEFT JOIN records carrier ON ${inStore(CARRIERS, 'carrier')} AND carrier.key = courier.doc->>'carrier_id'
      WHERE ${inStore(COURIERS, 'courier')} AND courier.doc->>'code' = $1 LIMIT 1`,
    [id],
  );
  if (courier.rows[0]) return { reported_by_kind: 'courier', reported_by_name: courier.rows[0].carrier };
  return { reported_by_kind: null, reported_by_name: null };
}
