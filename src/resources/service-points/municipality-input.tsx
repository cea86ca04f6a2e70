import { Autocomplete, TextField } from '@mui/material';
import { useWatch } from 'react-hook-form';
import { FieldTitle, InputHelperText, useInput, useRecordContext, useResourceContext, useTranslate } from 'react-admin';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { useLookupChoices } from '../../schema/ui/lookup-choices.ts';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * `x-input.kind: "municipality"` (issue 29): the service point's municipality chosen from
 * `webtool/lists?type=municipality&country_iso=<the form's country>` (the address index's municipalities of
 * that country), stored by name as the gateway expects. Typing filters the list; a name typed out in full
 * is the list's name; any other name is refused in the form with the gateway's message
 * ('validation.unknown_municipality'). A name stored before that the list does not hold (an older record,
 * or a country changed since) stays shown as is, with a hint, rather than blanked: the gateway keeps it
 * while it is not changed.
 */
export function MunicipalityInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const record = useRecordContext();
  const country = useWatch({ name: 'country' }) as unknown;
  const source =
    typeof country === 'string' && /^[A-Z]{2}$/.test(country)
      ? `webtool/lists?type=municipality&country_iso=${country}`
      : undefined;
  const choices = useLookupChoices(source);
  const names = choices.map((choice) => choice.name);
  const stored = typeof record?.[field.source] === 'string' ? (record[field.source] as string) : '';
  const storedCountry = record?.country as unknown;
  const {
    field: input,
    fieldState: { error, invalid },
    isRequired,
  } = useInput({
    source: field.source,
    validate: (value: unknown) => {
      if (typeof value !== 'string' || !value.trim() || names.length === 0) return undefined;
      if (names.some((name) => same(name, value))) return undefined;
      // The stored name of an older record stays valid while neither it nor the country changes (as in the gateway).
      if (stored && same(stored, value) && storedCountry === country) return undefined;
      return 'validation.unknown_municipality';
    },
  });
  const text = typeof input.value === 'string' ? input.value : '';
  const known = !text.trim() || names.some((name) => same(name, text));
  const label = (
    <FieldTitle label={`resources.${resource}.fields.${field.source}`} source={field.source} isRequired={isRequired} />
  );
  const hint = !source
    ? translate('service_points.municipality.choose_country')
    : !known && names.length > 0 && stored && same(stored, text)
      ? translate('service_points.municipality.not_in_list', { name: text })
      : undefined;

  return (
    <Autocomplete<string, false, false, true>
      freeSolo
      options={names}
      value={text || null}
      inputValue={text}
      onInputChange={(_, typed, reason) => {
        if (reason === 'input' || reason === 'clear') input.onChange(typed);
      }}
      onChange={(_, chosen) => input.onChange(chosen ?? '')}
      fullWidth
      autoHighlight
      renderInput={(params) => (
        <TextField
          {...params}
          name={input.name}
          label={label}
          onBlur={() => {
            // A name typed out in full (in any case) becomes the list's name, as if picked.
            const match = names.find((name) => same(name, text));
            if (match && match !== text) input.onChange(match);
            input.onBlur();
          }}
          error={invalid}
          helperText={(error?.message || hint) && <InputHelperText error={error?.message} helperText={hint} />}
        />
      )}
    />
  );
}
