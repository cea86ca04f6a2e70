import { Suspense } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import {
  Create,
  Edit,
  Loading,
  Show,
  useCanAccess,
  useCreatePath,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { Alert } from '@mui/material';
import { readOnlyRuleOf, type ResourceModel } from '../resource-model.ts';
import type { AfterCreate, SchemaResourceOptions } from './schema-resource.tsx';
import { SchemaForm } from './schema-form.tsx';
import { useCreateLabel } from './create-label.ts';
import { useEditErrorHandler } from './stale-record.tsx';
import { HistoryButton } from './record-history.tsx';
import { RecordView } from './record-view.tsx';
import { RecordPageHead } from './record-page-head.tsx';
import { RecordBadges } from './status-badge.tsx';
import { InputKindsProvider, ValueKindsProvider } from './input-kinds.tsx';
import { TabPanelsProvider } from './tab-panels.tsx';
import { RecordTitle, representationChoices, useRecordName } from './representation.tsx';

/**
 * After a save, the toast names the record ('Carrier "NordPost" saved'), then the list opens.
 * Replaces react-admin's own success handling, which only says 'Element updated'. A created record's
 * next page replaces the create form in the browser history (issue 24), so Back never reopens a
 * filled or blank form for the record just made (a booking's duplicate).
 */
function useSavedNotification(model: ResourceModel, kind: 'created' | 'saved', then?: AfterCreate) {
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const represent = useRecordName(model);
  const navigate = useNavigate();
  const createPath = useCreatePath();
  return async (data: RaRecord) => {
    const representation = represent(data);
    notify(`form.${kind}`, {
      type: 'info',
      messageArgs: {
        resource: translate(`resources.${model.name}.name`, { smart_count: 1 }),
        name: representation,
      },
    });
    const next = await then?.(data).catch(() => undefined);
    if (kind === 'created') navigate(next ?? createPath({ resource: model.name, type: 'list' }), { replace: true });
    else if (next) redirect(next);
    else redirect('list', model.name);
  };
}

/**
 * Only users who may edit the record get the edit page, the others its read-only view: a
 * resource opened at /<resource>/<id>/show, or at /<resource>/<id> by a reader, never shows an
 * empty form or a live Delete button.
 */
function useEditAccess(model: ResourceModel, withEdit: boolean) {
  const { id } = useParams<{ id: string }>();
  const createPath = useCreatePath();
  const { canAccess, isPending } = useCanAccess({ resource: model.name, action: 'edit' });
  const pathOf = (type: 'edit' | 'show') => createPath({ resource: model.name, id: id ?? '', type });
  return { canEdit: withEdit && canAccess === true, isPending, pathOf };
}

/**
 * A record that can no longer change (`x-read-only`: a closed ticket, a terminated device) opens as its
 * read-only view with the reason above it, instead of a form whose save the gateway would refuse.
 */
function EditOrReadOnly({ model }: { model: ResourceModel }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const rule = record ? readOnlyRuleOf(model, record) : undefined;
  if (!rule) return <SchemaForm model={model} mode="edit" />;
  return (
    <>
      <Alert severity="info" role="status" data-testid="read-only-reason" sx={{ m: 2, mb: 0 }}>
        {translate(rule.reason)}
      </Alert>
      <RecordView model={model} />
    </>
  );
}

/**
 * The create, edit and show pages of a schema resource. This module (the forms, the record view,
 * their inputs) is a lazy chunk apart from the lists' (list-pages.tsx): it loads with the first
 * record page opened, not with the list.
 */
export function recordPages(model: ResourceModel, options: SchemaResourceOptions) {
  const withEdit = options.edit ?? true;
  const inputs = options.inputs ?? {};
  const panels = options.panels ?? {};
  const values = options.values ?? {};
  const ResourceButtons = () => (
    <Suspense fallback={null}>
      {(options.toolbar ?? []).map((ToolbarButton, index) => (
        <ToolbarButton key={index} model={model} />
      ))}
    </Suspense>
  );
  const useAfterCreate = options.useAfterCreate ?? (() => undefined);
  const CreateExtras = () => (
    <Suspense fallback={null}>
      {(options.createExtras ?? []).map((Extra, index) => (
        <Extra key={index} model={model} />
      ))}
    </Suspense>
  );
  const CreatePage = () => {
    const onSuccess = useSavedNotification(model, 'created', useAfterCreate());
    const title = useCreateLabel(model);
    return (
      <Create redirect="list" mutationOptions={{ onSuccess }} title={title}>
        <InputKindsProvider value={inputs}>
          <TabPanelsProvider value={panels}>
            <SchemaForm model={model} mode="create" extras={<CreateExtras />} />
          </TabPanelsProvider>
        </InputKindsProvider>
      </Create>
    );
  };
  // A record named by a choice (a price by its parcel size) is titled by the choice's name.
  const choiceTitle = (page: 'edit' | 'show') =>
    representationChoices(model) ? <RecordTitle model={model} page={page} /> : undefined;
  const EditPage = () => {
    const onError = useEditErrorHandler();
    const onSuccess = useSavedNotification(model, 'saved');
    const { canEdit, isPending, pathOf } = useEditAccess(model, withEdit);
    if (isPending) return <Loading />;
    if (!canEdit) return <Navigate to={pathOf('show')} replace />;
    return (
      <Edit
        title={choiceTitle('edit')}
        mutationOptions={{ onError, onSuccess }}
        mutationMode="pessimistic"
        redirect="list"
        actions={
          <InputKindsProvider value={inputs}>
            <RecordPageHead
              model={model}
              badges={<RecordBadges model={model} />}
              trailing={
                <>
                  <ResourceButtons />
                  <HistoryButton model={model} />
                </>
              }
              withActions
            />
          </InputKindsProvider>
        }
      >
        <InputKindsProvider value={inputs}>
          <TabPanelsProvider value={panels}>
            <ValueKindsProvider value={values}>
              <EditOrReadOnly model={model} />
            </ValueKindsProvider>
          </TabPanelsProvider>
        </InputKindsProvider>
      </Edit>
    );
  };
  const ShowPage = () => {
    const { canEdit, isPending, pathOf } = useEditAccess(model, withEdit);
    if (isPending) return <Loading />;
    if (canEdit) return <Navigate to={pathOf('edit')} replace />;
    return (
      <Show
        title={choiceTitle('show')}
        actions={
          <RecordPageHead
            model={model}
            badges={<RecordBadges model={model} />}
            trailing={
              <>
                <ResourceButtons />
                <HistoryButton model={model} />
              </>
            }
            withActions={false}
          />
        }
      >
        <TabPanelsProvider value={panels}>
          <ValueKindsProvider value={values}>
            <RecordView model={model} />
          </ValueKindsProvider>
        </TabPanelsProvider>
      </Show>
    );
  };
  return { CreatePage, EditPage, ShowPage };
}
