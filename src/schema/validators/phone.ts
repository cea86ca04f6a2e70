import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { CountryCode } from 'libphonenumber-js/min';
import { validationMessages } from './messages.ts';
import type { ValidationMessage } from './messages.ts';

/**
 * The `min` metadata (about 80 KB instead of 145 KB for `max`) knows every country's number
 * lengths and leading digits, which is what "valid for the chosen country" asks; `max` would only
 * add per-type digit patterns (mobile versus fixed line) that no rule of the spec needs and that
 * go stale whenever a country opens a new number range.
 */

export { isPlainPhone } from './phone-text.ts';

/** The international call prefix 00 is the same as +. */
export function normalisePhone(phone: string): string {
  return phone.startsWith('00') ? `+${phone.slice(2)}` : phone;
}

export type PhoneProblem = 'country_code_required' | 'invalid_phone';

/**
 * International phone checked against the country chosen in a sibling field. `country` is either
 * an ISO code ("DK") or a dial code ("+45", "0045", "45"); the phone may be national ("20123456")
 * or international ("+45 20123456", "0045 20123456").
 */
export function checkInternationalPhone(phone: string, country: string | undefined): PhoneProblem | undefined {
  const chosen = country === undefined ? undefined : parseCountry(country);
  if (!chosen) return 'country_code_required';
  const entered = normalisePhone(phone);
  if (!/^\+?[0-9 ]+$/.test(entered) || entered.replace(/ /g, '').length < 8) return 'invalid_phone';
  const parsed = parseIn(entered, chosen);
  // A dial code no country has ("1234"): the library refuses it outright; no country was chosen.
  if (parsed === null) return 'country_code_required';
  // parsed.number is the full international form, so this asks for at least 8 national digits.
  const longEnough = parsed !== undefined && parsed.number.length >= chosen.dialCode.length + 9;
  const inChosenCountry =
    parsed?.countryCallingCode === chosen.dialCode && (!chosen.iso || parsed.country === chosen.iso);
  return longEnough && inChosenCountry && parsed.isValid() ? undefined : 'invalid_phone';
}

/** The phone read in the chosen country; null when the library knows no country with that dial code. */
function parseIn(entered: string, chosen: ChosenCountry) {
  try {
    return parsePhoneNumberFromString(
      entered,
      chosen.iso ? { defaultCountry: chosen.iso } : { defaultCallingCode: chosen.dialCode },
    );
  } catch {
    return null;
  }
}

interface ChosenCountry {
  dialCode: string;
  iso?: CountryCode;
}

function parseCountry(country: string): ChosenCountry | undefined {
  const iso = country.trim().toUpperCase();
  if (isSupportedCountry(iso)) return { iso, dialCode: getCountryCallingCode(iso) };
  const dial = /^(?:\+|00)?([1-9][0-9]{0,3})$/.exec(country.trim());
  return dial ? { dialCode: dial[1] } : undefined;
}

/**
 * The rule of `"x-phone-country": "<sibling field>"` on a string property: the message key of its
 * error, or undefined when the phone is valid for the country in `record[countryField]`. The
 * keyword (src/schema/ajv.ts) calls it by name, so that standalone validators can import it.
 */
export function phoneCountryMessage(
  phone: string,
  countryField: string,
  record: unknown,
): ValidationMessage | undefined {
  const sibling = isRecord(record) ? record[countryField] : undefined;
  const country = typeof sibling === 'string' || typeof sibling === 'number' ? String(sibling) : undefined;
  const problem = checkInternationalPhone(phone, country);
  if (!problem) return undefined;
  return problem === 'country_code_required' ? validationMessages.countryCodeRequired : validationMessages.invalidPhone;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * A phone in international form ("+48 512 345 678") for a person to read or dial from abroad: a
 * national number is read in `country` (ISO code or dial code). A number the library cannot read
 * is answered as entered, so nothing a person typed is lost.
 */
export function internationalPhone(phone: string, country?: string): string {
  const entered = normalisePhone(phone.trim());
  const chosen = country ? parseCountry(country) : undefined;
  const parsed = chosen ? parseIn(entered, chosen) : parseInternational(entered);
  return parsed?.isPossible() ? parsed.formatInternational() : entered;
}

function parseInternational(entered: string) {
  try {
    return parsePhoneNumberFromString(entered);
  } catch {
    return undefined;
  }
}
