/**
 * The page sizes spec 02 §9 names for lists (lookups, search helpers, long lists, the single fetch of
 * 1,000). Lists open at a size that fits a screen (`x-resource.pageSize`); the larger ones are a choice.
 */
export const SPEC_PAGE_SIZES = [15, 20, 100, 300, 500, 1000] as const;

/**
 * The rows-per-page choices of a list: the spec's sizes and the list's own, sorted and unique. The
 * list's own size must be among them, or the selector shows nothing for the page in use.
 */
export function rowsPerPageOptions(pageSize: number): number[] {
  return [...new Set([...SPEC_PAGE_SIZES, pageSize])].sort((a, b) => a - b);
}
