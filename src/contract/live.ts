/**
 * The live updates' event shapes (issue 31.2; ARCHITECTURE.md "Live updates"), said once for the gateway
 * (server/gateway/live/stream-route.ts) and the app (src/dataProvider/live-updates.ts).
 */

/** One change in a `changes` event of `GET webtool/stream`. */
export interface StreamChange {
  /** The resource's endpoint, e.g. `maintenance/tickets`. */
  resource: string;
  /** The record's key; absent for `changed`. */
  id?: string;
  /** `changed`: many records of the resource changed (a seed, an import, a burst): re-read it. */
  type: 'created' | 'updated' | 'deleted' | 'changed';
  /** The record's new version. */
  version?: number;
  /** Who saved it, when the caller may know (as the record's history shows: the operator, or their own partner). */
  by?: string;
  /** A part of the record changed (`compartments` of a hardware unit), not the record: no new version. */
  part?: string;
}

/** What a subscriber of a topic receives: react-admin's realtime event. */
export interface RealtimeEvent {
  topic: string;
  type: 'created' | 'updated' | 'deleted';
  payload: { ids: (string | number)[] };
  meta?: {
    /** Who saved the records, when the gateway may say. */
    by?: string;
    /** Each record's new version. */
    versions?: Record<string, number>;
    /** Records of the resource changed that the event does not list: re-read it. */
    all?: boolean;
    /** The stream was away; anything may have changed: re-read. */
    resync?: boolean;
    /** What part of the records changed (`compartments`), when not the records themselves. */
    part?: string;
  };
}

export type RealtimeCallback = (event: RealtimeEvent) => void;
