import type { ChangeFeed, RecordChangeNotice } from './live/change-feed.ts';

/** A kept count is counted again after this long even if no change was heard (a safety net, not the rule). */
const COUNT_KEPT_MS = 30_000;
const COUNTS_KEPT = 500;

/**
 * What a kept count depends on: the records of `resource` (an insert, a delete or a change of many records of it
 * moves any of its counts), and of an update, `fields`: the top-level fields its conditions read, `@search` for a
 * search (the change feed's names, migration 051). A resource's row count reads none: no update moves it.
 */
export interface CountBasis {
  resource: string;
  fields: readonly string[];
}

/**
 * Counts of a list's matches (a search, filters, the caller's scope) and of a resource's rows, kept per process
 * while the database holds no change that could move them: the count is what a search of many matches spends its
 * time on (issue 32: "coop", 20,000 of 100,000 service points, 100-140 ms of a 115-160 ms list), and a user who
 * pages through a search or sorts it again asks for the same count each time. With both counts kept, a list is
 * one statement. The change feed hears every committed change, in any process (the records' triggers publish
 * them); a change of the count's resource that may move it (an insert, a delete, an update of a field the count
 * reads, one whose fields the feed does not name), a resume of the feed or a change it cannot read ends the
 * count; a comment saved on a service point ends no search's count. While the feed does not hear, nothing is kept.
 */
export interface KeptCounts {
  /** The count kept under `key`, if nothing that moves it changed since it was counted. */
  get(key: string): number | undefined;
  /** What to hand `keep` with a count: taken before the snapshot that counts, undefined while the feed does not hear. */
  mark(): number | undefined;
  /** Keeps a count taken after `mark`, unless a change that may move it was heard meanwhile (it may predate it). */
  keep(key: string, count: number, mark: number | undefined, basis: CountBasis): void;
}

/** Whether `change` may move a count of `basis`. */
export function movesCount(change: RecordChangeNotice, basis: CountBasis): boolean {
  if (change.resource !== basis.resource) return false;
  if (change.action !== 'update' || !change.changed) return true;
  return change.changed.some((field) => basis.fields.includes(field));
}

export function keptCounts(feed: Pick<ChangeFeed, 'hearing' | 'changesHeard' | 'changesSince'>): KeptCounts {
  const kept = new Map<string, { count: number; heard: number; at: number; basis: CountBasis }>();
  const current = () => (feed.hearing() ? feed.changesHeard() : undefined);
  /** Whether nothing heard after `mark` moves a count of `basis`. */
  const unmoved = (mark: number, basis: CountBasis) => {
    const changes = feed.changesSince(mark);
    return changes !== undefined && !changes.some((change) => movesCount(change, basis));
  };
  return {
    get(key) {
      const found = kept.get(key);
      if (!found) return undefined;
      const now = current();
      if (now !== undefined && Date.now() - found.at < COUNT_KEPT_MS) {
        if (found.heard === now) return found.count;
        if (unmoved(found.heard, found.basis)) {
          found.heard = now;
          return found.count;
        }
      }
      kept.delete(key);
      return undefined;
    },
    mark: current,
    keep(key, count, mark, basis) {
      const now = current();
      if (mark === undefined || now === undefined || (mark !== now && !unmoved(mark, basis))) return;
      if (kept.size >= COUNTS_KEPT) kept.clear();
      kept.set(key, { count, heard: now, at: Date.now(), basis });
    },
  };
}
