import type { Alert } from '../../src/types/generated/alert.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { TicketStatus, TicketType } from '../../src/types/generated/codes.ts';
import { SERVICE_EVENT_TYPE } from '../../src/schema/ticket-badge.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const HARDWARE_COMMENTS = [
  'Door of compartment 4 does not close fully, the lock reports open.',
  'Display flickers in cold weather, customers cannot read the pickup code.',
  'Graffiti on the left side panel, reported by the store manager.',
  'Unit lost its mobile connection twice this week.',
  'Water inside the lower compartments after heavy rain.',
  'Scanner misreads barcodes in direct sunlight.',
];
const TROUBLESHOOTING = [
  'Restarted the controller remotely, connection is back.',
  'Hinge adjusted on site; door closes again.',
  undefined,
  'Cleaning ordered with the location owner.',
];

type Row = { doc: Record<string, unknown> };

/** Alerts on installed hardware units, each with its service point's providers, by the operator's staff. */
export function demoHardwareAlerts(units: Row[], servicePoints: Row[], now: Date, count = 18): NewRecord[] {
  const byId = new Map(servicePoints.map((sp) => [sp.doc.service_point_id, sp.doc]));
  const installed = units.filter((unit) => typeof unit.doc.service_point_id === 'number');
  const step = Math.max(1, Math.floor(installed.length / count));
  return installed
    .filter((_, index) => index % step === 0)
    .slice(0, count)
    .map((unit, index) => {
      const sp = byId.get(unit.doc.service_point_id)!;
      const doc: Alert = {
        alert_id: index + 1,
        record_type: 'hardware',
        hardware_id: unit.doc.hardware_id as number,
        hardware_name: unit.doc.name as string,
        service_point_id: sp.service_point_id as number,
        comment: HARDWARE_COMMENTS[index % HARDWARE_COMMENTS.length],
        created_by: index % 3 === 0 ? 'superadmin' : 'operator',
        created_at: new Date(now.getTime() - (index * 37 + 5) * 60 * 60 * 1000 - (index % 4) * DAY_MS).toISOString(),
        maintenance_provider_id: sp.maintenance_provider_id as number,
        support_provider_id: sp.support_provider_id as number,
      };
      const troubleshooting = TROUBLESHOOTING[index % TROUBLESHOOTING.length];
      if (troubleshooting) doc.troubleshooting_comment = troubleshooting;
      return { key: String(doc.alert_id), doc: { ...doc } };
    });
}

const TICKET_COMMENTS = [
  'Customer called twice about this fault, please prioritise.',
  'The store closes at 18:00, the visit must be before.',
  'Spare part ordered, delivery expected next week.',
  'Access code for the back door changed, ask the manager.',
];

/** Alerts on open tickets, scoped by the ticket's providers, after the hardware alerts' ids. */
export function demoTicketAlerts(tickets: Row[], firstId: number, now: Date, count = 10): NewRecord[] {
  const open = tickets.filter(
    (ticket) => ticket.doc.status === TicketStatus.Open && ticket.doc.maintenance_provider_id,
  );
  const step = Math.max(1, Math.floor(open.length / count));
  return open
    .filter((_, index) => index % step === 0)
    .slice(0, count)
    .map((ticket, index) => {
      const doc: Alert = {
        alert_id: firstId + index,
        record_type: 'ticket',
        ticket_id: ticket.doc.ticket_id as number,
        service_point_id: ticket.doc.sp_id as number,
        comment: TICKET_COMMENTS[index % TICKET_COMMENTS.length],
        created_by: index % 2 ? 'maintenance' : 'operator',
        created_at: new Date(now.getTime() - (index * 29 + 3) * 60 * 60 * 1000).toISOString(),
        maintenance_provider_id: ticket.doc.maintenance_provider_id as number,
      };
      if (typeof ticket.doc.hardware_name === 'string') doc.hardware_name = ticket.doc.hardware_name;
      if (typeof ticket.doc.support_provider_id === 'number') doc.support_provider_id = ticket.doc.support_provider_id;
      return { key: String(doc.alert_id), doc: { ...doc } };
    });
}

/** Periodic service tickets (maintain, service event 630) come back every 3, 6 or 12 months. */
export function withRegeneration(tickets: Row[]): void {
  let n = 0;
  for (const ticket of tickets) {
    if (ticket.doc.ticket_type === TicketType.MaintainHw && ticket.doc.event_type === SERVICE_EVENT_TYPE) {
      ticket.doc = { ...ticket.doc, regeneration_months: [3, 6, 12][n++ % 3] };
    }
  }
}
