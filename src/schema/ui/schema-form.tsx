import { useMemo } from 'react';
import { SimpleForm, TabbedForm, type RaRecord } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';
import { toFieldErrors, validateRecord } from '../validate.ts';
import { schemaRegistry } from './registry.ts';
import { SchemaInput } from './schema-inputs.tsx';

export type FormMode = 'create' | 'edit';

/** The same ajv validator the gateway runs, with translated `validation.*` messages per field. */
export function useSchemaValidator(model: ResourceModel) {
  return useMemo(
    () => (values: RaRecord | Record<string, unknown>) =>
      toFieldErrors(validateRecord(schemaRegistry, model.schemaId, values)),
    [model.schemaId],
  );
}

/** Create/edit form from the schema: inputs by type and hint, in tabs when the schema names them. */
export function SchemaForm({ model, mode }: { model: ResourceModel; mode: FormMode }) {
  const validate = useSchemaValidator(model);
  const fields = model.fields.filter((field) => !(field.readOnly && mode === 'create'));
  const inputs = (tab?: string) =>
    fields
      .filter((field) => !tab || (field.input.tab ?? model.tabs[0]) === tab)
      .map((field) => <SchemaInput key={field.source} field={field} mode={mode} />);

  if (!model.tabs.length) {
    return (
      <SimpleForm validate={validate} warnWhenUnsavedChanges>
        {inputs()}
      </SimpleForm>
    );
  }
  return (
    <TabbedForm validate={validate} warnWhenUnsavedChanges>
      {model.tabs.map((tab) => (
        <TabbedForm.Tab key={tab} label={`resources.${model.name}.tabs.${tab}`}>
          {inputs(tab)}
        </TabbedForm.Tab>
      ))}
    </TabbedForm>
  );
}
