import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  DeleteButton,
  SaveButton,
  SimpleForm,
  TabbedForm,
  TabbedFormTabs,
  Toolbar,
  useNotify,
  useRedirect,
  useResourceContext,
  useCanAccess,
  useCanAccessResources,
  useRecordContext,
  type FormTabProps,
  type RaRecord,
} from 'react-admin';
import { useProfile } from './profile.ts';
import { useWatch } from 'react-hook-form';
import type { ChildModel, FieldModel, ResourceModel } from '../resource-model.ts';
import { optionRequiredErrors, optionShowsField } from '../feature-options.ts';
import { accessLevel, type PermissionSet } from '../permissions.ts';
import { toFieldErrors, validateRecord } from '../validate.ts';
import { loadValidators, modelOf, schemaRegistry } from './registry.ts';
import { NestedRecords } from './nested-records.tsx';
import { SchemaInput } from './schema-inputs.tsx';
import { UnsavedChangesDialog } from './unsaved-changes-dialog.tsx';
import { RecordHistory } from './record-history.tsx';
import { DiscardOnReload } from './stale-record.tsx';
import { LiveEditNotice } from './live-updates.tsx';
import { registeredPanel, useReadableTabs, useTabPanels } from './tab-panels.tsx';

/** A tab named `log` shows the record's audit trail instead of inputs (e.g. the service point Log tab). */
const LOG_TAB = 'log';

export type FormMode = 'create' | 'edit';

/** The user's policies, as the authProvider resolved them at sign-in. */
function usePermissionSet(): PermissionSet | undefined {
  return useProfile()?.permissions;
}

/** Whether the user holds only the scout level of the resource's feature: their form has `scoutFields` only. */
export function useScoutForm(model: ResourceModel): boolean {
  const permissions = usePermissionSet();
  return Boolean(
    model.scoutFields.length &&
    permissions &&
    !permissions.superAdmin &&
    accessLevel(permissions, model.features) === 'scout',
  );
}

/**
 * The same ajv validator the gateway runs, with translated `validation.*` messages per field, plus the
 * fields the user's feature options make required (`x-input.requiredOption`), as the gateway adds them.
 */
export function useSchemaValidator(model: ResourceModel, mode: FormMode = 'create') {
  const permissions = usePermissionSet();
  const record = useRecordContext();
  const stored = mode === 'edit' ? record : undefined;
  useEffect(() => void loadValidators().catch(() => undefined), []);
  return useMemo(
    () => async (values: RaRecord | Record<string, unknown>) => {
      await loadValidators();
      const { errors } = validateRecord(schemaRegistry, model.schemaId, values);
      const required = permissions ? optionRequiredErrors(permissions, model, values, stored) : {};
      return toFieldErrors({ errors: { ...required, ...errors } });
    },
    [model, permissions, stored],
  );
}

/**
 * The inputs of a form, in the schema's property order, less those the user's feature options hide; a
 * new record has no read-only field, nor one that a record action sets (there is no record to act on).
 */
export function useFormFields(model: ResourceModel, mode: FormMode): FieldModel[] {
  const permissions = usePermissionSet();
  const partnerType = useProfile()?.partnerType;
  const scout = useScoutForm(model);
  return useMemo(
    () =>
      model.fields
        .filter((field) => !scout || model.scoutFields.includes(field.source))
        // `x-input.partnerTypes`: fields of some partner types only (a ticket's warranty, the operator company's).
        .filter(
          (field) =>
            !field.input.partnerTypes ||
            permissions?.superAdmin === true ||
            (partnerType !== undefined && field.input.partnerTypes.includes(partnerType)),
        )
        .filter((field) => !((field.readOnly || field.input.setBy) && mode === 'create'))
        .filter((field) => field.input.form !== false)
        .filter((field) => !field.input.option || (permissions && optionShowsField(permissions, model, field)))
        .sort((a, b) => (a.position ?? a.column.index) - (b.position ?? b.column.index)),
    [model, mode, permissions, partnerType, scout],
  );
}

/** Save and delete, plus the question asked before leaving unsaved work. */
function FormToolbar({ mode }: { mode: FormMode }) {
  const leaving = useRef(false);
  const notify = useNotify();
  const redirect = useRedirect();
  const resource = useResourceContext();
  // Who may edit may not always delete (a scout edits their proposals, never deletes them).
  const { canAccess: canDelete } = useCanAccess({ resource, action: 'delete' });
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
      {/* Beside Save: another user saved the record meanwhile (live updates). */}
      {mode === 'edit' && <LiveEditNotice />}
      <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
        <SaveButton />
        {mode === 'edit' && canDelete && <DeleteButton mutationMode="pessimistic" mutationOptions={deleteOptions} />}
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

/**
 * A tab whose every input has an `x-input.when`: it shows while the form's values show one of them. The
 * tabbed form hands each tab its header and content props; this one passes them on, hidden or not.
 */
function ConditionalTab({
  fields,
  ...props
}: { fields: FieldModel[]; label: string; children: ReactNode } & Record<string, unknown>) {
  const sources = [...new Set(fields.flatMap((field) => Object.keys(field.input.when ?? {})))];
  const watched = useWatch({ name: sources }) as unknown[];
  const shown = fields.some((field) =>
    Object.entries(field.input.when ?? {}).every(([source, values]) =>
      (values as unknown[]).includes(watched[sources.indexOf(source)]),
    ),
  );
  // Hidden rather than left out: the tabs keep their places, so that the selected one stays underlined.
  return <TabbedForm.Tab {...(props as FormTabProps)} sx={shown ? undefined : { display: 'none' }} />;
}

/** Create/edit form from the schema: inputs by type and hint, in tabs when the schema names them. */
export function SchemaForm({ model, mode, extras }: { model: ResourceModel; mode: FormMode; extras?: ReactNode }) {
  const validate = useSchemaValidator(model, mode);
  const readableChildren = useReadableChildren(model);
  const panels = useTabPanels();
  const tabs = useReadableTabs(model);
  const fields = useFormFields(model, mode);
  const scout = useScoutForm(model);
  const tabOf = (field: FieldModel) => field.input.tab ?? model.tabs[0];
  const inputs = (tab?: string) =>
    fields
      .filter((field) => !tab || tabOf(field) === tab)
      .map((field) => <SchemaInput key={field.source} field={field} mode={mode} />);

  if (!model.tabs.length) {
    return (
      <SimpleForm validate={validate} toolbar={<FormToolbar mode={mode} />} resetOptions={KEEP_TYPED}>
        {inputs()}
        {extras}
      </SimpleForm>
    );
  }
  return (
    <TabbedForm
      validate={validate}
      toolbar={<FormToolbar mode={mode} />}
      resetOptions={KEEP_TYPED}
      // At 390 px a form's tabs scroll rather than cut the last ones off.
      tabs={<TabbedFormTabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />}
    >
      {tabs
        // The log and a registered panel show a saved record: a new one has neither yet.
        .filter((tab) => mode === 'edit' || (tab !== LOG_TAB && !Object.hasOwn(panels, tab)))
        // A scout's form: the tabs of their fields and the log, none of the panels (hardware, carriers).
        .filter((tab) => !scout || tab === LOG_TAB || fields.some((field) => tabOf(field) === tab))
        // A tab of inputs shows while one of them can: none on create (a ticket's photos), none while their
        // `x-input.when` holds for none of them (a ticket's installation inputs, for an Install ticket only).
        .filter((tab) => tab === LOG_TAB || Object.hasOwn(panels, tab) || fields.some((field) => tabOf(field) === tab))
        .map((tab) => {
          const tabFields = fields.filter((field) => tabOf(field) === tab);
          const conditional =
            tab !== LOG_TAB &&
            !Object.hasOwn(panels, tab) &&
            tabFields.length > 0 &&
            tabFields.every((field) => field.input.when !== undefined);
          const label = `resources.${model.name}.tabs.${tab}`;
          const content =
            tab === LOG_TAB ? <RecordHistory model={model} /> : (registeredPanel(panels, tab, model) ?? inputs(tab));
          return conditional ? (
            <ConditionalTab key={tab} label={label} fields={tabFields}>
              {content}
            </ConditionalTab>
          ) : (
            <TabbedForm.Tab key={tab} label={label}>
              {content}
            </TabbedForm.Tab>
          );
        })}
      {mode === 'edit' &&
        !scout &&
        readableChildren.map((child) => (
          <TabbedForm.Tab key={child.tab} label={`resources.${model.name}.tabs.${child.tab}`}>
            <NestedRecords child={child} />
          </TabbedForm.Tab>
        ))}
    </TabbedForm>
  );
}
