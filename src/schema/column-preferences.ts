import type { FieldModel } from './resource-model.ts';

/** One stored column preference (spec 02 §2): k = the column index, h = hidden (1) or shown (0). */
export interface ColumnEntry {
  k: number;
  h: 0 | 1;
}

export const columnsStorageKey = (resource: string) => `wt.columns.${resource}`;

const defaultHidden = (fields: readonly FieldModel[]) =>
  new Set(fields.filter((f) => f.column.hide).map((f) => f.column.index));

/** Keeps at least one column shown: the first one when every column would be hidden. */
function withOneShown(fields: readonly FieldModel[], hidden: Set<number>): Set<number> {
  if (!fields.length || fields.some((f) => !hidden.has(f.column.index))) return hidden;
  const kept = new Set(hidden);
  kept.delete(fields[0].column.index);
  return kept;
}

function isEntry(value: unknown): value is ColumnEntry {
  const entry = value as ColumnEntry;
  return typeof entry === 'object' && entry !== null && Number.isInteger(entry.k) && (entry.h === 0 || entry.h === 1);
}

/**
 * The hidden column indexes: the schema's `hide` defaults overridden by the stored entries. A
 * stored preference that is unreadable or hides every column is ignored.
 */
export function hiddenColumns(fields: readonly FieldModel[], stored: string | null): Set<number> {
  const defaults = withOneShown(fields, defaultHidden(fields));
  if (!stored) return defaults;
  let entries: unknown;
  try {
    entries = JSON.parse(stored);
  } catch {
    return defaults;
  }
  if (!Array.isArray(entries)) return defaults;
  const hidden = defaultHidden(fields);
  const known = new Set(fields.map((f) => f.column.index));
  for (const entry of entries.filter(isEntry)) {
    if (!known.has(entry.k)) continue;
    if (entry.h) hidden.add(entry.k);
    else hidden.delete(entry.k);
  }
  return fields.some((f) => !hidden.has(f.column.index)) ? hidden : defaults;
}

export function columnEntries(fields: readonly FieldModel[], hidden: ReadonlySet<number>): ColumnEntry[] {
  return fields.map((f) => ({ k: f.column.index, h: hidden.has(f.column.index) ? 1 : 0 }));
}

/** Shows or hides one column; the last shown column cannot be hidden. */
export function toggleColumn(fields: readonly FieldModel[], hidden: ReadonlySet<number>, index: number): Set<number> {
  const next = new Set(hidden);
  if (next.has(index)) next.delete(index);
  else next.add(index);
  return fields.some((f) => !next.has(f.column.index)) ? next : new Set(hidden);
}
