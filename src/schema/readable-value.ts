/**
 * Any value of a record as a person reads it, where no display of its own is registered: a list of
 * names (`Monday, Tuesday`), an object as `label: value` pairs, Yes/No for booleans; never
 * `[object Object]`. Nested objects read the same way, each item of a list of objects on its own line.
 */
export interface ReadableWords {
  /** The name of a single value (a choice's label), the value itself by default. */
  name?: (value: string | number) => string;
  /** The label of an object's key. */
  key?: (key: string) => string;
  yes: string;
  no: string;
}

const blank = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readableValue(value: unknown, words: ReadableWords): string {
  if (blank(value)) return '';
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'string' || typeof value === 'number') return words.name ? words.name(value) : String(value);
  if (Array.isArray(value)) {
    const items = value.filter((item) => !blank(item));
    const separator = items.some((item) => typeof item === 'object') ? '\n' : ', ';
    return items.map((item) => readableValue(item, words)).join(separator);
  }
  if (isPlainObject(value)) {
    // A nested value is not a choice of the field: only the field's own values take its names.
    const inner = { ...words, name: undefined };
    return Object.entries(value)
      .filter(([, entry]) => !blank(entry))
      .map(([key, entry]) => {
        const text = readableValue(entry, inner);
        return `${words.key ? words.key(key) : key}: ${isPlainObject(entry) ? `(${text})` : text}`;
      })
      .join(', ');
  }
  return String(value);
}
