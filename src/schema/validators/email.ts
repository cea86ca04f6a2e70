/**
 * A pragmatic address pattern: a dot-separated local part, a domain of dot-separated labels that
 * neither start nor end with a hyphen, and a top-level domain of at least two letters.
 */
const localPart = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
const domainLabel = '[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?';
const emailPattern = new RegExp(`^${localPart}@(${domainLabel}\\.)+[A-Za-z]{2,}$`);

export function isEmail(text: string): boolean {
  return text.length <= 254 && emailPattern.test(text);
}

/** Several recipients may share one field: "a@x.dk, b@y.se". Blanks around commas are fine. */
export function isEmailList(text: string): boolean {
  return text.split(',').every((address) => isEmail(address.trim()));
}
