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
 * The rule of `"x-default-description": { "language": "da", "country": "DK" }` on an array of
 * translations: the message key of its error, or undefined when the primary description is there.
 * The keyword (src/schema/ajv.ts) calls it by name, so that standalone validators can import it.
 */
export function defaultDescriptionMessage(
  translations: readonly unknown[],
  primary: PrimaryLocale,
): ValidationMessage | undefined {
  return hasDefaultDescription(translations.filter(isTranslation), primary)
    ? undefined
    : validationMessages.defaultDescription;
}

function isTranslation(item: unknown): item is DescriptionTranslation {
  return typeof item === 'object' && item !== null;
}
