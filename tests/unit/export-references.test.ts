import { describe, expect, it, vi } from 'vitest';
import type { DataProvider } from 'react-admin';
import { exportCells, exportPlan, type Translate } from '../../src/schema/csv-export.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { referenceNamer } from '../../src/schema/ui/export-button.tsx';

const translate: Translate = (key, options) => String(options?._ ?? key);
const couriers = modelOf('courier');

describe('referenced records in the CSV export', () => {
  it("writes a courier's carrier by name, fetching each carrier once, and keeps the id of one that is gone", async () => {
    const getMany = vi.fn(async (_resource: string, { ids }: { ids: number[] }) => ({
      data: ids.filter((id) => id !== 99).map((id) => ({ id, carrier_id: id, name: `Carrier ${id}` })),
    }));
    const named = referenceNamer({ getMany } as unknown as DataProvider, couriers.fields);
    const plan = exportPlan(couriers, translate);
    const carrierColumn = plan.columns.findIndex((column) => column.source === 'carrier_id');
    const first = await named([
      { courier_id: 1, carrier_id: 1 },
      { courier_id: 2, carrier_id: 2 },
    ]);
    const second = await named([
      { courier_id: 3, carrier_id: 1 },
      { courier_id: 4, carrier_id: 99 },
    ]);
    expect(exportCells(plan, [...first, ...second]).map((row) => row[carrierColumn])).toEqual([
      'Carrier 1',
      'Carrier 2',
      'Carrier 1',
      '99',
    ]);
    expect(getMany.mock.calls.map(([resource, { ids }]) => [resource, ids])).toEqual([
      ['carriers', [1, 2]],
      ['carriers', [99]],
    ]);
  });
});
