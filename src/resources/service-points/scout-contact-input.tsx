import { Autocomplete, TextField } from '@mui/material';
import { FieldTitle, InputHelperText, useInput, useResourceContext, useTranslate } from 'react-admin';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { useLookupChoices, type Choice } from '../../schema/ui/lookup-choices.ts';

/** Spec 02 §7: the scouts the user may name (their provider's, and super admins for a super admin). */
const SCOUTS = 'webtool/lists?type=scout';

/**
 * `x-input.kind: "scout-contact"` (the Scout contact dialog): the scouts of `webtool/lists?type=scout`
 * to pick by name or e-mail, which stores the scout's user_id, or an e-mail or user id typed in
 * (spec 01 §3, "Scout value: email or user_id"). The gateway refuses a value that names no such scout.
 */
export function ScoutContactInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const scouts = useLookupChoices(SCOUTS);
  const {
    field: input,
    fieldState: { error, invalid },
    isRequired,
  } = useInput({ source: field.source });
  const text = typeof input.value === 'string' || typeof input.value === 'number' ? String(input.value) : '';
  const picked = scouts.find((scout) => String(scout.id) === text);
  const label = (
    <FieldTitle label={`resources.${resource}.fields.${field.source}`} source={field.source} isRequired={isRequired} />
  );

  return (
    <Autocomplete<Choice, false, false, true>
      freeSolo
      options={scouts}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
      isOptionEqualToValue={(option, value) => typeof value !== 'string' && option.id === value.id}
      renderOption={(props, option) => (
        <li {...props} key={option.id}>
          {option.name}
        </li>
      )}
      value={picked ?? (text || null)}
      inputValue={picked ? picked.name : text}
      onInputChange={(_, typed, reason) => {
        if (reason === 'input' || reason === 'clear') input.onChange(typed);
      }}
      onChange={(_, chosen) => {
        if (chosen && typeof chosen !== 'string') input.onChange(String(chosen.id));
      }}
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          name={input.name}
          label={label}
          onBlur={input.onBlur}
          error={invalid}
          helperText={
            <InputHelperText error={error?.message} helperText={translate('service_points.scout_contact.help')} />
          }
        />
      )}
    />
  );
}
