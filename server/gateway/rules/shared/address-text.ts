/** Letters that Unicode does not decompose into a base letter and an accent. */
const UNDECOMPOSED: Record<string, string> = { ø: 'o', æ: 'ae', ł: 'l', ß: 'ss', đ: 'd', œ: 'oe', ı: 'i' };

/**
 * Text as the address index compares it: lower case, accents dropped ('København' reads 'kobenhavn',
 * 'Gdańsk' 'gdansk'), every run of spaces and punctuation one space ('ul. Długa' reads 'ul dluga').
 */
export function foldedText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[øæłßđœı]/g, (letter) => UNDECOMPOSED[letter])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a text as the index stores and searches them. */
export const foldedWords = (text: string): string[] => foldedText(text).split(' ').filter(Boolean);

/**
 * A label as the index searches it: each folded word after a space, so that a word typed begins a word
 * of the label when ' ' + the word occurs in it.
 */
export const searchText = (label: string) => ` ${foldedText(label)}`;

/** A street address as people write it: the street, then the house number. */
export const streetLine = (street: string, houseNumber: string) => `${street} ${houseNumber}`;

/** 'Vestergade 12' -> street 'Vestergade', number '12'; undefined when the text ends with no number. */
export function splitStreetLine(address: string): { street: string; houseNumber: string } | undefined {
  const match = /^(.*\S)\s+(\d+[A-Za-z]?)$/.exec(address.trim());
  return match ? { street: match[1], houseNumber: match[2] } : undefined;
}
