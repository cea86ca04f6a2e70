/** Counts and quantities (schema type integer). */
export function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

export function isNumberWithZero(value: number): boolean {
  return Number.isInteger(value) && value >= 0;
}

/** Digit strings whose leading zeros matter (operator ids, codes): digits only, so no sign. */
export function isNumeric(text: string): boolean {
  return /^[0-9]+$/.test(text);
}
