import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';
import { validationMessages } from './messages.ts';

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

const validateDefaultDescription: SchemaValidateFunction = (primary: PrimaryLocale, translations: unknown[]) => {
  const valid = hasDefaultDescription(translations.filter(isTranslation), primary);
  validateDefaultDescription.errors = valid
    ? []
    : [{ keyword: 'x-default-description', params: { message: validationMessages.defaultDescription } }];
  return valid;
};

function isTranslation(item: unknown): item is DescriptionTranslation {
  return typeof item === 'object' && item !== null;
}

/** `"x-default-description": { "language": "da", "country": "DK" }` on an array of translations. */
export const defaultDescriptionKeyword: FuncKeywordDefinition = {
  keyword: 'x-default-description',
  type: 'array',
  schemaType: 'object',
  metaSchema: {
    type: 'object',
    properties: { language: { type: 'string' }, country: { type: 'string' } },
    required: ['language', 'country'],
    additionalProperties: false,
  },
  errors: true,
  validate: validateDefaultDescription,
};
