import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ListContextProvider, RecordContextProvider, useList, type DataProvider, type RaRecord } from 'react-admin';
import type { ResourceModel } from '../../src/schema/resource-model.ts';
import { modelOf, resourceEndpoints } from '../../src/schema/ui/registry.ts';
import { RecordHistory } from '../../src/schema/ui/record-history.tsx';
import { LookupColumns } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaTable } from '../../src/schema/ui/schema-table.tsx';
import { renderInAdmin } from './support/admin.tsx';

/*
 * Every text a user can store, in every field of every resource the schemas declare (a new schema
 * joins with no test code), is shown as text: in the list and in the record's history.
 */

const payloads = ['<img src=x onerror="window.__xss = 1">', '<script>window.__xss = 2</script>'];

/** A record with the payload in each text field (and list of texts) of the model. */
function hostileRecord(model: ResourceModel, payload: string): RaRecord {
  const record: Record<string, unknown> = { id: 1, [model.id]: 1, version: 1 };
  for (const field of model.fields) {
    if (field.type === 'string' && !field.values) record[field.source] = payload;
    if (field.type === 'array' && !field.values && !field.lookup) record[field.source] = [payload];
  }
  return record as RaRecord;
}

function hostileProvider(record: RaRecord, payload: string) {
  return {
    getList: async () => ({ data: [record], total: 1 }),
    getMany: async (_resource: string, { ids }: { ids: unknown[] }) => ({
      data: ids.map((id) => ({ ...record, id, name: payload, code: payload })),
    }),
    getOne: async () => ({ data: record }),
    call: async () => ({ data: [{ column_id: 1, column_name: payload }] }),
    action: async () => ({
      data: [
        {
          id: 1,
          at: '2026-11-22T10:00:00.000Z',
          username: payload,
          partner_type: payload,
          action: payload,
          changes: Object.fromEntries(Object.keys(record).map((field) => [field, { from: payload, to: payload }])),
        },
      ],
      total: 1,
    }),
  } as unknown as DataProvider;
}

function ListOf({ model, record }: { model: ResourceModel; record: RaRecord }) {
  const list = useList({ data: [record] });
  return (
    <ListContextProvider value={list}>
      <LookupColumns fields={model.fields}>
        <SchemaTable model={model} fields={model.fields} empty={<p>empty</p>} />
      </LookupColumns>
    </ListContextProvider>
  );
}

function expectInert() {
  expect(document.querySelector('img[src="x"]')).toBeNull();
  expect([...document.querySelectorAll('script')].filter((s) => s.textContent?.includes('__xss'))).toEqual([]);
  expect((window as { __xss?: number }).__xss).toBeUndefined();
}

afterEach(cleanup);

const models = Object.keys(resourceEndpoints()).map((name) => {
  const schemaId = Object.values(
    import.meta.glob<{ $id: string; 'x-resource'?: { name: string } }>('../../schemas/*.schema.json', {
      eager: true,
      import: 'default',
    }),
  ).find((schema) => schema['x-resource']?.name === name)!.$id;
  return modelOf(schemaId);
});

describe.each(models.map((model) => [model.name, model] as const))('%s', (_name, model) => {
  it.each(payloads)('shows %s as text in the list and the history', async (payload) => {
    const record = hostileRecord(model, payload);
    renderInAdmin(
      <>
        <ListOf model={model} record={record} />
        <RecordContextProvider value={record}>
          <RecordHistory model={model} />
        </RecordContextProvider>
      </>,
      { dataProvider: hostileProvider(record, payload), resource: model.name },
    );
    expect((await screen.findAllByText(payload, { exact: false })).length).toBeGreaterThan(0);
    expect(await screen.findByRole('table', { name: 'History' })).toBeTruthy();
    expectInert();
  });
});
