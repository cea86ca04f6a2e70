/**
 * A ticket's badge and the tickets quick actions leave out (spec 02 §4), written once for the gateway
 * (which stores the badge with the ticket, so that the list filters on it), the seed and the app.
 */

export const TICKET_TYPE = {
  install: 1,
  uninstallHardware: 2,
  maintainHardware: 3,
  courier: 4,
  maintainPinpad: 5,
  uninstallPinpad: 6,
} as const;

export const TICKET_STATUS = { open: 1, closed: 2, onHold: 3, photoPending: 4 } as const;

/** `ticket_verification_status`; 0 is none. */
export const VERIFICATION = { none: 0, verified: 1, declined: 2, unverified: 3, investigate: 4 } as const;

/** The event type of a periodic service visit: a maintain ticket with it shows as Service. */
export const SERVICE_EVENT_TYPE = 630;

export type TicketBadge =
  'open' | 'closed' | 'on_hold' | 'photo_pending' | 'declined' | 'unverified' | 'investigate' | 'service';

export interface TicketBadgeInput {
  /** Open when left out, as a new ticket starts. */
  status?: number;
  ticket_verification_status?: number | null;
  ticket_type: number;
  event_type?: number | null;
}

const verificationBadge: Record<number, TicketBadge> = {
  [VERIFICATION.declined]: 'declined',
  [VERIFICATION.unverified]: 'unverified',
  [VERIFICATION.investigate]: 'investigate',
};

/** A maintain ticket of the service event: a periodic visit, not a fault. */
export const isServiceTicket = (ticket: TicketBadgeInput) =>
  ticket.ticket_type === TICKET_TYPE.maintainHardware && ticket.event_type === SERVICE_EVENT_TYPE;

/**
 * Spec 02 §4: Closed when status 2; a maintain ticket of event 630 is Service; status 4 is Photo
 * pending; Open when status 1 with verification verified or none, or status 3 with verified (the
 * list adds an On hold mark to that one); any other status 3 is On hold; any other status 1 shows its
 * verification (Declined, Unverified, Investigate).
 */
export function ticketBadge(ticket: TicketBadgeInput): TicketBadge {
  const verification = ticket.ticket_verification_status ?? VERIFICATION.none;
  const status = ticket.status ?? TICKET_STATUS.open;
  if (status === TICKET_STATUS.closed) return 'closed';
  if (isServiceTicket(ticket)) return 'service';
  if (status === TICKET_STATUS.photoPending) return 'photo_pending';
  if (status === TICKET_STATUS.onHold) return verification === VERIFICATION.verified ? 'open' : 'on_hold';
  if (verification === VERIFICATION.verified || verification === VERIFICATION.none) return 'open';
  return verificationBadge[verification] ?? 'open';
}

/** Spec 02 §4: Declined, Closed, Courier and Service tickets are left out of quick actions. */
export function isQuickActionExcluded(ticket: TicketBadgeInput): boolean {
  return (
    ticket.ticket_verification_status === VERIFICATION.declined ||
    ticket.status === TICKET_STATUS.closed ||
    ticket.ticket_type === TICKET_TYPE.courier ||
    isServiceTicket(ticket)
  );
}

/** Statuses that keep a ticket open: Open, OnHold, PhotoPending (the hardware rules read the same). */
export const OPEN_STATUSES: readonly number[] = [TICKET_STATUS.open, TICKET_STATUS.onHold, TICKET_STATUS.photoPending];
