import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isQuickActionExcluded,
  SERVICE_EVENT_TYPE,
  ticketBadge,
  type TicketBadgeInput,
} from '../../../src/schema/ticket-badge.ts';
import schema from '../../../schemas/ticket.schema.json';

const ticketArbitrary = fc.record({
  status: fc.constantFrom(1, 2, 3, 4),
  ticket_verification_status: fc.constantFrom(0, 1, 2, 3, 4, null, undefined),
  ticket_type: fc.constantFrom(1, 2, 3, 4, 5, 6),
  event_type: fc.constantFrom(610, 620, SERVICE_EVENT_TYPE, 680, null, undefined),
});

const verification = (ticket: TicketBadgeInput) => ticket.ticket_verification_status ?? 0;
const isService = (ticket: TicketBadgeInput) => ticket.ticket_type === 3 && ticket.event_type === SERVICE_EVENT_TYPE;

describe('the ticket badge (spec 02 §4)', () => {
  it('is Closed for every closed ticket, whatever else it holds', () => {
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        expect(ticketBadge(ticket) === 'closed').toBe(ticket.status === 2);
      }),
    );
  });

  it('is Service for a maintain ticket of event type 630 that is not closed, and only for it', () => {
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        expect(ticketBadge(ticket) === 'service').toBe(ticket.status !== 2 && isService(ticket));
      }),
    );
  });

  it('is Open for status 1 verified or unverified-none, and for status 3 verified, nothing else', () => {
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        const open =
          !isService(ticket) &&
          ((ticket.status === 1 && [0, 1].includes(verification(ticket))) ||
            (ticket.status === 3 && verification(ticket) === 1));
        expect(ticketBadge(ticket) === 'open').toBe(open);
      }),
    );
  });

  it('is On hold for every other status 3, Photo pending for status 4, the verification for any other status 1', () => {
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        const badge = ticketBadge(ticket);
        if (isService(ticket) || ticket.status === 2) return;
        if (ticket.status === 3) expect(badge).toBe(verification(ticket) === 1 ? 'open' : 'on_hold');
        if (ticket.status === 4) expect(badge).toBe('photo_pending');
        if (ticket.status === 1 && verification(ticket) > 1) {
          expect(badge).toBe({ 2: 'declined', 3: 'unverified', 4: 'investigate' }[verification(ticket)]);
        }
      }),
    );
  });

  it('is always one of the values the schema lists, each with a colour', () => {
    const badge = schema.properties.badge;
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        expect(badge.enum).toContain(ticketBadge(ticket));
        expect(Object.keys(badge['x-badge'].colors)).toContain(ticketBadge(ticket));
      }),
    );
  });

  it('leaves Declined, Closed, Courier and Service tickets out of quick actions, and only those', () => {
    fc.assert(
      fc.property(ticketArbitrary, (ticket) => {
        const excluded =
          verification(ticket) === 2 || ticket.status === 2 || ticket.ticket_type === 4 || isService(ticket);
        expect(isQuickActionExcluded(ticket)).toBe(excluded);
      }),
    );
  });

  it('reads the examples of the spec', () => {
    expect(ticketBadge({ status: 1, ticket_verification_status: 1, ticket_type: 3 })).toBe('open');
    expect(ticketBadge({ status: 1, ticket_verification_status: 0, ticket_type: 2 })).toBe('open');
    expect(ticketBadge({ status: 3, ticket_verification_status: 1, ticket_type: 3 })).toBe('open');
    expect(ticketBadge({ status: 3, ticket_verification_status: 3, ticket_type: 3 })).toBe('on_hold');
    expect(ticketBadge({ status: 2, ticket_verification_status: 2, ticket_type: 4 })).toBe('closed');
    expect(ticketBadge({ status: 4, ticket_verification_status: 1, ticket_type: 5 })).toBe('photo_pending');
    expect(ticketBadge({ status: 1, ticket_verification_status: 1, ticket_type: 3, event_type: 630 })).toBe('service');
    expect(ticketBadge({ status: 1, ticket_verification_status: 1, ticket_type: 5, event_type: 630 })).toBe('open');
  });
});
