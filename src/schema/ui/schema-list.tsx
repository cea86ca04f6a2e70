import { Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import {
  CanAccess,
  CreateButton,
  FilterButton,
  List,
  Pagination,
  TopToolbar,
  useCanAccess,
  useListContext,
  useTranslate,
} from 'react-admin';
import { useProfile } from './profile.ts';
import { columnEntries, columnsStorageKey, hiddenColumns, toggleColumn } from '../column-preferences.ts';
import { rowsPerPageOptions } from '../page-sizes.ts';
import type { ResourceModel } from '../resource-model.ts';
import { optionShowsField } from '../feature-options.ts';
import { FILTERS_STORAGE_KEY, savedFilters, savesFilters, withSavedFilters } from '../saved-filters.ts';
import { ColumnMenu } from './column-menu.tsx';
import { ExportButton } from './export-button.tsx';
import { ImportButton } from './import-button.tsx';
import { LookupColumns } from './schema-columns.tsx';
import { SchemaTable } from './schema-table.tsx';
import { CompactList, useCompactList } from './compact-list.tsx';
import { schemaFilters } from './schema-filters.tsx';
import { BulkActionsBar, type BulkActions } from './bulk-actions.tsx';
import { LiveListChanges } from './live-updates.tsx';
import { useCreateLabel } from './create-label.ts';

function ListActions({
  model,
  canCreate,
  hidden,
  onToggleColumn,
  own = [],
}: {
  model: ResourceModel;
  canCreate: boolean;
  hidden: ReadonlySet<number>;
  onToggleColumn: (index: number) => void;
  own?: readonly ComponentType<{ model: ResourceModel }>[];
}) {
  const createLabel = useCreateLabel(model);
  return (
    <TopToolbar>
      <Suspense fallback={null}>
        {own.map((Button, index) => (
          <Button key={index} model={model} />
        ))}
      </Suspense>
      <FilterButton />
      {canCreate && <CreateButton label={createLabel} />}
      <ColumnMenu resource={model.name} fields={model.fields} hidden={hidden} onToggle={onToggleColumn} />
      <ExportButton model={model} />
      {model.bulkImport && (
        <CanAccess action="import">
          <ImportButton model={model} />
        </CanAccess>
      )}
    </TopToolbar>
  );
}

/** Column visibility of one page, kept in local storage as `{k, h}` entries. */
function useHiddenColumns(model: ResourceModel) {
  const key = columnsStorageKey(model.name);
  const [hidden, setHidden] = useState(() => hiddenColumns(model.fields, localStorage.getItem(key)));
  const toggle = useCallback(
    (index: number) =>
      setHidden((current) => {
        const next = toggleColumn(model.fields, current, index);
        localStorage.setItem(key, JSON.stringify(columnEntries(model.fields, next)));
        return next;
      }),
    [model, key],
  );
  return [hidden, toggle] as const;
}

/** Writes the page's filters under the session key 'filters' whenever they change. */
function SaveFilters({ resource }: { resource: string }) {
  const { filterValues } = useListContext();
  useEffect(() => {
    localStorage.setItem(
      FILTERS_STORAGE_KEY,
      withSavedFilters(localStorage.getItem(FILTERS_STORAGE_KEY), resource, filterValues),
    );
  }, [resource, filterValues]);
  return null;
}

/** The generic table: columns, filters, sort and paging from the schema. */
export function SchemaList({
  model: schemaModel,
  canCreate = true,
  bulkActions,
  listActions,
  live = 'banner',
}: {
  model: ResourceModel;
  canCreate?: boolean;
  bulkActions?: BulkActions;
  listActions?: readonly ComponentType<{ model: ResourceModel }>[];
  /** Changes saved by others: counted in a banner that refreshes on click, or refreshed in place. */
  live?: 'banner' | 'inPlace';
}) {
  // Only a user who may change the records gets the checkboxes and the bar.
  const { canAccess: mayEdit } = useCanAccess({ resource: schemaModel.name, action: 'edit' });
  const bulk = mayEdit ? bulkActions : undefined;
  const translate = useTranslate();
  const permissions = useProfile();
  // A field whose input a feature option of the user's role hides (`x-input.option`) has no column,
  // filter nor export either: a ticket's internal notes without the notes column option.
  const set = permissions?.permissions;
  const model = useMemo(
    () => ({
      ...schemaModel,
      fields: schemaModel.fields.filter(
        (field) => !field.input.option || (set !== undefined && optionShowsField(set, schemaModel, field)),
      ),
    }),
    [schemaModel, set],
  );
  const saveFilters = savesFilters(permissions?.permissions, model.features);
  const filters = useMemo(
    () => schemaFilters([...model.fields, ...model.queryFilters], translate('ra.action.search')),
    [model, translate],
  );
  const [hidden, toggleHidden] = useHiddenColumns(model);
  // The gateway applies `sort.last` itself; react-admin keeps the field and the order.
  const listSort = useMemo(() => ({ field: model.sort.field, order: model.sort.order }), [model]);
  const compact = useCompactList();
  const visible = useMemo(() => model.fields.filter((f) => !hidden.has(f.column.index)), [model, hidden]);
  const restored = useMemo(
    () => (saveFilters ? savedFilters(localStorage.getItem(FILTERS_STORAGE_KEY), model.name) : undefined),
    [saveFilters, model.name],
  );
  return (
    <List
      perPage={model.pageSize}
      pagination={<Pagination rowsPerPageOptions={rowsPerPageOptions(model.pageSize)} />}
      sort={listSort}
      filters={filters}
      filterDefaultValues={restored ?? model.defaultFilter}
      actions={
        <ListActions
          model={model}
          canCreate={canCreate}
          hidden={hidden}
          onToggleColumn={toggleHidden}
          own={listActions}
        />
      }
      empty={false}
    >
      {saveFilters && <SaveFilters resource={model.name} />}
      <LiveListChanges mode={live} />
      {bulk && (
        <Suspense fallback={null}>
          <BulkActionsBar bulk={bulk} model={model} />
        </Suspense>
      )}
      {/* Only the shown columns fetch: a hidden reference column costs no request. */}
      <LookupColumns fields={visible}>
        {compact ? (
          <CompactList model={model} fields={visible} empty={<NoRecords />} />
        ) : (
          <SchemaTable model={model} fields={visible} empty={<NoRecords />} bulk={bulk} />
        )}
      </LookupColumns>
    </List>
  );
}

function NoRecords() {
  const translate = useTranslate();
  return <p style={{ padding: 16 }}>{translate('http.no_records')}</p>;
}
