import type { ChangeFeed } from './live/change-feed.ts';

/** A kept count is counted again after this long even if no change was heard (a safety net, not the rule). */
const COUNT_KEPT_MS = 30_000;
const COUNTS_KEPT = 500;

/**
 * Counts of a list's matches (a search, filters, the caller's scope), kept per process while the database holds
 * no change: the count is what a search of many matches spends its time on (issue 32: "coop", 20,000 of 100,000
 * service points, 100-140 ms of a 115-160 ms list), and a user who pages through a search or sorts it again asks
 * for the same count each time. Any change the change feed hears, of any record, in any process (the records'
 * triggers publish every committed change), and any resume of the feed end every kept count; while the feed does
 * not hear, nothing is kept.
 */
export interface KeptCounts {
  /** The count kept under `key`, if nothing changed since it was counted. */
  get(key: string): number | undefined;
  /** What to hand `keep` with a count: taken before the snapshot that counts, undefined while the feed does not hear. */
  mark(): number | undefined;
  /** Keeps a count taken after `mark`, unless a change was heard meanwhile (the count may predate it). */
  keep(key: string, count: number, mark: number | undefined): void;
}

export function keptCounts(feed: Pick<ChangeFeed, 'hearing' | 'changesHeard'>): KeptCounts {
  const kept = new Map<string, { count: number; heard: number; at: number }>();
  const current = () => (feed.hearing() ? feed.changesHeard() : undefined);
  return {
    get(key) {
      const found = kept.get(key);
      if (!found) return undefined;
      if (found.heard === current() && Date.now() - found.at < COUNT_KEPT_MS) return found.count;
      kept.delete(key);
      return undefined;
    },
    mark: current,
    keep(key, count, mark) {
      if (mark === undefined || mark !== current()) return;
      if (kept.size >= COUNTS_KEPT) kept.clear();
      kept.set(key, { count, heard: mark, at: Date.now() });
    },
  };
}
