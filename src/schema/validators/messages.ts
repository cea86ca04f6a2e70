import type { FieldError as ContractFieldError } from '../../contract/errors.ts';

/**
 * Every translation key the schema validators can produce. Messages live under the top-level
 * `validation` section of locales/*.json; keys with arguments interpolate them with polyglot's
 * `%{name}` syntax.
 */
export const validationMessages = {
  required: 'validation.required',
  type: 'validation.type',
  format: 'validation.format',
  choice: 'validation.choice',
  invalid: 'validation.invalid',
  min: 'validation.min',
  max: 'validation.max',
  greaterThan: 'validation.greater_than',
  lessThan: 'validation.less_than',
  minLength: 'validation.min_length',
  maxLength: 'validation.max_length',
  minItems: 'validation.min_items',
  maxItems: 'validation.max_items',
  uniqueItems: 'validation.unique_items',
  countMismatch: 'validation.count_mismatch',
  timeAfter: 'validation.time_after',
  notBefore: 'validation.not_before',
  mobileFormat: 'validation.mobile_format',
  invalidPhone: 'validation.invalid_phone',
  countryCodeRequired: 'validation.country_code_required',
  email: 'validation.email',
  complexPassword: 'validation.complex_password',
  matched: 'validation.matched',
  positiveInteger: 'validation.positive_integer',
  numberWithZero: 'validation.number_with_zero',
  numeric: 'validation.numeric',
  time: 'validation.time',
  date: 'validation.date',
  termsAccepted: 'validation.terms_accepted',
  scoutFormat: 'validation.scout_format',
  invalidAddress: 'validation.invalid_address',
  defaultDescription: 'validation.default_description',
  noPeriodStart: 'validation.no_period_start',
  specialCharacters: 'validation.special_characters',
  organizationNumber: 'validation.organization_number',
  alphanumericHyphen: 'validation.alphanumeric_hyphen',
  alphanumeric: 'validation.alphanumeric',
  orderQuantity: 'validation.order_quantity',
  minNonSpace: 'validation.min_non_space',
  nameCharacters: 'validation.name_characters',
  noWhitespace: 'validation.no_whitespace',
  httpsUrl: 'validation.https_url',
} as const;

export type ValidationMessage = (typeof validationMessages)[keyof typeof validationMessages];

/** A field's error the engine's own checks give: one of the validation messages above. */
export type FieldError = ContractFieldError<ValidationMessage>;
