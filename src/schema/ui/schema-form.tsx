import { useMemo, useRef } from 'react';
import {
  DeleteButton,
  SaveButton,
  SimpleForm,
  TabbedForm,
  Toolbar,
  useNotify,
  useRedirect,
  useResourceContext,
  useCanAccessResources,
  type RaRecord,
} from 'react-admin';
import type { ChildModel, ResourceModel } from '../resource-model.ts';
import { toFieldErrors, validateRecord } from '../validate.ts';
import { modelOf, schemaRegistry } from './registry.ts';
import { NestedRecords } from './nested-records.tsx';
import { SchemaInput } from './schema-inputs.tsx';
import { UnsavedChangesDialog } from './unsaved-changes-dialog.tsx';
import { RecordHistory } from './record-history.tsx';
import { DiscardOnReload } from './stale-record.tsx';
import { registeredPanel, useTabPanels } from './tab-panels.tsx';

/** A tab named `log` shows the record's audit trail instead of inputs (e.g. the service point Log tab). */
const LOG_TAB = 'log';

export type FormMode = 'create' | 'edit';

/** The same ajv validator the gateway runs, with translated `validation.*` messages per field. */
export function useSchemaValidator(model: ResourceModel) {
  return useMemo(
    () => (values: RaRecord | Record<string, unknown>) =>
      toFieldErrors(validateRecord(schemaRegistry, model.schemaId, values)),
    [model.schemaId],
  );
}

/** Save and delete, plus the question asked before leaving unsaved work. */
function FormToolbar({ mode }: { mode: FormMode }) {
  const leaving = useRef(false);
  const notify = useNotify();
  const redirect = useRedirect();
  const resource = useResourceContext();
  // Deleting leaves the form on purpose: the record is gone, its unsaved changes with it.
  const deleteOptions = {
    onSuccess: () => {
      leaving.current = true;
      notify('ra.notification.deleted', { type: 'info', messageArgs: { smart_count: 1 } });
      redirect('list', resource);
    },
  };
  return (
    <>
      <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
        <SaveButton />
        {mode === 'edit' && <DeleteButton mutationMode="pessimistic" mutationOptions={deleteOptions} />}
      </Toolbar>
      <UnsavedChangesDialog leaving={leaving} />
      {mode === 'edit' && <DiscardOnReload />}
    </>
  );
}

/**
 * When the record reloads under an open form (a logo uploaded, the window focused again), what the
 * user typed stays and the rest, the version included, follows the record.
 */
const KEEP_TYPED = { keepDirtyValues: true } as const;

/** The `x-children` whose records the user may read: only theirs get a tab. */
function useReadableChildren(model: ResourceModel): ChildModel[] {
  const childResources = useMemo(() => model.children.map((child) => modelOf(child.schema).name), [model.children]);
  const { canAccess } = useCanAccessResources({ action: 'list', resources: childResources });
  return model.children.filter((_, index) => canAccess?.[childResources[index]] === true);
}

/** Create/edit form from the schema: inputs by type and hint, in tabs when the schema names them. */
export function SchemaForm({ model, mode }: { model: ResourceModel; mode: FormMode }) {
  const validate = useSchemaValidator(model);
  const readableChildren = useReadableChildren(model);
  const panels = useTabPanels();
  const fields = model.fields.filter((field) => !(field.readOnly && mode === 'create'));
  const inputs = (tab?: string) =>
    fields
      .filter((field) => !tab || (field.input.tab ?? model.tabs[0]) === tab)
      .map((field) => <SchemaInput key={field.source} field={field} mode={mode} />);

  if (!model.tabs.length) {
    return (
      <SimpleForm validate={validate} toolbar={<FormToolbar mode={mode} />} resetOptions={KEEP_TYPED}>
        {inputs()}
      </SimpleForm>
    );
  }
  return (
    <TabbedForm validate={validate} toolbar={<FormToolbar mode={mode} />} resetOptions={KEEP_TYPED}>
      {model.tabs
        // The log and a registered panel show a saved record: a new one has neither yet.
        .filter((tab) => mode === 'edit' || (tab !== LOG_TAB && !Object.hasOwn(panels, tab)))
        .map((tab) => (
          <TabbedForm.Tab key={tab} label={`resources.${model.name}.tabs.${tab}`}>
            {tab === LOG_TAB ? <RecordHistory model={model} /> : (registeredPanel(panels, tab, model) ?? inputs(tab))}
          </TabbedForm.Tab>
        ))}
      {mode === 'edit' &&
        readableChildren.map((child) => (
          <TabbedForm.Tab key={child.tab} label={`resources.${model.name}.tabs.${child.tab}`}>
            <NestedRecords child={child} />
          </TabbedForm.Tab>
        ))}
    </TabbedForm>
  );
}
