/** Text rules of spec 01 §5. Each takes the raw input; emptiness is the `required` rule's business. */

export function hasNoPeriodStart(text: string): boolean {
  return !text.startsWith('.');
}

export const forbiddenSpecialCharacters = '#£%&{}<>*?/$!\'":@+[]=`|';

export function hasNoSpecialCharacters(text: string): boolean {
  return ![...text].some((character) => forbiddenSpecialCharacters.includes(character));
}

export function isOrganizationNumber(text: string): boolean {
  return /^[\p{L}0-9 \-@_.,+]+$/u.test(text);
}

/** Identifiers such as hardware ids: ASCII letters and digits, one inner hyphen at most. */
export function isAlphanumericHyphen(text: string): boolean {
  return /^[A-Za-z0-9]+(-[A-Za-z0-9]+)?$/.test(text);
}

/** ASCII letters and digits only (a hardware order id, spec 02 §8 'Only alphanumeric characters are allowed'). */
export function isAlphanumeric(text: string): boolean {
  return /^[A-Za-z0-9]+$/.test(text);
}

export function countNonSpace(text: string): number {
  return text.replace(/\s/g, '').length;
}

/** Combining marks are allowed so that decomposed accents (e + ◌́) count as letters too. */
export function hasNameCharacters(text: string): boolean {
  return /^(?! )[\p{L}\p{M}\p{Nd}_\- ]*$/u.test(text);
}

export function hasNoWhitespace(text: string): boolean {
  return !/\s/.test(text);
}

export function isHttpsUrl(text: string): boolean {
  if (!/^https:\/\/\S+$/i.test(text) || !URL.canParse(text)) return false;
  return new URL(text).hostname !== '';
}
