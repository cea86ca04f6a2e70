import type { ComponentType } from 'react';
import { Create, Edit, TopToolbar } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { modelOf } from './registry.ts';
import { SchemaForm } from './schema-form.tsx';
import { SchemaList } from './schema-list.tsx';
import { useEditErrorHandler } from './stale-record.tsx';
import { HistoryButton } from './record-history.tsx';

export interface SchemaResource {
  name: string;
  model: ResourceModel;
  list: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  icon?: ComponentType;
  recordRepresentation: string;
}

export interface SchemaResourceOptions {
  icon?: ComponentType;
  /** Read-only resources leave these out. */
  create?: boolean;
  edit?: boolean;
  /** Extra buttons above the edit form, for opname actions of the resource. */
  editActions?: ComponentType;
}

/** A react-admin resource built from one schema; per-resource code only passes overrides. */
export function schemaResource(schemaId: string, options: SchemaResourceOptions = {}): SchemaResource {
  const model = modelOf(schemaId);
  const withCreate = options.create ?? true;
  const withEdit = options.edit ?? true;
  const ListPage = () => <SchemaList model={model} canCreate={withCreate} />;
  const CreatePage = () => (
    <Create redirect="list">
      <SchemaForm model={model} mode="create" />
    </Create>
  );
  const EditActions = options.editActions;
  const EditPage = () => (
    <Edit
      mutationOptions={{ onError: useEditErrorHandler() }}
      mutationMode="pessimistic"
      redirect="list"
      actions={
        <TopToolbar>
          {EditActions && <EditActions />}
          <HistoryButton model={model} />
        </TopToolbar>
      }
    >
      <SchemaForm model={model} mode="edit" />
    </Edit>
  );
  return {
    name: model.name,
    model,
    list: ListPage,
    create: withCreate ? CreatePage : undefined,
    edit: withEdit ? EditPage : undefined,
    icon: options.icon,
    recordRepresentation: model.representation,
  };
}
