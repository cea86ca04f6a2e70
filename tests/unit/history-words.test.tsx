import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { type DataProvider } from 'react-admin';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { RecordHistory } from '../../src/schema/ui/record-history.tsx';
import { isChange } from '../../src/schema/ui/field-words.tsx';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

/*
 * Issue 24.2: a history reads in words through the schema, never in codes, ids or JSON: choice labels,
 * reference names linked to their record, list names, Yes/No, photos counted, days in the language's
 * format, and no line for a change from nothing to nothing.
 */

const ticket = modelOf('ticket');
const servicePoint = modelOf('service-point');

const ticketChanges = {
  status: { from: 1, to: 2 },
  maintenance_provider_id: { from: null, to: 1 },
  sp_id: { from: 7, to: 8 },
  photos: {
    from: [],
    to: [
      { photo_id: 'a', url: '/p/a.jpg' },
      { photo_id: 'b', url: '/p/b.jpg' },
      { photo_id: 'c', url: '/p/c.jpg' },
    ],
  },
  deadline_date: { from: null, to: '2026-12-01' },
  internal_notes: { from: null, to: '' },
  description: { from: 'Door stuck', to: 'Door stuck' },
};

function provider(changes: Record<string, { from: unknown; to: unknown }>): DataProvider {
  return {
    getMany: async (_resource: string, { ids }: { ids: unknown[] }) => ({
      data: ids.map((id) => ({ id, name: id === 7 ? 'Station Nord' : 'Gare Sud' })),
    }),
    call: async () => ({ data: [{ column_id: 1, column_name: 'FixIt Services' }] }),
    action: async () => ({
      data: [{ id: 1, at: '2026-11-22T10:05:00.000Z', username: 'alice', action: 'update', changes }],
      total: 1,
    }),
  } as unknown as DataProvider;
}

function renderHistory(
  locale: 'en-US' | 'fr-FR',
  model = ticket,
  changes = ticketChanges,
  canAccess?: (params: { resource?: string }) => Promise<boolean>,
) {
  renderInAdmin(<RecordHistory model={model} />, {
    dataProvider: provider(changes),
    i18nProvider: i18nProviderIn(locale),
    authProvider: canAccess && {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      canAccess,
    },
    resource: model.name,
    record: { id: 5 },
  });
}

afterEach(cleanup);

describe('isChange', () => {
  it('is not a change from nothing to nothing, nor to the same value', () => {
    expect(isChange({ from: null, to: '' })).toBe(false);
    expect(isChange({ from: undefined, to: [] })).toBe(false);
    expect(isChange({ from: 'a', to: 'a' })).toBe(false);
    expect(isChange({ from: null, to: 0 })).toBe(true);
    expect(isChange({ from: false, to: true })).toBe(true);
  });
});

describe('the history of a ticket', () => {
  it('reads choices, references, lists, photos and days as words in English', async () => {
    renderHistory('en-US');
    const table = await screen.findByRole('table', { name: 'History' });
    await within(table).findByRole('link', { name: 'Gare Sud' });
    const lines = () =>
      within(table)
        .getAllByRole('listitem')
        .map((line) => line.textContent);
    await waitFor(() => expect(lines()).toContain('Maintenance provider: — → FixIt Services'));
    expect(lines()).toEqual([
      'Status: Open → Closed',
      `${en.resources.tickets.fields.maintenance_provider_id}: — → FixIt Services`,
      `${en.resources.tickets.fields.sp_id}: Station Nord → Gare Sud`,
      `${en.resources.tickets.fields.photos}: — → 3 photos`,
      `${en.resources.tickets.fields.deadline_date}: — → 12/01/2026`,
    ]);
    // The app's router writes plain paths; this page renders under react-admin's own (hash) router.
    expect(within(table).getByRole('link', { name: 'Gare Sud' }).getAttribute('href')).toMatch(
      /^#?\/service-points\/8$/,
    );
    expect(table.textContent).not.toMatch(/\{|\[|— → —/);
    // A partner named by a lookup list links to its record (x-resource.lookupLists).
    expect(within(table).getByRole('link', { name: 'FixIt Services' }).getAttribute('href')).toMatch(
      /^#?\/maintenance-providers\/1$/,
    );
  }, 20_000);

  it('names a partner the user may not open as text, not as a link to a page it cannot see', async () => {
    renderHistory('en-US', ticket, ticketChanges, async ({ resource }) => resource !== 'maintenance-providers');
    const table = await screen.findByRole('table', { name: 'History' });
    await within(table).findByRole('link', { name: 'Gare Sud' });
    await waitFor(() => expect(table.textContent).toContain('— → FixIt Services'));
    expect(within(table).queryByRole('link', { name: 'FixIt Services' })).toBeNull();
  });

  it('reads them in French, the day in the French format', async () => {
    renderHistory('fr-FR');
    const table = await screen.findByRole('table', { name: fr.history.title });
    await within(table).findByRole('link', { name: 'Gare Sud' });
    const text = table.textContent ?? '';
    expect(text).toContain(`${fr.choices.ticket_status[1]} → ${fr.choices.ticket_status[2]}`);
    expect(text).toContain('— → 01/12/2026');
    expect(text).toContain('3 photos jointes');
    await waitFor(() => expect(table.textContent).toContain('— → FixIt Services'));
  });
});

describe('the history of a service point', () => {
  it('reads booleans as Yes and No, and an address as labelled values', async () => {
    renderHistory('en-US', servicePoint, {
      wheelchair_accessible: { from: false, to: true },
      address: { from: null, to: { city: 'Lyon', zip: '69001' } },
    } as never);
    const table = await screen.findByRole('table', { name: 'History' });
    const text = table.textContent ?? '';
    expect(text).toContain('No → Yes');
    expect(text).toMatch(/Lyon/);
    expect(text).not.toMatch(/[{}"]/);
  });
});
