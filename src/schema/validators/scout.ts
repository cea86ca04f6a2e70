import { isEmail } from './email.ts';

/** A scout is named by an email address or by a numeric user_id. */
export function isScoutValue(text: string): boolean {
  return isEmail(text) || /^[1-9][0-9]*$/.test(text);
}
