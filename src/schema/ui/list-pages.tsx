import type { ResourceModel } from '../resource-model.ts';
import type { SchemaResourceOptions } from './schema-resource.tsx';
import { SchemaList } from './schema-list.tsx';

/**
 * The list page of a schema resource. This module (the table, its filters and toolbar) is a lazy
 * chunk: it loads with the first list opened, not with the admin; the record pages are a chunk
 * of their own (record-pages.tsx), so a list does not load the forms.
 */
export function listPage(model: ResourceModel, options: SchemaResourceOptions) {
  const withCreate = options.create ?? true;
  const OwnList = options.list;
  return function ListPage() {
    return OwnList ? (
      <OwnList model={model} />
    ) : (
      <SchemaList
        model={model}
        canCreate={withCreate}
        bulkActions={options.bulkActions}
        listActions={options.listActions}
        live={options.liveList}
      />
    );
  };
}
