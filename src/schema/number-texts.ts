const formats = new Map<string, Intl.NumberFormat>();

/** Decimals an input's `x-input.step` asks for: 0.01 -> 2 (a price), 1 or none -> as the value has. */
export function stepDecimals(step: number | undefined): number {
  if (!step || step >= 1) return 0;
  return String(step).split('.')[1]?.length ?? 0;
}

/**
 * A number as the user's language writes it (a French decimal comma), ids without thousands
 * separators; a field typed in steps of 0.01 (a price) always with its two decimals, 5.60 not 5.6.
 */
export function numberFormat(locale: string, step?: number): Intl.NumberFormat {
  const decimals = stepDecimals(step);
  const key = `${locale}|${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      decimals
        ? { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false }
        : { maximumFractionDigits: 6, useGrouping: false },
    );
    formats.set(key, format);
  }
  return format;
}
