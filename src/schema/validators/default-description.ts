import { validationMessages } from './messages.ts';
import type { ValidationMessage } from './messages.ts';

export interface DescriptionTranslation {
  text?: string;
  language_code?: string;
  country?: string;
}

export interface PrimaryLocale {
  language: string;
  country: string;
}

/** Translations are optional except the one in the primary language and country, which needs text. */
export function hasDefaultDescription(
  translations: readonly DescriptionTranslation[],
  primary: PrimaryLocale,
): boolean {
  return translations.some(
    (translation) =>
      translation.language_code === primary.language &&
      translation.country === primary.country &&
      (translation.text ?? '').trim() !== '',
  );
}

/**
 * The primary language of the record's country (a service point's description in the language of the
 * country it stands in): `countryField` names the record's field holding the ISO country code.
 */
export interface CountryLanguages {
  countryField: string;
  languages: Record<string, string>;
}

/** The primary locale a rule names: fixed, or the language of the record's country (none for another country). */
export function primaryLocaleOf(rule: PrimaryLocale | CountryLanguages, record: unknown): PrimaryLocale | undefined {
  if ('language' in rule) return rule;
  const country =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[rule.countryField] : undefined;
  if (typeof country !== 'string') return undefined;
  const language = rule.languages[country.toUpperCase()];
  return language ? { language, country: country.toUpperCase() } : undefined;
}

/**
 * The rule of `"x-default-description": { "language": "da", "country": "DK" }` (or `{ "countryField":
 * "country", "languages": { "DK": "da", ... } }`) on an array of translations: the message key of its
 * error, or undefined when the primary description is there. The keyword (src/schema/ajv.ts) calls it
 * by name with the record holding the array, so that standalone validators can import it.
 */
export function defaultDescriptionMessage(
  translations: readonly unknown[],
  rule: PrimaryLocale | CountryLanguages,
  record?: unknown,
): ValidationMessage | undefined {
  const primary = primaryLocaleOf(rule, record);
  if (!primary) return undefined;
  return hasDefaultDescription(translations.filter(isTranslation), primary)
    ? undefined
    : validationMessages.defaultDescription;
}

function isTranslation(item: unknown): item is DescriptionTranslation {
  return typeof item === 'object' && item !== null;
}
