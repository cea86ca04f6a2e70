import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { exportCells, exportFileName, exportPlan, exportRows, type Translate } from '../../../src/schema/csv-export.ts';
import { resourceModel } from '../../../src/schema/resource-model.ts';
import { modelOf } from '../../../src/schema/ui/registry.ts';
import en from '../../../locales/en-US.json';
import fr from '../../../locales/fr-FR.json';

const model = resourceModel(
  {
    $id: 'thing',
    'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id' },
    properties: {
      thing_id: { type: 'integer', 'x-column': { index: 1 } },
      name: { type: 'string', 'x-column': { index: 2 } },
      note: { type: 'string', 'x-column': { index: 9, hide: true } },
      secret: { type: 'string', 'x-column': { index: 3, ignorexport: true } },
      warehouse_position_name: { type: 'string', 'x-column': { index: 4 } },
      bucket_name: { type: 'string', 'x-column': { index: 5 } },
      active: { type: 'boolean', 'x-column': { type: 'switch', index: 6 } },
      status: { type: 'string', enum: ['open', 'closed'], 'x-choices': 'status', 'x-column': { index: 7 } },
      tags: { type: 'array', items: { type: 'string' }, 'x-column': { index: 8 } },
    },
  },
  () => undefined,
);

const messages: Record<string, string> = {
  'resources.things.fields.thing_id': 'Id',
  'resources.things.fields.name': 'Name',
  'resources.things.fields.note': 'Note',
  'resources.things.fields.active': 'Active?',
  'resources.things.fields.status': 'Status',
  'resources.things.fields.tags': 'Tags',
  'table.active': 'Active',
  'table.deactive': 'Deactive',
  'table.yes': 'Yes',
  'table.no': 'No',
  'choices.status.open': 'Open',
  'choices.status.closed': 'Closed',
};
const translate: Translate = (key, options) => messages[key] ?? String(options?._ ?? key);

/** A translator over a locale file's nested keys. */
function localeTranslate(locale: object): Translate {
  return (key, options) => {
    const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], locale);
    return typeof found === 'string' ? found : String(options?._ ?? key);
  };
}

const parse = (csv: string) => Papa.parse<string[]>(csv.trim(), { skipEmptyLines: false }).data;

describe('exportRows', () => {
  it('writes translated headers in index order, hidden columns included, omitted ones left out', () => {
    const [header] = parse(exportRows(model, [], translate));
    expect(header).toEqual(['Id', 'Name', 'Active?', 'Status', 'Tags', 'Note']);
  });

  it("shows empty cells as '-', switches as Active/Deactive, choices translated, arrays joined", () => {
    const rows = parse(
      exportRows(
        model,
        [
          { thing_id: 1, name: 'Alpha', active: true, status: 'open', tags: ['a', 'b'], note: 'n', secret: 's' },
          { thing_id: 2, name: '', active: false, status: null, tags: [], warehouse_position_name: 'W1' },
        ],
        translate,
      ),
    );
    expect(rows.slice(1)).toEqual([
      ['1', 'Alpha', 'Active', 'Open', 'a, b', 'n'],
      ['2', '-', 'Deactive', '-', '-', '-'],
    ]);
  });

  it('neutralises text a spreadsheet would run as a formula, but keeps negative numbers', () => {
    const [, row] = parse(
      exportRows(model, [{ thing_id: -3, name: '=HYPERLINK("x")', note: '@SUM(A1)', tags: ['+1'] }], translate),
    );
    expect(row[0]).toBe('-3');
    expect(row[1]).toBe(`'=HYPERLINK("x")`);
    expect(row[4]).toBe("'+1");
    expect(row[5]).toBe("'@SUM(A1)");
  });

  it('never lets a text cell start with a formula character, and keeps the column count', () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom('=1+1', '+cmd', '-2+3', '@x', '\tx', '\rx', ' ', 'toString', '__proto__'),
      fc.string().map((s) => `=${s}`),
    );
    const record = fc.record({
      name: fc.option(text),
      note: fc.option(text),
      status: fc.option(text),
      active: fc.option(fc.boolean()),
      tags: fc.array(text, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 10 }), (records) => {
        const [header, ...rows] = parse(exportRows(model, records, translate));
        expect(rows).toHaveLength(records.length);
        for (const row of rows) {
          expect(row).toHaveLength(header.length);
          for (const cell of row.slice(1)) {
            expect(cell === '-' || !/^[=+\-@\t\r]/.test(cell), JSON.stringify(cell)).toBe(true);
          }
        }
      }),
    );
  });
});

describe('exportFileName', () => {
  it('suffixes the label with a DD-MM-YYYY-HH-mm timestamp', () => {
    expect(exportFileName('service-points', new Date(2026, 0, 5, 9, 7))).toBe('service-points-05-01-2026-09-07.csv');
  });

  it('keeps the name safe for a file system', () => {
    expect(exportFileName('Service points/all', new Date(2026, 11, 31, 23, 59))).toBe(
      'Service_points_all-31-12-2026-23-59.csv',
    );
  });
});

describe('exportPlan with lookup lists', () => {
  const withLookup = resourceModel(
    {
      $id: 'place',
      'x-resource': { name: 'places', endpoint: 'places', id: 'place_id' },
      properties: {
        place_id: { type: 'integer', 'x-column': { index: 1 } },
        kind: { type: 'integer', 'x-lookup': { source: 'webtool/lists?type=kinds' }, 'x-column': { index: 2 } },
      },
    },
    () => undefined,
  );

  it('writes the names of lookup values, and the raw value when a name is unknown', () => {
    const plan = exportPlan(withLookup, translate, { kind: { '1': 'Supermarket', '2': 'Kiosk' } });
    expect(exportCells(plan, [{ place_id: 7, kind: 2 }, { place_id: 8, kind: 9 }, { place_id: 9 }])).toEqual([
      ['7', 'Kiosk'],
      ['8', '9'],
      ['9', '-'],
    ]);
  });
});

describe('booleans in the service point export', () => {
  const servicePoints = modelOf('service-point');
  const terminated = {
    service_point_id: 9,
    name: 'Coop Nord Kiosk Oslo 9',
    status: 9,
    is_terminated: true,
    parked: false,
    test_sp: false,
    active: false,
  };
  const columnOf = (plan: ReturnType<typeof exportPlan>, field: string) => {
    const index = plan.columns.findIndex((column) => column.source === field);
    return (row: string[]) => row[index];
  };

  it.each([
    ['en-US', en, { terminated: 'Yes', parked: 'No', test: 'No', active: 'Deactive' }],
    ['fr-FR', fr, { terminated: 'Oui', parked: 'Non', test: 'Non', active: 'Désactivé' }],
  ])(
    '%s: terminated, parked and test read Yes or No; only the active switch reads Active or Deactive',
    (_, locale, expected) => {
      const plan = exportPlan(servicePoints, localeTranslate(locale));
      const [row] = exportCells(plan, [terminated]);
      expect(columnOf(plan, 'is_terminated')(row)).toBe(expected.terminated);
      expect(columnOf(plan, 'parked')(row)).toBe(expected.parked);
      expect(columnOf(plan, 'test_sp')(row)).toBe(expected.test);
      expect(columnOf(plan, 'active')(row)).toBe(expected.active);
    },
  );
});
