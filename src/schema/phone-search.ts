import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { normalisePhone } from './validators/phone.ts';

/**
 * A phone number typed into a search (an end user's), in the E.164 form stored numbers are compared
 * in, or undefined when it is malformed: other characters than digits, spaces, `+`, `-`, `(`, `)`, or
 * no possible number of the country. A number without a country prefix is read as one of `country`,
 * the tool's configured country (spec 01 §9).
 */
export function searchablePhone(typed: string, country: string): string | undefined {
  const text = normalisePhone(typed.trim());
  if (!/^\+?[0-9 ()-]+$/.test(text) || text.replace(/[^0-9]/g, '').length < 6) return undefined;
  const parsed = parsePhoneNumberFromString(text, country.toUpperCase() as CountryCode);
  return parsed?.isPossible() ? parsed.number : undefined;
}

/** A stored phone as it is compared: `+` and digits only. */
export const comparablePhone = (stored: string) => stored.replace(/[^0-9+]/g, '');

/**
 * A phone number as an end user's record keeps it: international, with its country prefix
 * (`+48 512 345 678`), so that a search in E.164 finds it whatever the country it was typed in;
 * as typed when it is not a possible number of `country`.
 */
export function internationalPhone(typed: string, country: string): string {
  const e164 = searchablePhone(typed, country);
  return e164 ? (parsePhoneNumberFromString(e164)?.formatInternational() ?? e164) : typed;
}
