import { useMemo } from 'react';
import { CreateButton, Datagrid, ExportButton, List, TopToolbar, useTranslate } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { schemaColumn } from './schema-columns.tsx';
import { schemaFilters } from './schema-inputs.tsx';

function ListActions({ canCreate }: { canCreate: boolean }) {
  return (
    <TopToolbar>
      {canCreate && <CreateButton />}
      <ExportButton />
    </TopToolbar>
  );
}

/** The generic table: columns, filters, sort and paging from the schema. */
export function SchemaList({ model, canCreate = true }: { model: ResourceModel; canCreate?: boolean }) {
  const translate = useTranslate();
  const filters = useMemo(() => schemaFilters(model.fields, translate('ra.action.search')), [model, translate]);
  const columns = useMemo(() => model.fields.filter((f) => !f.column.hide).map(schemaColumn), [model]);
  return (
    <List
      perPage={model.pageSize}
      sort={model.sort}
      filters={filters}
      actions={<ListActions canCreate={canCreate} />}
      empty={false}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false} empty={<NoRecords />}>
        {columns}
      </Datagrid>
    </List>
  );
}

function NoRecords() {
  const translate = useTranslate();
  return <p style={{ padding: 16 }}>{translate('http.no_records')}</p>;
}
