import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import en from '../../locales/en-US.json';
import { rowsPerPageOptions } from '../../src/schema/page-sizes.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { SchemaList } from '../../src/schema/ui/schema-list.tsx';

const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...en }), 'en-US');

afterEach(cleanup);

/**
 * Rendering a list page in jsdom takes a second or more, several on a busy machine (a page of 500
 * rows once took 7.3 s, past vitest's default 5 s): these tests have their own budget, as the app's
 * page tests do, and show few rows, since what they check is the page size, not the rows.
 */
const RENDERS = { timeout: 30_000 };
const WAIT = { timeout: 20_000 };

function renderList(schemaId: string, rows: number) {
  const model = modelOf(schemaId);
  const requested: number[] = [];
  const dataProvider = {
    getList: async (_resource: string, { pagination }: { pagination: { perPage: number } }) => {
      requested.push(pagination.perPage);
      return {
        data: Array.from({ length: Math.min(rows, pagination.perPage) }, (_, index) => ({
          id: index + 1,
          [model.id]: index + 1,
          name: `Record ${index + 1}`,
          code: `Record ${index + 1}`,
        })),
        total: rows,
      };
    },
    getMany: async () => ({ data: [] }),
    call: async () => ({ data: [] }),
  } as unknown as DataProvider;
  render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <ResourceContextProvider value={model.name}>
        <SchemaList model={model} />
      </ResourceContextProvider>
    </AdminContext>,
  );
  return { model, requested };
}

describe('rows per page', () => {
  it("offers the spec's sizes and the list's own, sorted, once each", () => {
    expect(rowsPerPageOptions(15)).toEqual([15, 20, 100, 300, 500]);
    expect(rowsPerPageOptions(25)).toEqual([15, 20, 25, 100, 300, 500]);
    expect(rowsPerPageOptions(500)).toEqual([15, 20, 100, 300, 500]);
  });

  it.each([
    ['service-point', '15'],
    ['courier', '20'],
    ['carrier', '500'],
  ])('the %s list shows the page size in use, %s', RENDERS, async (schemaId, size) => {
    // Fewer records than the largest page: the list still asks for, and shows, its own page size.
    const { requested } = renderList(schemaId, 30);
    await screen.findByText('Record 1', {}, WAIT);
    const selector = screen.getByRole('combobox', { name: /rows per page/i });
    expect(selector.textContent).toBe(size);
    expect(requested.at(-1)).toBe(Number(size));
  });

  it('lists every size to choose from', RENDERS, async () => {
    renderList('service-point', 1200);
    await screen.findByText('Record 1', {}, WAIT);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox', {}, WAIT)).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['15', '20', '100', '300', '500']);
  });
});

describe('structured filters', () => {
  it(
    'offers every filter the service point schema names, translated, besides the ones always shown',
    RENDERS,
    async () => {
      renderList('service-point', 30);
      await screen.findByText('Record 1', {}, WAIT);
      expect(screen.getByRole('combobox', { name: 'Status' })).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
      const menu = await screen.findByRole('menu', {}, WAIT);
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
    },
  );
});
