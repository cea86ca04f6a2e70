import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import {
  ListContextProvider,
  Resource,
  ResourceContextProvider,
  useList,
  type DataProvider,
  type RaRecord,
} from 'react-admin';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { LookupColumns } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaTable } from '../../src/schema/ui/schema-table.tsx';
import { renderInAdmin } from './support/admin.tsx';

const couriers = modelOf('courier');

const rows: RaRecord[] = [
  { id: 1, courier_id: 1, carrier_id: 1, code: 'NP-1', active: true, box_inspection: false },
  { id: 2, courier_id: 2, carrier_id: 2, code: 'FF-1', active: false, box_inspection: true },
  { id: 3, courier_id: 3, carrier_id: 1, code: 'NP-2', active: true },
  { id: 4, courier_id: 4, carrier_id: 99, code: 'XX-1', active: true },
];

function CourierTable() {
  const list = useList({ data: rows });
  return (
    <ListContextProvider value={list}>
      <LookupColumns fields={couriers.fields}>
        <SchemaTable model={couriers} fields={couriers.fields} empty={<p>empty</p>} />
      </LookupColumns>
    </ListContextProvider>
  );
}

afterEach(cleanup);

describe('the engine table', () => {
  it("names a page's referenced records from one request per column, empty when one is not found", async () => {
    const getMany = vi.fn(async (_resource: string, { ids }: { ids: number[] }) => ({
      data: ids.filter((id) => id !== 99).map((id) => ({ id, carrier_id: id, name: `Carrier ${id}` })),
    }));
    renderInAdmin(
      <>
        <Resource name="carriers" recordRepresentation="name" />
        <ResourceContextProvider value={couriers.name}>
          <CourierTable />
        </ResourceContextProvider>
      </>,
      { dataProvider: { getMany } as unknown as DataProvider },
    );
    const table = screen.getByRole('table');
    const carrierCells = async () => {
      const header = within(table).getAllByRole('columnheader');
      const column = header.findIndex((cell) => cell.textContent === 'Carrier');
      return within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[column].textContent);
    };
    await screen.findAllByText('Carrier 1');
    expect(await carrierCells()).toEqual(['Carrier 1', 'Carrier 2', 'Carrier 1', '']);
    expect(getMany).toHaveBeenCalledTimes(1);
    expect(getMany.mock.calls[0][0]).toBe('carriers');
    expect([...getMany.mock.calls[0][1].ids].sort()).toEqual([1, 2, 99]);
  });

  it('shows switch columns as a mark named Active or Deactive', () => {
    renderInAdmin(<CourierTable />, {
      dataProvider: { getMany: async () => ({ data: [] }) } as unknown as DataProvider,
      resource: couriers.name,
    });
    const first = screen.getAllByRole('row')[1];
    expect(within(first).getByRole('img', { name: 'Active' }).textContent).toBe('\u2713');
    expect(within(first).getByRole('img', { name: 'Deactive' }).getAttribute('title')).toBe('Deactive');
    // No value, no mark.
    expect(within(screen.getAllByRole('row')[3]).getAllByRole('img')).toHaveLength(1);
  });
});

describe('names, not ids', () => {
  const servicePoints = modelOf('service-point');
  const lookups: Record<string, { column_id: number; column_name: string }[]> = {
    location_owners: [
      { column_id: 1, column_name: 'Coop Nord' },
      { column_id: 2, column_name: 'Kiosk 24' },
    ],
    carrier_list: [
      { column_id: 1, column_name: 'NordPost' },
      { column_id: 5, column_name: 'Suomi Parcel' },
    ],
  };
  const points: RaRecord[] = [
    { id: 1, service_point_id: 1, name: 'One', location_owner_id: 2, carriers_access: [1, 5], is_terminated: true },
    { id: 2, service_point_id: 2, name: 'Two', location_owner_id: 1, carriers_access: [], is_terminated: false },
  ];

  function PointTable() {
    const list = useList({ data: points });
    const shown = servicePoints.fields.filter((field) =>
      ['name', 'location_owner_id', 'carriers_access', 'is_terminated'].includes(field.source),
    );
    return (
      <ListContextProvider value={list}>
        <LookupColumns fields={servicePoints.fields}>
          <SchemaTable model={servicePoints} fields={shown} empty={<p>empty</p>} />
        </LookupColumns>
      </ListContextProvider>
    );
  }

  it('shows location owners and carriers of service points by name, and terminated as Yes or No', async () => {
    const call = vi.fn(async ({ query }: { query: { type: string } }) => ({ data: lookups[query.type] ?? [] }));
    renderInAdmin(<PointTable />, { dataProvider: { call } as unknown as DataProvider, resource: servicePoints.name });
    const [first, second] = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    await within(first).findByText('Kiosk 24');
    expect(within(first).getByText('NordPost')).toBeTruthy();
    expect(within(first).getByText('Suomi Parcel')).toBeTruthy();
    expect(within(first).getByRole('img', { name: 'Yes' })).toBeTruthy();
    expect(within(second).getByText('Coop Nord')).toBeTruthy();
    expect(within(second).getByRole('img', { name: 'No' })).toBeTruthy();
  });

  it("opens a record from its name in the app on a plain click, and leaves a new tab's click to the browser", async () => {
    const call = vi.fn(async ({ query }: { query: { type: string } }) => ({ data: lookups[query.type] ?? [] }));
    renderInAdmin(<PointTable />, { dataProvider: { call } as unknown as DataProvider, resource: servicePoints.name });
    const link = within(screen.getByRole('table')).getByRole('link', { name: 'Two' });
    // A plain anchor with the record's address (react-admin's router here is a hash router).
    expect(link.getAttribute('href')).toBe('#/service-points/2');
    const newTab = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    link.dispatchEvent(newTab);
    expect(newTab.defaultPrevented).toBe(false);
    expect(window.location.hash).not.toBe('#/service-points/2');
    const plain = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(true);
    await waitFor(() => expect(window.location.hash).toBe('#/service-points/2'));
  });
});
