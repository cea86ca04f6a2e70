import { addMonths, format, parseISO } from 'date-fns';
import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import { isServiceTicket, TICKET_STATUS, ticketBadge, VERIFICATION } from '../../../../src/schema/ticket-badge.ts';
import { nextId } from '../../record-writes.ts';
import type { RuleContext } from '../../resource-rules.ts';
import { actorOf, commitChange } from '../../write-pipeline.ts';
import { MAINTENANCE_PROVIDERS } from './maintenance-operators.ts';

const day = (date: Date) => format(date, 'yyyy-MM-dd');

/** The next visit's deadline: the closed one's (or today) plus the regeneration, rolled on until not past. */
export function nextDeadline(deadline: string | null | undefined, months: number, today = new Date()): string {
  const todayDay = day(today);
  let next = addMonths(deadline ? parseISO(deadline) : parseISO(todayDay), months);
  while (day(next) < todayDay) next = addMonths(next, months);
  return day(next);
}

/**
 * Periodic service (spec 02 §3, §7): when a periodic service ticket (a maintain ticket of the service
 * event, with a regeneration in months) closes and its maintenance provider has periodic tickets on
 * (`update_mps_periodic_tickets`), the next visit's ticket is created, open, with the same service
 * point, unit, provider, operator and description, its deadline the closed one's plus the regeneration.
 * Called from the ticket rules' close path, in the closing write's transaction, and audited.
 */
export async function nextPeriodicTicket(ctx: RuleContext, closed: Ticket): Promise<Ticket | undefined> {
  const months = closed.regeneration_months;
  if (!isServiceTicket(closed) || !months || !closed.maintenance_provider_id) return undefined;
  const provider = await ctx.tx.query<{ on: boolean }>(
    `SELECT (doc->>'periodic_tickets')::boolean AS on FROM records WHERE resource = $1 AND key = $2`,
    [MAINTENANCE_PROVIDERS, String(closed.maintenance_provider_id)],
  );
  if (!provider.rows[0]?.on) return undefined;
  const now = new Date();
  const id = await nextId(ctx.tx, ctx.resource);
  const next: Ticket = {
    ...closed,
    ticket_id: id,
    status: TICKET_STATUS.open,
    ticket_verification_status: VERIFICATION.none,
    deadline_date: nextDeadline(closed.deadline_date, months, now),
    sla_date: null,
    sla_date_held: null,
    photos: [],
    created_at: now.toISOString(),
    closed_at: null,
  };
  // The closed ticket came with its version; the new one starts at its own.
  const doc: Record<string, unknown> = { ...next, badge: ticketBadge(next) };
  delete doc.version;
  await commitChange(ctx.tx, actorOf(ctx.access), ctx.resource, { action: 'create', key: String(id), doc });
  return doc as unknown as Ticket;
}
