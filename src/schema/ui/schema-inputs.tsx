import { lazy, Suspense } from 'react';
import { useWatch } from 'react-hook-form';
import { Skeleton } from '@mui/material';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectInput,
  TextArrayInput,
  TextInput,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { useProfile } from './profile.ts';
import type { FieldModel } from '../resource-model.ts';
import type { DateTimeFormat } from './date-time-pickers.tsx';
import { optionEnabled } from '../permissions.ts';
import { enumChoices } from './choices.ts';
import { CallerPartnerInput } from './caller-partner-input.tsx';
import { useRegisteredInput } from './input-kinds.tsx';
import { ReadOnlyValue } from './record-view.tsx';
import { useLookupChoices } from './lookup-choices.ts';
import { LookupInput } from './schema-filters.tsx';
import { searchPageSizeOf, searchSortOf } from './registry.ts';

const LONG_TEXT = 255;

const SchemaDateTimeInput = lazy(() =>
  import('./date-time-pickers.tsx').then((pickers) => ({ default: pickers.SchemaDateTimeInput })),
);
const DATE_TIME_FORMATS: readonly string[] = ['time', 'date-dmy', 'date', 'date-time'] satisfies DateTimeFormat[];

/** A string field picked on a calendar or clock: by its format, or by `x-input.kind` of the same name. */
function dateTimeFormatOf(field: FieldModel): DateTimeFormat | undefined {
  const kind = [field.input.kind, field.format].find((name) => name && DATE_TIME_FORMATS.includes(name));
  return field.type === 'string' ? (kind as DateTimeFormat | undefined) : undefined;
}

/** `x-input.uppercaseOption`: upper-case the value when a policy configuration says so. */
function useUppercase(field: FieldModel): boolean {
  const permissions = useProfile();
  const option = field.input.uppercaseOption as { feature: number; option: string } | undefined;
  return Boolean(
    option && permissions?.permissions && optionEnabled(permissions.permissions, option.feature, option.option),
  );
}

function SchemaTextInput({ field, disabled, required }: { field: FieldModel; disabled: boolean; required: boolean }) {
  const uppercase = useUppercase(field);
  const multiline = field.input.multiline === true || (field.maxLength ?? 0) > LONG_TEXT;
  return (
    <TextInput
      source={field.source}
      disabled={disabled}
      isRequired={required}
      multiline={multiline}
      type={field.format === 'email' ? 'email' : 'text'}
      parse={uppercase ? (value: string) => value?.toUpperCase() : undefined}
    />
  );
}

/** Several values of one lookup list (a service point's carriers), picked by name. */
function LookupArrayInput({
  field,
  disabled,
  defaultValue,
  required,
}: {
  field: FieldModel;
  disabled?: boolean;
  defaultValue?: unknown[];
  required: boolean;
}) {
  const choices = useLookupChoices(field.lookup?.source);
  return (
    <AutocompleteArrayInput
      source={field.source}
      defaultValue={defaultValue}
      choices={choices}
      translateChoice={false}
      disabled={disabled}
      isRequired={required}
      isLoading={!choices.length}
    />
  );
}

/** `x-input.kind: "per-language"`: one text input per language the object takes (`propertyNames.enum`). */
function PerLanguageInput({ field, disabled }: { field: FieldModel; disabled: boolean }) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const label = translate(`resources.${resource}.fields.${field.source}`);
  return (
    <>
      {(field.languages ?? []).map((language) => (
        <TextInput
          key={language}
          source={`${field.source}.${language}`}
          label={translate('form.text_in_language', { field: label, language: translate(`app.languages.${language}`) })}
          disabled={disabled}
          multiline={field.input.multiline === true}
          fullWidth
        />
      ))}
    </>
  );
}

/**
 * One form input for a schema field: the widget its resource registered for its `x-input.kind`, else
 * one by its type and `x-input` / `x-lookup` hints.
 */
export function SchemaInput({ field, mode }: { field: FieldModel; mode: 'create' | 'edit' }) {
  if (field.input.when || field.input.enabledBy) return <ConditionalInput field={field} mode={mode} />;
  return <UnconditionalInput field={field} mode={mode} />;
}

const hasValue = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && !value.length);

/**
 * `x-input.when`: the input shows only while the form's named fields hold one of the listed values (a
 * ticket's installation inputs for an Install ticket); `x-input.enabledBy`: it is disabled until the
 * named field has a value (a deadline's time after its date).
 */
function ConditionalInput({ field, mode }: { field: FieldModel; mode: 'create' | 'edit' }) {
  const when = Object.entries(field.input.when ?? {});
  const watched = useWatch({ name: [...when.map(([source]) => source), field.input.enabledBy ?? field.source] });
  const shown = when.every(([, values], index) => values.includes(watched[index]));
  if (!shown) return null;
  const enabled = !field.input.enabledBy || hasValue(watched[when.length]);
  return <UnconditionalInput field={field} mode={mode} disabled={!enabled} />;
}

function UnconditionalInput({
  field,
  mode,
  disabled,
}: {
  field: FieldModel;
  mode: 'create' | 'edit';
  disabled?: boolean;
}) {
  const registered = useRegisteredInput({ field, mode });
  if (registered) return registered;
  if (field.input.callerPartner) {
    return (
      <CallerPartnerInput
        field={field}
        otherwise={<SchemaFieldInput field={field} mode={mode} disabled={disabled} />}
      />
    );
  }
  return <SchemaFieldInput field={field} mode={mode} disabled={disabled} />;
}

function SchemaFieldInput({
  field,
  mode,
  disabled: disabledByForm = false,
}: {
  field: FieldModel;
  mode: 'create' | 'edit';
  disabled?: boolean;
}) {
  // What the gateway derives or keeps reads as a value, not as an input no one can use.
  if (field.readOnly && mode === 'edit' && field.input.setBy === undefined && !disabledByForm) {
    return <ReadOnlyValue field={field} />;
  }
  // A field that a record action sets (a termination) shows its value; the action's dialog changes it.
  const disabled = disabledByForm || field.readOnly || field.input.setBy !== undefined;
  // The schema's `required`: the label is marked, and a required select offers no empty choice.
  const required = field.required && !disabled;
  const defaultValue = mode === 'create' ? field.defaultValue : undefined;
  if (field.lookup?.resource) {
    return field.type === 'array' ? (
      <ReferenceArrayInput
        source={field.source}
        reference={field.lookup.resource}
        perPage={searchPageSizeOf(field.lookup.resource)}
        sort={searchSortOf(field.lookup.resource)}
      >
        <AutocompleteArrayInput optionText={field.lookup.label ?? 'name'} disabled={disabled} isRequired={required} />
      </ReferenceArrayInput>
    ) : (
      <ReferenceInput
        source={field.source}
        reference={field.lookup.resource}
        perPage={searchPageSizeOf(field.lookup.resource)}
        sort={searchSortOf(field.lookup.resource)}
      >
        <AutocompleteInput
          optionText={field.lookup.label ?? 'name'}
          disabled={disabled}
          isRequired={required}
          noOptionsText="form.record_not_found"
        />
      </ReferenceInput>
    );
  }
  if (field.input.kind === 'per-language') return <PerLanguageInput field={field} disabled={disabled} />;
  if (field.lookup?.source) {
    return field.type === 'array' ? (
      <LookupArrayInput
        field={field}
        disabled={disabled}
        required={required}
        defaultValue={defaultValue as unknown[] | undefined}
      />
    ) : (
      <LookupInput
        lookupSource={field.lookup?.source}
        source={field.source}
        disabled={disabled}
        isRequired={required}
      />
    );
  }
  if (field.type === 'array' && field.values) {
    return (
      <CheckboxGroupInput
        source={field.source}
        choices={enumChoices(field)}
        disabled={disabled}
        isRequired={required}
      />
    );
  }
  if (field.type === 'array') {
    return <TextArrayInput source={field.source} disabled={disabled} isRequired={required} />;
  }
  if (field.values) {
    return (
      <SelectInput
        source={field.source}
        choices={enumChoices(field)}
        disabled={disabled}
        isRequired={required}
        defaultValue={defaultValue}
      />
    );
  }
  const dateTimeFormat = dateTimeFormatOf(field);
  if (dateTimeFormat) {
    return (
      <Suspense fallback={<Skeleton variant="rounded" width={256} height={56} />}>
        <SchemaDateTimeInput field={field} kind={dateTimeFormat} disabled={disabled} defaultValue={defaultValue} />
      </Suspense>
    );
  }
  switch (field.type) {
    case 'boolean':
      return <BooleanInput source={field.source} disabled={disabled} defaultValue={defaultValue ?? false} />;
    case 'integer':
    case 'number':
      return (
        <NumberInput
          source={field.source}
          disabled={disabled}
          isRequired={required}
          defaultValue={defaultValue}
          step={field.input.step ?? (field.type === 'integer' ? 1 : 'any')}
        />
      );
    default:
      return <SchemaTextInput field={field} disabled={disabled} required={required} />;
  }
}
