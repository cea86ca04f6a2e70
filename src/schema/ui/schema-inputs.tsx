import { lazy, Suspense, useCallback } from 'react';
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
  type SelectInputProps,
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
import { searchPageSizeOf, searchSortOf } from './registry.ts';

const LONG_TEXT = 255;

const SchemaDateTimeInput = lazy(() =>
  import('./date-time-pickers.tsx').then((pickers) => ({ default: pickers.SchemaDateTimeInput })),
);
const DateFilterPicker = lazy(() =>
  import('./date-time-pickers.tsx').then((pickers) => ({ default: pickers.DateFilterPicker })),
);

/** A day filter on MUI's picker in the language's format (never the native date input). */
function DateFilterInput({ source }: { source: string; alwaysOn?: boolean }) {
  return (
    <Suspense fallback={<Skeleton variant="rounded" width={200} height={40} />}>
      <DateFilterPicker source={source} />
    </Suspense>
  );
}

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

/**
 * `source` is the field's own: react-admin's filter button and form read it from the element's props
 * (for the label and the key), and pass the filter form's props in, which go on to the select.
 */
function LookupInput({
  lookupSource,
  ...props
}: { lookupSource?: string; source: string } & Partial<SelectInputProps>) {
  const choices = useLookupChoices(lookupSource);
  return <SelectInput {...props} choices={choices} translateChoice={false} isLoading={!choices.length} />;
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

/** List filters: the free search plus every field with an `x-filter` hint. */
/**
 * `x-filter.prefix`: the field's first characters, sent as `<field>_prefix` (the gateway keeps the
 * rows that start with them, in any case). Shorter text says how many characters it needs and is not
 * sent: the list stays as it was instead of answering "No record found."
 */
function PrefixFilter({ source, min, alwaysOn }: { source: string; min: number; alwaysOn?: boolean }) {
  const validate = useCallback(
    (value: unknown) =>
      typeof value === 'string' && value.trim() !== '' && value.trim().length < min
        ? { message: 'validation.prefix_min', args: { min } }
        : undefined,
    [min],
  );
  // The filter bar hides helper texts (react-admin's FilterForm): this one's error shows, under the input.
  return (
    <TextInput
      source={`${source}_prefix`}
      validate={validate}
      alwaysOn={alwaysOn}
      resettable
      sx={{ '&& .MuiFormHelperText-root.Mui-error': { display: 'block' } }}
    />
  );
}

export function schemaFilters(fields: FieldModel[], searchLabel: string) {
  const filters = [<TextInput key="q" source="q" label={searchLabel} alwaysOn resettable />];
  for (const field of fields) {
    if (!field.filter) continue;
    const { alwaysOn } = field.filter;
    if (field.filter.kind === 'date-range') {
      // Whole days from and to (both included): the gateway reads them on this field (spec 02 §7 lists).
      filters.push(
        <DateFilterInput key="from_date" source="from_date" alwaysOn={alwaysOn} />,
        <DateFilterInput key="to_date" source="to_date" alwaysOn={alwaysOn} />,
      );
    } else if (field.filter.kind === 'reference' && field.lookup?.resource) {
      filters.push(
        <ReferenceInput
          key={field.source}
          source={field.source}
          reference={field.lookup.resource}
          alwaysOn={alwaysOn}
          perPage={searchPageSizeOf(field.lookup.resource)}
          sort={searchSortOf(field.lookup.resource)}
        >
          <AutocompleteInput optionText={field.lookup.label ?? 'name'} noOptionsText="form.record_not_found" />
        </ReferenceInput>,
      );
    } else if (field.lookup?.source) {
      filters.push(
        <LookupInput key={field.source} lookupSource={field.lookup.source} source={field.source} alwaysOn={alwaysOn} />,
      );
    } else if (field.type === 'boolean') {
      filters.push(
        <SelectInput
          key={field.source}
          source={field.source}
          alwaysOn={alwaysOn}
          choices={
            field.column.type === 'switch'
              ? [
                  { id: 'true', name: 'table.active' },
                  { id: 'false', name: 'table.deactive' },
                ]
              : [
                  { id: 'true', name: 'table.yes' },
                  { id: 'false', name: 'table.no' },
                ]
          }
        />,
      );
    } else if (field.values) {
      filters.push(
        <SelectInput key={field.source} source={field.source} alwaysOn={alwaysOn} choices={enumChoices(field)} />,
      );
    } else if (field.filter.kind === 'date') {
      filters.push(<DateFilterInput key={field.source} source={field.source} alwaysOn={alwaysOn} />);
    } else if (field.filter.prefix) {
      filters.push(
        <PrefixFilter key={field.source} source={field.source} min={field.filter.prefix} alwaysOn={alwaysOn} />,
      );
    } else {
      filters.push(<TextInput key={field.source} source={field.source} alwaysOn={alwaysOn} />);
    }
  }
  return filters;
}
