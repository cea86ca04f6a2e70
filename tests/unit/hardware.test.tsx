import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  Admin,
  AdminContext,
  Form,
  ListContextProvider,
  Resource,
  ResourceContextProvider,
  TestMemoryRouter,
  useList,
  type AuthProvider,
  type DataProvider,
  type RaRecord,
} from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import en from '../../locales/en-US.json';
import { badgeTint, contrastRatio, BADGE_TEXT_CONTRAST } from '../../src/schema/badge-tint.ts';
import { exportCells, exportPlan } from '../../src/schema/csv-export.ts';
import { fieldOf } from '../../src/schema/resource-model.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { modelOf, resourceEndpoints } from '../../src/schema/ui/registry.ts';
import { cellContext, columnPlan, LookupColumns } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaTable } from '../../src/schema/ui/schema-table.tsx';
import { SchemaInput } from '../../src/schema/ui/schema-inputs.tsx';
import {
  CompartmentGrids,
  compartmentState,
  lockerColumns,
  STATE_ORDER,
} from '../../src/schema/ui/compartment-grid.tsx';
import type { Compartment } from '../../src/types/generated/compartment.ts';
import hardware from '../../src/resources/hardware/index.ts';
import common from '../../schemas/common.schema.json';

/** The gateway names the badges in English; the locale's `lookups.badges.<id>` wins where it has one. */
const messages = {
  ...englishMessages,
  ...en,
  lookups: { ...en.lookups, badges: { low_battery: 'Battery is low' } },
};
const i18nProvider = polyglotI18nProvider(() => messages, 'en-US');
const translate = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);
const model = modelOf('hardware-unit');

const BADGES = [
  { column_id: 'all_ok', column_name: 'All OK', color: '#2e7d32' },
  { column_id: 'low_battery', column_name: 'Low battery', color: '#ffeb3b' },
  { column_id: 'is_terminated', column_name: 'Terminated', color: '#c62828' },
];

afterEach(cleanup);

/** The first render of a tabbed form in jsdom is slow on a shared machine. */
const SLOW = { timeout: 60_000 };
const WAIT = { timeout: 15_000 };

describe('badge colours from the gateway', () => {
  it('give dark text on a light tint of the colour, readable at 7:1 whatever the colour', () => {
    for (const colour of ['#ffeb3b', '#2e7d32', '#c62828', '#000000', '#ffffff', '#00bcd4', '#9c27b0', '#fa0']) {
      const tint = badgeTint(colour)!;
      expect(contrastRatio(tint.color, tint.background), colour).toBeGreaterThanOrEqual(BADGE_TEXT_CONTRAST);
      expect(contrastRatio(tint.background, '#ffffff'), colour).toBeLessThan(1.5);
    }
    expect(badgeTint('#c62828')!.border).toBe('#c62828');
  });

  it('leave a value that is not a colour uncoloured', () => {
    expect(badgeTint('red')).toBeUndefined();
    expect(badgeTint(undefined)).toBeUndefined();
  });
});

describe('the hardware list', () => {
  const rows: RaRecord[] = [
    { id: 1, hardware_id: 1, name: 'One', badges_v2: ['low_battery', 'all_ok'], compartment_fault_count: 150 },
    { id: 2, hardware_id: 2, name: 'Two', badges_v2: [], compartment_fault_count: 99 },
  ];

  function HardwareTable() {
    const list = useList({ data: rows });
    const shown = model.fields.filter((field) =>
      ['name', 'badges_v2', 'compartment_fault_count'].includes(field.source),
    );
    return (
      <ListContextProvider value={list}>
        <LookupColumns fields={model.fields}>
          <SchemaTable model={model} fields={shown} empty={<p>empty</p>} />
        </LookupColumns>
      </ListContextProvider>
    );
  }

  it('shows each badge by its translated name in its colour, and a fault count above 99 as 99+', async () => {
    const call = vi.fn(async ({ query }: { query: { type: string } }) => ({
      data: query.type === 'badges' ? BADGES : [],
    }));
    render(
      <AdminContext dataProvider={{ call } as unknown as DataProvider} i18nProvider={i18nProvider}>
        <ResourceContextProvider value={model.name}>
          <HardwareTable />
        </ResourceContextProvider>
      </AdminContext>,
    );
    const [first, second] = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    const battery = await within(first).findByText('Battery is low');
    const ok = within(first).getByText('All OK');
    const tint = badgeTint('#ffeb3b')!;
    expect(battery.style.background).toBe(hexToRgb(tint.background));
    expect(battery.style.color).toBe(hexToRgb(tint.color));
    expect(ok.style.borderColor).toBe(hexToRgb('#2e7d32'));
    expect(within(first).getByText('99+')).toBeTruthy();
    expect(within(second).getByText('99')).toBeTruthy();
    expect(call).toHaveBeenCalledWith(expect.objectContaining({ query: { type: 'badges' } }));
  });

  it('exports the real fault count, not the capped one', () => {
    const plan = exportPlan(model, translate);
    const column = plan.columns.findIndex((c) => c.source === 'compartment_fault_count');
    expect(exportCells(plan, [{ compartment_fault_count: 150 }])[0][column]).toBe('150');
  });

  it('caps only above the cap, and only where the schema says so', () => {
    const context = cellContext(translate, 'en-US', () => '');
    const faults = columnPlan(fieldOf(model, 'compartment_fault_count')!, context);
    expect([0, 99, 100, 12345].map((n) => faults({ id: 1, compartment_fault_count: n }))).toEqual([
      '0',
      '99',
      '99+',
      '99+',
    ]);
    const compartments = columnPlan(fieldOf(model, 'compartment_count')!, context);
    expect(compartments({ id: 1, compartment_count: 120 })).toBe('120');
  });

  it('refuses a cap that is not a positive whole number, or a delete field that is not a name, at compile time', () => {
    const compile =
      (column: object, resource: object = {}) =>
      () =>
        createSchemaRegistry([
          common,
          {
            $id: 'thing',
            type: 'object',
            'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id', ...resource },
            properties: { count: { type: 'integer', 'x-column': column } },
          },
        ]).validator('thing');
    expect(compile({ cap: 99 }, { deleteSends: { partner_id: 'owner_id' } })).not.toThrow();
    expect(compile({ cap: 0 })).toThrow(/x-column/);
    expect(compile({ cap: '99' })).toThrow(/x-column/);
    expect(compile({}, { deleteSends: { partner_id: 3 } })).toThrow(/x-resource/);
  });
});

function hexToRgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

const compartment = (id: number, column: number, position: number, size: Compartment['size'], flags = {}) =>
  ({ compartment_id: id, hardware_id: 3, column, position, size, ...flags }) as Compartment;

const LOCKER: Compartment[] = [
  compartment(12, 2, 1, 'medium', { is_occupied: true, is_free: false, piece_id: 'PC3704112' }),
  compartment(10, 1, 2, 'large', { is_reserved: true, next_piece_id: 'PC9900001' }),
  compartment(9, 1, 1, 'small'),
  compartment(13, 2, 2, 'small', { is_occupied: true, is_faulty: true }),
  compartment(14, 2, 3, 'large', { is_disabled: true, is_locked: true }),
  compartment(11, 1, 3, 'medium', { is_inactive_comp: true }),
];

describe('the compartment grid', () => {
  it('decides each state by the state order, the first flag set winning', () => {
    expect(STATE_ORDER).toEqual(['faulty', 'locked', 'disabled', 'inactive', 'occupied', 'reserved', 'free']);
    expect(LOCKER.map(compartmentState)).toEqual(['occupied', 'reserved', 'free', 'faulty', 'locked', 'inactive']);
    expect(lockerColumns(LOCKER).map((cells) => cells.map((c) => c.compartment_id))).toEqual([
      [9, 10, 11],
      [12, 13, 14],
    ]);
  });

  function renderGrid(call: (request: { query: Record<string, unknown> }) => Promise<unknown>) {
    render(
      <AdminContext dataProvider={{ call } as unknown as DataProvider} i18nProvider={i18nProvider}>
        <CompartmentGrids query={{ hardware_id: 3 }} />
      </AdminContext>,
    );
  }

  it('draws the columns side by side with a cell per compartment, a legend and a spoken name per cell', async () => {
    const call = vi.fn(async () => ({
      data: [{ hardware_id: 3, name: 'Locker 3', model_name: 'L-24', compartments: LOCKER }],
    }));
    renderGrid(call);
    const grid = await screen.findByRole('region', { name: 'Compartments of Locker 3' });
    expect(call).toHaveBeenCalledWith(
      expect.objectContaining({
        method: 'GET',
        path: 'webtool/service_points',
        query: { hardware_id: 3, opname: 'get_compartments' },
      }),
    );
    const columns = within(grid).getAllByRole('list', { name: /^Column/ });
    expect(columns.map((c) => c.getAttribute('aria-label'))).toEqual(['Column 1', 'Column 2']);
    const cells = within(columns[1]).getAllByRole('listitem');
    expect(cells.map((cell) => cell.getAttribute('data-state'))).toEqual(['occupied', 'faulty', 'locked']);
    expect(cells[0].getAttribute('aria-label')).toBe('Column 2, position 1, Medium, Occupied, piece PC3704112');
    // Issue 24: a door reads by its place (its column's caption, its position), not by its database id.
    expect(cells[0].textContent).not.toContain('12');
    expect(cells[0].textContent).toMatch(/1$/);
    expect(cells[0].tabIndex).toBe(0);
    // Heights follow the sizes: a large door is taller than a small one.
    const [small, large] = within(columns[0]).getAllByRole('listitem');
    expect(parseInt(getComputedStyle(large).height)).toBeGreaterThan(parseInt(getComputedStyle(small).height));
    const legend = within(grid).getByRole('list', { name: 'Legend' });
    const entries = within(legend).getAllByRole('listitem');
    expect(entries.map((item) => within(item).getByText(/\(\d+\)$/).textContent)).toEqual([
      'Faulty (1)',
      'Locked (1)',
      'Disabled (0)',
      'Inactive (1)',
      'Occupied (1)',
      'Reserved (1)',
      'Free (1)',
    ]);
  });

  it('reads as a table with the same compartments on demand', async () => {
    renderGrid(async () => ({ data: [{ hardware_id: 3, name: 'Locker 3', compartments: LOCKER }] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show as a table' }));
    const table = screen.getByRole('table', { name: 'Compartments of Locker 3, column by column from the top' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual([
      '9',
      '10',
      '11',
      '12',
      '13',
      '14',
    ]);
    expect(
      within(rows[1])
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['10', '1', '2', 'Large', 'Reserved', '-', 'PC9900001']);
    fireEvent.click(screen.getByRole('button', { name: 'Show as a grid' }));
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says it is loading, then shows a failure with a retry that reads again', async () => {
    let fail = true;
    const call = vi.fn(async () => {
      if (fail) throw new Error('Access is denied.');
      return { data: [{ hardware_id: 3, name: 'Locker 3', compartments: [] }] };
    });
    renderGrid(call);
    expect(screen.getByRole('status').textContent).toContain('Loading the compartments');
    expect(
      await screen.findByText('The compartments could not be loaded: Access is denied.', undefined, WAIT),
    ).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('This hardware unit has no compartments.')).toBeTruthy();
    expect(call).toHaveBeenCalledTimes(2);
  });
});

describe('a resource-registered tab panel: the hardware Compartments tab', () => {
  const unit = {
    id: 3,
    hardware_id: 3,
    name: 'Locker 3',
    hardware_type: 1,
    hardware_model_id: 1,
    hardware_owner_id: 1,
    status: 1,
    is_terminated: false,
    badges_v2: ['low_battery'],
    version: 1,
  };
  const call = vi.fn(async ({ query }: { query: Record<string, string> }) => {
    if (query.opname === 'get_compartments') {
      return { data: [{ hardware_id: 3, name: 'Locker 3', compartments: LOCKER }] };
    }
    if (query.type === 'hardware_models') return { data: [{ column_id: 1, column_name: 'L-24' }] };
    return { data: query.type === 'badges' ? BADGES : [] };
  });
  const dataProvider = {
    getOne: async () => ({ data: unit }),
    getList: async () => ({ data: [unit], total: 1 }),
    getMany: async () => ({ data: [] }),
    getManyReference: async () => ({ data: [], total: 0 }),
    call,
  } as unknown as DataProvider;
  const authProvider = (edits: boolean): AuthProvider => ({
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => ({}),
    canAccess: async ({ action }) => edits || ['list', 'show', 'export'].includes(action),
  });
  function renderAt(path: string, edits: boolean) {
    const { model: _model, ...resource } = hardware;
    render(
      <TestMemoryRouter initialEntries={[path]}>
        <Admin dataProvider={dataProvider} authProvider={authProvider(edits)} i18nProvider={i18nProvider}>
          <Resource {...resource} />
        </Admin>
      </TestMemoryRouter>,
    );
  }

  it('shows the registered panel in the edit page, with the badges at its head', SLOW, async () => {
    renderAt('/hardware/3', true);
    expect(await screen.findByRole('group', { name: 'Badges: Battery is low' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Status: In warehouse' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('tab', { name: 'Compartments' }));
    expect(await screen.findByRole('region', { name: 'Compartments of Locker 3' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('listitem', { name: /^Column \d+, position \d+, Small, Free/ })).toBeTruthy();
  });

  it('shows it in the read-only view too', SLOW, async () => {
    renderAt('/hardware/3/show', false);
    fireEvent.click(await screen.findByRole('tab', { name: 'Compartments' }, WAIT));
    expect(await screen.findByRole('region', { name: 'Compartments of Locker 3' }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('has no such tab on a new record, which has no compartments yet', SLOW, async () => {
    renderAt('/hardware/create', true);
    expect(await screen.findByRole('tab', { name: 'Basic' }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Compartments' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Log' })).toBeNull();
  });
});

describe('deleting a hardware unit or a PIN pad', () => {
  it('sends its owner as partner_id, as the schema declares (spec 02 §7 "DELETE {partner_id}")', () => {
    expect(resourceEndpoints().hardware).toEqual({
      endpoint: 'service_points/hardware_units',
      id: 'hardware_id',
      deleteSends: { partner_id: 'hardware_owner_id' },
      searchPageSize: 10,
      sort: { field: 'hardware_id', order: 'DESC', last: { field: 'is_terminated', values: [true] } },
    });
    expect(resourceEndpoints().pinpad.deleteSends).toEqual({ partner_id: 'hardware_owner_id' });
  });
});

describe("a hardware owner's own units", () => {
  it('are created with its partner id as a number, shown by its name and not editable', async () => {
    const submitted = vi.fn();
    const owner: AuthProvider = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => ({ partnerType: 'hardware_provider', partner: '1', partnerName: 'LockerWorks' }),
    };
    render(
      <AdminContext authProvider={owner} i18nProvider={i18nProvider}>
        <ResourceContextProvider value="pinpad">
          <Form onSubmit={submitted}>
            <SchemaInput field={fieldOf(modelOf('pinpad'), 'hardware_owner_id')!} mode="create" />
            <button type="submit">Send</button>
          </Form>
        </ResourceContextProvider>
      </AdminContext>,
    );
    const input = await screen.findByRole('textbox', { name: 'Partner' }, WAIT);
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('LockerWorks'));
    expect(input.hasAttribute('readonly')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.calls[0][0]).toEqual({ hardware_owner_id: 1 });
  });
});
