import { isDateDmy, isTime } from './date-time.ts';
import { isEmail, isEmailList } from './email.ts';
import { validationMessages } from './messages.ts';
import type { FieldError } from './messages.ts';
import { isNumberWithZero, isNumeric, isPositiveInteger, isWithinOrderCap } from './numbers.ts';
import { isComplexPassword } from './password.ts';
import { isPlainPhone } from './phone-text.ts';
import { isScoutValue } from './scout.ts';
import {
  countNonSpace,
  hasNameCharacters,
  hasNoPeriodStart,
  hasNoSpecialCharacters,
  hasNoWhitespace,
  isAlphanumeric,
  isAlphanumericHyphen,
  isHttpsUrl,
  isOrganizationNumber,
} from './text.ts';

type SharedFormat =
  | { type: 'string'; validate: (text: string) => boolean; error: FieldError }
  | { type: 'number'; validate: (value: number) => boolean; error: FieldError };

const textFormat = (validate: (text: string) => boolean, error: FieldError): SharedFormat => ({
  type: 'string',
  validate,
  error,
});

const numberFormat = (validate: (value: number) => boolean, error: FieldError): SharedFormat => ({
  type: 'number',
  validate,
  error,
});

const minNonSpace = 3;

/** The shared field validators of spec 01 §5 that JSON Schema expresses as `format`. */
export const sharedFormats: Record<string, SharedFormat> = {
  phone: textFormat(isPlainPhone, { message: validationMessages.mobileFormat }),
  email: textFormat(isEmail, { message: validationMessages.email }),
  'email-list': textFormat(isEmailList, { message: validationMessages.email }),
  'complex-password': textFormat(isComplexPassword, { message: validationMessages.complexPassword }),
  'positive-integer': numberFormat(isPositiveInteger, { message: validationMessages.positiveInteger }),
  'number-with-zero': numberFormat(isNumberWithZero, { message: validationMessages.numberWithZero }),
  numeric: textFormat(isNumeric, { message: validationMessages.numeric }),
  time: textFormat(isTime, { message: validationMessages.time }),
  'date-dmy': textFormat(isDateDmy, { message: validationMessages.date }),
  'scout-value': textFormat(isScoutValue, { message: validationMessages.scoutFormat }),
  'no-period-start': textFormat(hasNoPeriodStart, { message: validationMessages.noPeriodStart }),
  'no-special-characters': textFormat(hasNoSpecialCharacters, { message: validationMessages.specialCharacters }),
  'organization-number': textFormat(isOrganizationNumber, { message: validationMessages.organizationNumber }),
  'alphanumeric-hyphen': textFormat(isAlphanumericHyphen, { message: validationMessages.alphanumericHyphen }),
  alphanumeric: textFormat(isAlphanumeric, { message: validationMessages.alphanumeric }),
  'order-quantity': numberFormat(isWithinOrderCap, { message: validationMessages.orderQuantity }),
  'name-3': textFormat((text) => countNonSpace(text) >= minNonSpace, {
    message: validationMessages.minNonSpace,
    args: { min: minNonSpace },
  }),
  'name-characters': textFormat(hasNameCharacters, { message: validationMessages.nameCharacters }),
  'no-whitespace': textFormat(hasNoWhitespace, { message: validationMessages.noWhitespace }),
  'https-url': textFormat(isHttpsUrl, { message: validationMessages.httpsUrl }),
};

/** The error of a failed `format`, whoever defined it. */
export function formatError(format: string): FieldError {
  if (Object.hasOwn(sharedFormats, format)) return sharedFormats[format].error;
  return { message: format === 'date' || format === 'date-time' ? validationMessages.date : validationMessages.format };
}
