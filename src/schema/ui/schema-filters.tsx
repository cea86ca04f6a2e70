import { lazy, Suspense, useCallback } from 'react';
import { Skeleton } from '@mui/material';
import { AutocompleteInput, ReferenceInput, SelectInput, TextInput, type SelectInputProps } from 'react-admin';
import type { FieldModel } from '../resource-model.ts';
import { enumChoices } from './choices.ts';
import { useLookupChoices } from './lookup-choices.ts';
import { searchPageSizeOf, searchSortOf } from './registry.ts';

/*
 * The list's filters. Apart from the form inputs (schema-inputs.tsx), so that a list does not load
 * the forms' inputs and the record view they show read-only fields with.
 */

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

/**
 * `source` is the field's own: react-admin's filter button and form read it from the element's props
 * (for the label and the key), and pass the filter form's props in, which go on to the select.
 */
export function LookupInput({
  lookupSource,
  ...props
}: { lookupSource?: string; source: string } & Partial<SelectInputProps>) {
  const choices = useLookupChoices(lookupSource);
  return <SelectInput {...props} choices={choices} translateChoice={false} isLoading={!choices.length} />;
}

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

/** List filters: the free search plus every field with an `x-filter` hint. */
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
