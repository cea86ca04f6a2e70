import { describe, expect, it } from 'vitest';
import { columnEntries, hiddenColumns, toggleColumn } from '../../../src/schema/column-preferences.ts';
import { resourceModel } from '../../../src/schema/resource-model.ts';
import { savedFilters, savesFilters, withSavedFilters } from '../../../src/schema/saved-filters.ts';
import { permissionSet } from '../../../src/schema/permissions.ts';

const { fields } = resourceModel(
  {
    $id: 'thing',
    'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id' },
    properties: {
      a: { type: 'string', 'x-column': { index: 1 } },
      b: { type: 'string', 'x-column': { index: 2 } },
      c: { type: 'string', 'x-column': { index: 3, hide: true } },
    },
  },
  () => undefined,
);

const sorted = (set: Set<number>) => [...set].sort();

describe('column preferences', () => {
  it('start from the schema: hide: true columns are hidden', () => {
    expect(sorted(hiddenColumns(fields, null))).toEqual([3]);
  });

  it('apply stored {k, h} entries over the defaults', () => {
    const stored = JSON.stringify([
      { k: 1, h: 1 },
      { k: 3, h: 0 },
    ]);
    expect(sorted(hiddenColumns(fields, stored))).toEqual([1]);
  });

  it('ignore a stored preference that hides every column', () => {
    const stored = JSON.stringify([1, 2, 3].map((k) => ({ k, h: 1 })));
    expect(sorted(hiddenColumns(fields, stored))).toEqual([3]);
  });

  it('ignore unreadable storage, unknown columns and malformed entries', () => {
    expect(sorted(hiddenColumns(fields, '{not json'))).toEqual([3]);
    expect(sorted(hiddenColumns(fields, '{"k":1}'))).toEqual([3]);
    expect(sorted(hiddenColumns(fields, JSON.stringify([{ k: 99, h: 1 }, { k: 2, h: 'yes' }, null])))).toEqual([3]);
  });

  it('never hide the last visible column', () => {
    const oneLeft = toggleColumn(fields, new Set([3]), 1);
    expect(sorted(oneLeft)).toEqual([1, 3]);
    expect(sorted(toggleColumn(fields, oneLeft, 2))).toEqual([1, 3]);
    expect(sorted(toggleColumn(fields, oneLeft, 3))).toEqual([1]);
  });

  it('round-trip through the stored entries', () => {
    const entries = columnEntries(fields, new Set([2]));
    expect(entries).toEqual([
      { k: 1, h: 0 },
      { k: 2, h: 1 },
      { k: 3, h: 0 },
    ]);
    expect(sorted(hiddenColumns(fields, JSON.stringify(entries)))).toEqual([2]);
  });
});

describe('saved filters', () => {
  it('keep each page under its resource in one object', () => {
    const first = withSavedFilters(null, 'carriers', { q: 'Nord' });
    const both = withSavedFilters(first, 'service-points', { city: 'Oslo' });
    expect(savedFilters(both, 'carriers')).toEqual({ q: 'Nord' });
    expect(savedFilters(both, 'service-points')).toEqual({ city: 'Oslo' });
    expect(savedFilters('garbage', 'carriers')).toBeUndefined();
  });

  it('are saved only when a feature of the resource has the policy option on', () => {
    const on = permissionSet(
      [{ feature_id: 188, has_permission: true, configurations: [{ type: 'save_filters_and_columns', show: true }] }],
      false,
    );
    const off = permissionSet([{ feature_id: 188, has_permission: true }], false);
    expect(savesFilters(on, { basic: 187, advance: 188 })).toBe(true);
    expect(savesFilters(off, { basic: 187, advance: 188 })).toBe(false);
    expect(savesFilters(undefined, { basic: 187 })).toBe(false);
  });
});
