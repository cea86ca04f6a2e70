import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, Stack, TextField, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { FieldTitle, InputHelperText, Labeled, useInput, useResourceContext, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { AddressSuggestion } from '../../../contract/addresses.ts';
import type { InputKindProps } from '../input-kinds.tsx';
import { TYPE_AHEAD_MS, useAddressSuggestions, useApplySuggestion, useServicePointOption } from './address-lookup.ts';

/** The text once the user has stopped typing for `delay` ms. */
export function useSettledText(text: string, delay: number) {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), delay);
    return () => clearTimeout(timer);
  }, [text, delay]);
  return settled;
}

/**
 * `x-input.kind: "address"` on a service point's address: a type-ahead of the address index within
 * the service point's country (300 ms after the last key, spec 01 §9). Picking a suggestion fills
 * the address, zip, city, municipality, region, coordinates and `address_id`; typing over it clears
 * `address_id`, and the field says the address is no longer validated. With the `address_autocomplete`
 * option off it is a plain text field: the address is validated by picking the place on the map.
 */
export function AddressInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const autocomplete = useServicePointOption('address_autocomplete');
  const { setValue } = useFormContext();
  const { field: input, fieldState, isRequired } = useInput({ source: field.source });
  const [country, addressId] = useWatch({ name: ['country', 'address_id'] }) as [unknown, unknown];
  const [typed, setTyped] = useState<string>();
  const [open, setOpen] = useState(false);
  const suggest = useAddressSuggestions();
  const applySuggestion = useApplySuggestion();
  const settled = useSettledText(typed ?? '', TYPE_AHEAD_MS);
  const boundary = typeof country === 'string' ? country : '';
  const lookup = useQuery({
    queryKey: ['service-point-address', settled, boundary],
    queryFn: () => suggest(settled, boundary),
    enabled: autocomplete && settled.trim() !== '' && boundary !== '',
    retry: false,
    staleTime: 60_000,
  });
  const options = lookup.data ?? [];

  const value = typeof input.value === 'string' ? input.value : '';
  const validated = addressId !== undefined && addressId !== null && addressId !== '';
  const error = fieldState.invalid ? fieldState.error?.message : undefined;
  const status = value ? (validated ? 'service_points.map.validated' : 'service_points.map.not_validated') : undefined;
  const helper = lookup.isError
    ? translate('service_points.map.lookup_failed')
    : status
      ? translate(status)
      : undefined;

  function typeOver(text: string) {
    setTyped(text);
    setOpen(true);
    input.onChange(text);
    // An edited address is not the one validated any more: the gateway would refuse it.
    if (validated) setValue('address_id', null, { shouldDirty: true });
  }

  const label = <FieldTitle source={field.source} resource={resource} isRequired={isRequired} />;
  const adornment =
    value &&
    (validated ? (
      <CheckCircleIcon color="success" fontSize="small" />
    ) : (
      <ErrorOutlineIcon color="warning" fontSize="small" />
    ));

  if (!autocomplete) {
    return (
      <TextField
        name={input.name}
        label={label}
        value={value}
        onChange={(event) => typeOver(event.target.value)}
        onBlur={input.onBlur}
        error={Boolean(error)}
        helperText={<InputHelperText error={error} helperText={helper} />}
        slotProps={{ input: { endAdornment: adornment } }}
        fullWidth
      />
    );
  }
  return (
    <Autocomplete<AddressSuggestion, false, false, true>
      freeSolo
      open={open && options.length > 0}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options}
      filterOptions={(all) => all}
      loading={lookup.isFetching}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.address)}
      renderOption={(props, option) => (
        <li {...props} key={option.address_id}>
          {option.label}
        </li>
      )}
      inputValue={value}
      value={null}
      onInputChange={(_, text, reason) => {
        if (reason === 'input') typeOver(text);
      }}
      onChange={(_, picked) => {
        if (picked && typeof picked !== 'string') {
          applySuggestion(picked);
          setOpen(false);
        }
      }}
      fullWidth
      renderInput={(params) => (
        <TextField
          {...params}
          name={input.name}
          label={label}
          onBlur={input.onBlur}
          error={Boolean(error)}
          helperText={<InputHelperText error={error} helperText={helper} />}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <Stack direction="row" sx={{ alignItems: 'center' }}>
                  {adornment}
                  {params.InputProps.endAdornment}
                </Stack>
              ),
            },
          }}
        />
      )}
    />
  );
}

/**
 * `x-input.kind: "address-id"`: the id of the validated address, read-only; only a pick in the address
 * type-ahead or on the map sets it. Read-only rather than disabled, so that the form still saves it.
 */
export function ValidatedAddressIdInput({ field }: InputKindProps) {
  const translate = useTranslate();
  // Registered, so that the form still saves the id; a person reads the address it stands for (issue 24).
  const { field: input } = useInput({ source: field.source });
  const [address, zip, city] = useWatch({ name: ['address', 'zip', 'city'] }) as unknown[];
  const validated = input.value !== undefined && input.value !== null && input.value !== '';
  const words = [address, [zip, city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return (
    <Labeled source={field.source} sx={{ mb: 2 }}>
      <Typography variant="body2" data-address-id={validated ? String(input.value) : undefined}>
        {validated && words ? words : translate('service_points.map.not_validated')}
      </Typography>
    </Labeled>
  );
}
