/** Counts and quantities (schema type integer). */
export function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

/** A hardware order's quantity cap (spec 02 §9): a whole number of at most 5000 units. */
export const ORDER_QUANTITY_CAP = 5000;

export function isWithinOrderCap(value: number): boolean {
  return Number.isInteger(value) && value <= ORDER_QUANTITY_CAP;
}

export function isNumberWithZero(value: number): boolean {
  return Number.isInteger(value) && value >= 0;
}

/** Digit strings whose leading zeros matter (operator ids, codes): digits only, so no sign. */
export function isNumeric(text: string): boolean {
  return /^[0-9]+$/.test(text);
}
