/**
 * The phone checks that need no numbering plan, apart from phone.ts so that what imports only them
 * (the `phone` format of every form and filter) does not load the phone number library.
 */

/** Plain phone: 7 to 15 digits, optionally after a +; only the + form may group digits with spaces. */
export function isPlainPhone(text: string): boolean {
  if (!/^[0-9]+$/.test(text) && !/^\+[0-9][0-9 ]*[0-9]$/.test(text)) return false;
  const digits = text.replace(/[^0-9]/g, '').length;
  return digits >= 7 && digits <= 15;
}
