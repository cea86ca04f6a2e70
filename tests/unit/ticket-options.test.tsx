import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Admin, Resource, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import tickets from '../../src/resources/tickets/index.ts';
import { maySwitchPeriodicTickets } from '../../src/resources/tickets/periodic-tickets-button.tsx';
import { fieldsHiddenByOptions } from '../../src/schema/feature-options.ts';
import { permissionSet, type Policy } from '../../src/schema/permissions.ts';
import {
  allowedKindChoice,
  missingTicketOption,
  TICKET_OPTIONS,
  type TicketOption,
} from '../../src/schema/ticket-options.ts';
import { englishI18nProvider as i18nProvider } from './support/admin.tsx';

const model = tickets.model;

/** The tickets policy (feature 231, advance) and maintenance providers' (221), configuring the given options. */
const policies = (options: Partial<Record<TicketOption, boolean>>): Policy[] => [
  {
    feature_id: 231,
    has_permission: true,
    configurations: Object.entries(options).map(([type, show]) => ({ type, show: Boolean(show) })),
  },
  { feature_id: 221, has_permission: true, configurations: [] },
];
const all = Object.fromEntries(Object.values(TICKET_OPTIONS).map((option) => [option, true]));
const none = Object.fromEntries(Object.values(TICKET_OPTIONS).map((option) => [option, false]));
const setOf = (options: Partial<Record<TicketOption, boolean>>) => permissionSet(policies(options), false);

describe('the ticket options of spec 01 §6 (src/schema/ticket-options.ts)', () => {
  it('names the option a new ticket of each kind needs, and only what an edit brings', () => {
    const off = setOf(none);
    const on = setOf(all);
    expect(missingTicketOption(off, { ticket_type: 4 })).toBe('courier_ticket');
    expect(missingTicketOption(off, { ticket_type: 3, event_type: 630 })).toBe('service_ticket');
    expect(missingTicketOption(off, { ticket_type: 3, event_type: 620, job_type: 2 })).toBe('compartment_inspection');
    expect(missingTicketOption(off, { ticket_type: 3, event_type: 620, job_type: 1 })).toBeUndefined();
    // Event 630 is a service visit only on a maintain ticket.
    expect(missingTicketOption(off, { ticket_type: 2, event_type: 630 })).toBeUndefined();
    for (const kind of [{ ticket_type: 4 }, { ticket_type: 3, event_type: 630 }, { ticket_type: 3, job_type: 2 }]) {
      expect(missingTicketOption(on, kind)).toBeUndefined();
    }
    // A saved service ticket stays editable without the option; turning a ticket into one is not.
    const service = { ticket_type: 3, event_type: 630 };
    expect(missingTicketOption(off, service, service)).toBeUndefined();
    expect(missingTicketOption(off, service, { ticket_type: 3, event_type: 620 })).toBe('service_ticket');
    // No policy configures it: off.
    expect(missingTicketOption(setOf({}), { ticket_type: 4 })).toBe('courier_ticket');
  });

  it('offers the kind choices the options allow, and the saved value', () => {
    const off = setOf(none);
    expect(allowedKindChoice(off, 'ticket_type', 4)).toBe(false);
    expect(allowedKindChoice(off, 'ticket_type', 3)).toBe(true);
    expect(allowedKindChoice(off, 'ticket_type', 4, 4)).toBe(true);
    expect(allowedKindChoice(off, 'event_type', 630)).toBe(false);
    expect(allowedKindChoice(off, 'event_type', 620)).toBe(true);
    expect(allowedKindChoice(off, 'job_type', 2)).toBe(false);
    expect(allowedKindChoice(setOf(all), 'job_type', 2)).toBe(true);
  });

  it('hides the error type, internal notes and regeneration inputs and columns without their options', () => {
    expect(fieldsHiddenByOptions(setOf(none), model).map((field) => field.source)).toEqual([
      'error_type',
      'regeneration_months',
      'internal_notes',
    ]);
    expect(fieldsHiddenByOptions(setOf(all), model)).toEqual([]);
  });

  it('shows the periodic tickets switch only with the periodic ticket option', () => {
    const profile = (options: Partial<Record<TicketOption, boolean>>) => ({
      partnerType: 'operator',
      superAdmin: false,
      permissions: setOf(options),
    });
    expect(maySwitchPeriodicTickets(profile({ periodic_ticket: true }))).toBe(true);
    expect(maySwitchPeriodicTickets(profile({ periodic_ticket: false }))).toBe(false);
    expect(maySwitchPeriodicTickets(profile({}))).toBe(false);
    expect(maySwitchPeriodicTickets({ ...profile({ periodic_ticket: true }), partnerType: 'carrier' })).toBe(false);
  });
});

const dataProvider = {
  getList: async () => ({ data: [], total: 0 }),
  getOne: async () => ({ data: { id: 1 } }),
  getMany: async () => ({ data: [] }),
  getManyReference: async () => ({ data: [], total: 0 }),
  call: async () => ({
    data: [
      { column_id: 1, column_name: 'Repair' },
      { column_id: 2, column_name: 'Compartment inspection' },
    ],
  }),
} as unknown as DataProvider;

function authProvider(options: Partial<Record<TicketOption, boolean>>): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => ({ partnerType: 'operator', superAdmin: false, permissions: setOf(options) }),
    canAccess: async () => true,
  };
}

function renderAt(path: string, options: Partial<Record<TicketOption, boolean>>) {
  const { model: _model, ...resource } = tickets;
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <Admin dataProvider={dataProvider} authProvider={authProvider(options)} i18nProvider={i18nProvider}>
        <Resource {...resource} />
      </Admin>
    </TestMemoryRouter>,
  );
}

afterEach(cleanup);

const SLOW = { timeout: 90_000 };
const WAIT = { timeout: 60_000 };

async function typeChoices() {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: /Ticket type/ }, WAIT));
  const list = await screen.findByRole('listbox', {}, WAIT);
  const names = within(list)
    .getAllByRole('option')
    .map((option) => option.textContent);
  fireEvent.keyDown(list, { key: 'Escape' });
  return names;
}

describe('the ticket create form and list, per role policy', () => {
  it('offers Courier, Error type and Internal notes to a role with every ticket option', SLOW, async () => {
    renderAt('/tickets/create', all);
    expect(await typeChoices()).toContain('Courier');
    expect(await screen.findByLabelText('Error type', {}, WAIT)).toBeTruthy();
    expect(screen.getByLabelText('Internal notes')).toBeTruthy();
  });

  it('leaves them out for a role without the options', SLOW, async () => {
    renderAt('/tickets/create', none);
    const choices = await typeChoices();
    expect(choices).toContain('Maintain hardware');
    expect(choices).not.toContain('Courier');
    expect(screen.queryByLabelText('Error type')).toBeNull();
    expect(screen.queryByLabelText('Internal notes')).toBeNull();
  });

  it('lists the Internal notes and Error type columns only with their options', SLOW, async () => {
    for (const [options, shown] of [
      [all, true],
      [none, false],
    ] as const) {
      renderAt('/tickets', options);
      fireEvent.click(await screen.findByRole('button', { name: 'Columns' }, WAIT));
      const menu = await screen.findByRole('menu', {}, WAIT);
      expect(within(menu).queryByText('Internal notes') !== null).toBe(shown);
      expect(within(menu).queryByText('Error type') !== null).toBe(shown);
      expect(within(menu).getByText('Ticket type')).toBeTruthy();
      cleanup();
    }
  });
});
