import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Typography } from '@mui/material';
import { ArrayInput, SelectInput, SimpleFormIterator, TextInput, useRecordContext, useTranslate } from 'react-admin';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';
import { modelOf, schemaRegistry } from '../../schema/ui/registry.ts';
import {
  primaryLocaleOf,
  type CountryLanguages,
  type PrimaryLocale,
} from '../../schema/validators/default-description.ts';

type Schema = { properties?: Record<string, Record<string, unknown>> };

/** The translations' rule and choices, as the service point's schema says them. */
function descriptionsSchema() {
  const descriptions = (schemaRegistry.schema('service-point') as Schema).properties?.descriptions ?? {};
  const items = (descriptions.items ?? {}) as Schema;
  const languages = (items.properties?.language_code?.enum ?? []) as string[];
  const countries = modelOf('service-point').fields.find((candidate) => candidate.source === 'country')?.values ?? [];
  // Under `then`: an empty list (no public description at all) asks for none.
  const rule = (descriptions.then as Record<string, unknown> | undefined)?.['x-default-description'];
  return { rule: rule as PrimaryLocale | CountryLanguages, languages, countries };
}

/**
 * `x-input.kind: "description-translations"`: the public description in several languages (text, language
 * and country per line), one of them required in the language of the service point's country, which the
 * hint names; the schema's `x-default-description` refuses the list without it, in the form and the
 * gateway.
 */
export function DescriptionTranslationsInput({ field }: InputKindProps) {
  const translate = useTranslate();
  const country = useWatch({ name: 'country' }) as string | undefined;
  const { rule, languages, countries } = descriptionsSchema();
  const primary = primaryLocaleOf(rule, { country });

  // A service point described before the list existed starts with its description as the first line when
  // it is in the default language; one in another language is shown above the list, to translate, so that
  // opening the form does not make it invalid.
  const record = useRecordContext();
  const described = typeof record?.description === 'string' && record.description.trim() !== '';
  const language = (record?.description_language as string | undefined) ?? primary?.language;
  const inDefault = described && language !== undefined && language === primary?.language;
  const initial = inDefault ? [{ text: record!.description, language_code: language, country: record!.country }] : [];
  // Set as a value, not as react-admin's `defaultValue` (which ArrayInput otherwise takes as []): an array
  // input's default resets the whole form's dirty state when applied, and it is applied again whenever the
  // record reloads (a photo deleted or refused), so what the user had typed elsewhere would no longer count
  // as a change, and the reload would replace it.
  const { setValue } = useFormContext();
  const current = useWatch({ name: field.source }) as unknown;
  const missing = current === undefined || current === null;
  const initialKey = JSON.stringify(initial);
  useEffect(() => {
    if (missing) setValue(field.source, JSON.parse(initialKey), { shouldDirty: false, shouldValidate: false });
  }, [missing, initialKey, field.source, setValue]);
  const earlier =
    described && !inDefault && !(record?.descriptions as unknown[] | undefined)?.length ? (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {translate('service_points.descriptions.earlier', {
          language: language ? translate(`choices.language.${language}`) : '',
          text: String(record!.description),
        })}
      </Typography>
    ) : null;

  return (
    <>
      {earlier}
      <ArrayInput
        source={field.source}
        defaultValue={null}
        helperText={
          primary
            ? translate('service_points.descriptions.required_default', {
                language: translate(`choices.language.${primary.language}`),
                country: translate(`choices.country.${primary.country}`),
              })
            : false
        }
      >
        <SimpleFormIterator inline disableReordering>
          <TextInput source="text" label="service_points.descriptions.text" multiline sx={{ minWidth: 320 }} />
          <SelectInput
            source="language_code"
            label="service_points.descriptions.language_code"
            choices={languages.map((id) => ({ id, name: `choices.language.${id}` }))}
            defaultValue={primary?.language}
          />
          <SelectInput
            source="country"
            label="service_points.descriptions.country"
            choices={countries.map((id) => ({ id, name: `choices.country.${id}` }))}
            defaultValue={country}
          />
        </SimpleFormIterator>
      </ArrayInput>
    </>
  );
}

/** `x-input.kind: "public-description"`: edited as the default translation, in the list above. */
export function PublicDescriptionInput() {
  return null;
}
