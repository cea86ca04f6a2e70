import type { FeatureIds } from './features.ts';
import { optionEnabled, type PermissionSet } from './permissions.ts';

/** The session key 'filters' (spec 01 §3); src/schema may not import the authProvider's list of keys. */
export const FILTERS_STORAGE_KEY = 'wt.filters';

/** The policy option under which a page keeps its filters and columns. */
export const SAVE_FILTERS_OPTION = 'save_filters_and_columns';

type FilterValues = Record<string, unknown>;

function parsed(raw: string | null): Record<string, FilterValues> {
  try {
    const value: unknown = raw ? JSON.parse(raw) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, FilterValues>) : {};
  } catch {
    return {};
  }
}

export function savedFilters(raw: string | null, resource: string): FilterValues | undefined {
  const filters = parsed(raw)[resource];
  return filters && typeof filters === 'object' && !Array.isArray(filters) ? filters : undefined;
}

/** The stored object with one page's filters replaced; other pages keep theirs. */
export function withSavedFilters(raw: string | null, resource: string, filters: FilterValues): string {
  return JSON.stringify({ ...parsed(raw), [resource]: filters });
}

/** Whether any of the resource's features has the option on. */
export function savesFilters(permissions: PermissionSet | undefined, features: FeatureIds): boolean {
  if (!permissions) return false;
  return Object.values(features).some(
    (featureId) => featureId !== undefined && optionEnabled(permissions, featureId, SAVE_FILTERS_OPTION),
  );
}
