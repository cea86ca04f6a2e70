/**
 * `GET webtool/search?q=&limit=&country=` (issue 31.1): one query looked up in every kind of record the
 * caller may list, scoped as the lists are. The gateway answers it (server/gateway/search.ts) and the app
 * bar's search box reads it (src/app/global-search.tsx).
 */

/** The kinds of record the search finds, in the order their groups are shown. */
export const SEARCH_KINDS = [
  'pieces',
  'end_users',
  'service_points',
  'hardware_units',
  'pinpads',
  'tickets',
  'couriers',
  'carriers',
  'partners',
  'webtool_users',
] as const;

export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Characters a query may have: a longer one is refused (400 `gateway.search_query_too_long`). */
export const SEARCH_MAX_LENGTH = 200;
/** Items per kind a request may ask for (`limit`, 5 when not given). */
export const SEARCH_MAX_LIMIT = 20;

export interface SearchItem {
  /** The record's id, as its resource's id field holds it. */
  id: string | number;
  /** The app's resource name (`shipments`, `service-points`). */
  resource: string;
  /** The record's representation (a service point's name, a piece's id). */
  label: string;
  /** The few fields that tell two results apart, by field name (raw values: the app formats them). */
  fields: Record<string, unknown>;
  /**
   * The app route that opens the record, `/<resource>/<id>` (and a tab: an end user's parcels); the app
   * opens `/<resource>/<id>/show` instead for a resource without an edit page (shipments).
   */
  route: string;
}

export interface SearchGroup {
  kind: SearchKind;
  items: SearchItem[];
  /** More records matched than `limit`: the list of the kind finds the rest. */
  more: boolean;
}

export interface SearchResponse {
  success: true;
  /** The query as searched (trimmed). */
  query: string;
  /** The kinds the caller may search, found or not. */
  searched: SearchKind[];
  /** The kinds with at least one match, in `SEARCH_KINDS` order. */
  groups: SearchGroup[];
}
