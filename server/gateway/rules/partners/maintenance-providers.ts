import type { MaintenanceProvider } from '../../../../src/types/generated/maintenance-provider.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { TICKET_OPTIONS, ticketOption } from '../../../../src/schema/ticket-options.ts';
import { ticketOptionRefusal } from '../shared/ticket-refusals.ts';
import { optionalVersion } from '../shared/values.ts';
import { bodyParams } from '../shared/params.ts';

/** `action_type` of update_mps_periodic_tickets: as the webtool users' enable (1) and disable (2). */
export const PERIODIC_ON = 1;
export const PERIODIC_OFF = 2;

/**
 * Spec 02 §7: `PATCH partners/maintenance_provider { opname: "update_mps_periodic_tickets", mp_id,
 * action_type }` switches the provider's periodic service tickets on (1) or off (2): while on, a
 * closed periodic ticket brings the next one (server/gateway/rules/tickets/periodic-tickets.ts). Through the
 * write pipeline: a provider switches only its own (404 for another), audited, 409 on a stale `version`.
 * Only a caller whose tickets policy has the periodic ticket option (spec 01 §6) switches: 403 otherwise,
 * as the app shows no switch to them (src/resources/tickets/periodic-tickets-button.tsx).
 */
const periodicParams = bodyParams({
  mp_id: { schema: { type: 'integer' }, refusal: ['gateway.positive_integer', { name: 'mp_id' }] },
  action_type: { schema: { enum: [PERIODIC_ON, PERIODIC_OFF] }, refusal: 'gateway.periodic_action_type' },
});

async function updatePeriodicTickets(ctx: OpnameContext, body: Doc) {
  if (!ticketOption(ctx.access.permissions, TICKET_OPTIONS.periodic)) {
    throw ticketOptionRefusal('ticket_periodic_option');
  }
  const { mp_id: id, action_type: actionType } = periodicParams(body);
  const version = optionalVersion(body);
  const data = await ctx.writes.change(
    String(id),
    async (_tx, existing) => ({ ...existing.doc, periodic_tickets: actionType === PERIODIC_ON }),
    version,
  );
  return { success: true, data };
}

export const maintenanceProviderRules = recordRules<MaintenanceProvider>({
  patchOpnames: { update_mps_periodic_tickets: updatePeriodicTickets },
});
