import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import en from '../../locales/en-US.json';
import { rowsPerPageOptions } from '../../src/schema/page-sizes.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { SchemaList } from '../../src/schema/ui/schema-list.tsx';
import { withAppWords } from '../../src/app/i18n-provider.ts';
import { renderInAdmin } from './support/admin.tsx';

const i18nProvider = polyglotI18nProvider(() => withAppWords(englishMessages, en), 'en-US');

afterEach(cleanup);
// A page of many rows renders slowly on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

function renderList(
  schemaId: string,
  rows: number,
  getMany: (resource: string, params: { ids: unknown[] }) => Promise<{ data: unknown[] }> = async () => ({ data: [] }),
  options: { pageRows?: number; perPageAsked?: number[] } = {},
) {
  const model = modelOf(schemaId);
  const dataProvider = {
    getList: async (_resource: string, { pagination }: { pagination: { perPage: number } }) => {
      options.perPageAsked?.push(pagination.perPage);
      const shown = Math.min(rows, pagination.perPage, options.pageRows ?? Infinity);
      return {
        data: Array.from({ length: shown }, (_, index) => ({
          id: index + 1,
          [model.id]: index + 1,
          name: `Record ${index + 1}`,
          code: `Record ${index + 1}`,
          // Two rows to a service point: the references of a page are asked for once each.
          service_point_id: 100 + Math.floor(index / 2),
          sp_id: 100 + Math.floor(index / 2),
        })),
        total: rows,
      };
    },
    getMany,
    call: async () => ({ data: [] }),
  } as unknown as DataProvider;
  renderInAdmin(<SchemaList model={model} />, { dataProvider, i18nProvider, resource: model.name });
  return model;
}

describe('rows per page', () => {
  it("offers the spec's sizes and the list's own, sorted, once each", () => {
    expect(rowsPerPageOptions(15)).toEqual([15, 20, 100, 300, 500, 1000]);
    expect(rowsPerPageOptions(25)).toEqual([15, 20, 25, 100, 300, 500, 1000]);
    expect(rowsPerPageOptions(500)).toEqual([15, 20, 100, 300, 500, 1000]);
  });

  it.each([
    ['service-point', '15'],
    ['courier', '20'],
    ['carrier', '500'],
    // Long lists open at a size that fits a screen; 500 and 1,000 stay a choice.
    ['ticket', '20'],
    ['piece', '20'],
  ])('the %s list shows the page size in use, %s', async (schemaId, size) => {
    // The page size is the list's parameter, not the rows drawn: a few rows stand for the page, so that a
    // 500-row page is not rendered in jsdom (seconds on a busy machine) to read the size it asked for.
    const perPageAsked: number[] = [];
    renderList(schemaId, 1200, undefined, { pageRows: 5, perPageAsked });
    const selector = await screen.findByRole('combobox', { name: /rows per page/i }, { timeout: 10_000 });
    expect(selector.textContent).toBe(size);
    expect(perPageAsked.length).toBeGreaterThan(0);
    expect(new Set(perPageAsked)).toEqual(new Set([Number(size)]));
  });

  it('lists every size to choose from', async () => {
    renderList('service-point', 1200);
    await screen.findByText('Record 1');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['15', '20', '100', '300', '500', '1000']);
  });
});

describe('references of a page', () => {
  it("a shown reference column asks for the page's records in one call; a hidden one asks nothing", async () => {
    const calls: { resource: string; ids: unknown[] }[] = [];
    const getMany = async (resource: string, { ids }: { ids: unknown[] }) => {
      calls.push({ resource, ids });
      return { data: ids.map((id) => ({ id, service_point_id: id, name: `Point ${String(id)}` })) };
    };
    // A shipment's service point is shown, by name, linked to its page.
    renderList('piece', 1200, getMany);
    // The name is the service point resource's representation (none is registered here: its id).
    const links = await screen.findAllByRole('link', { name: /100/ }, { timeout: 10_000 });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['#/service-points/100', '#/service-points/100']);
    expect(calls).toEqual([{ resource: 'service-points', ids: Array.from({ length: 10 }, (_, index) => 100 + index) }]);
    cleanup();
    calls.length = 0;
    // A ticket's service point id column is hidden (its name shows as text): no lookups at all.
    renderList('ticket', 1200, getMany);
    await screen.findByRole('combobox', { name: /rows per page/i });
    expect(calls.filter((call) => call.resource === 'service-points')).toEqual([]);
  });
});

describe('structured filters', () => {
  it('offers every filter the service point schema names, translated, besides the ones always shown', async () => {
    renderList('service-point', 30);
    await screen.findByText('Record 1');
    expect(screen.getByRole('combobox', { name: 'Status' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More filters' }));
    const menu = await screen.findByRole('menu');
    const offered = within(menu)
      .getAllByRole('menuitemcheckbox')
      .map((item) => item.textContent);
    expect(offered).toEqual(
      expect.arrayContaining([
        'Country',
        'City',
        'Location type',
        'Location owner',
        'Maintenance provider',
        'Support provider',
        'Service point group',
        'Carriers',
        'Terminated',
        'On hold',
        'Test service point',
      ]),
    );
  });
});
