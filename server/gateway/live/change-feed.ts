import { DatabaseUnavailableError, type Db } from '../../db/adapter.ts';
import type { Doc } from '../record-store.ts';
import type { ResourceDefinition } from '../resource-registry.ts';
import { SCOUT_SCOPE_FIELD } from '../tenancy.ts';
import { COMPARTMENTS, HARDWARE_UNITS } from '../rules/shared/hardware-store.ts';

/**
 * The committed changes of records, as the triggers of migration 045 publish them on the channel
 * `webtool_changes` (pg_notify inside the writing transaction: heard only once it commits, by every
 * gateway process listening on PostgreSQL, by the process itself on PGlite). One feed per process; the
 * live streams (stream-route.ts) subscribe to it and filter each change per signed-in user.
 */

export const CHANGES_CHANNEL = 'webtool_changes';

export interface RecordChangeNotice {
  /** The resource's endpoint (records.resource). */
  resource: string;
  /** The record's key; absent for `bulk`. */
  key?: string;
  /** `bulk`: a statement changed many records of the resource at once (a seed, an import): re-read it. */
  action: 'insert' | 'update' | 'delete' | 'bulk';
  version?: number;
  /** Who made the change, and their `<partner type>:<partner>` when the write pipeline made it. */
  by?: string;
  byPartner?: string;
  /** The record's values of the fields streams filter by (`live_owner_fields`). */
  owners: Doc;
  /**
   * An update's changed fields (migration 051): the document's top-level fields whose value moved or that went,
   * `@search` for the search text, `@partner` for the owning partner columns. Absent: anything may have changed.
   */
  changed?: string[];
  /**
   * A record without a resource of its own, read as part of another (`PARTS`): the change is streamed as
   * one of that record (`resource`, `key`), filtered by its rules, and `part` names what changed.
   */
  part?: string;
}

/**
 * Records the gateway keeps without a resource of their own, read only as part of a record of another
 * (a unit's compartments, through its grid): the field naming that record.
 */
export const PARTS: Record<string, { resource: string; keyField: string }> = {
  [COMPARTMENTS]: { resource: HARDWARE_UNITS, keyField: 'hardware_id' },
};

export interface ChangeListener {
  change(notice: RecordChangeNotice): void;
  /** The feed may have missed changes (its connection was lost and is back): every subscriber re-reads. */
  resumed(): void;
}

export interface ChangeFeed {
  subscribe(listener: ChangeListener): () => void;
  /** Hands a notice to the subscribers as if the database had sent it (tests, bench). */
  deliver(notice: RecordChangeNotice): void;
  /**
   * Whether the feed hears every committed change now: false while its connection is lost (until it is back and
   * its subscribers were told to re-read), and on a database that cannot listen. What is kept because the feed
   * would say when it changes (the callers' roles) is read afresh meanwhile.
   */
  hearing(): boolean;
  /**
   * Resolves once the feed has heard every change committed before the call (a marker sent through the database
   * after them arrives after them): a test that changed records in SQL calls the gateway only then.
   */
  heard(): Promise<void>;
  /**
   * How many changes the feed has heard so far (every notice, of any record, and each resume after a lost
   * connection): what is kept while this number stays the same (kept list counts) is what the database holds.
   */
  changesHeard(): number;
  /**
   * The changes heard after `changesHeard()` returned `mark`, in order, as the database sent them (a part's own
   * resource, not the record it belongs to); undefined when the feed cannot tell: a resume, a payload it could not
   * read, or more changes since than it remembers.
   */
  changesSince(mark: number): RecordChangeNotice[] | undefined;
  close(): Promise<void>;
}

/** The payload of `heard()`'s marker: not a change, so parseNotice passes it by. */
const MARKER_FIELD = 'heard';
const HEARD_WAIT_MS = 10_000;

const ACTIONS = new Set(['insert', 'update', 'delete', 'bulk']);

/** A payload of the triggers, or undefined for anything else on the channel. */
export function parseNotice(payload: string): RecordChangeNotice | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const { r, k, a, v, by, bp, o, c } = raw as Record<string, unknown>;
  if (typeof r !== 'string' || typeof a !== 'string' || !ACTIONS.has(a)) return undefined;
  if (a !== 'bulk' && typeof k !== 'string') return undefined;
  return {
    resource: r,
    key: typeof k === 'string' ? k : undefined,
    action: a as RecordChangeNotice['action'],
    version: typeof v === 'number' ? v : undefined,
    by: typeof by === 'string' ? by : undefined,
    byPartner: typeof bp === 'string' ? bp : undefined,
    owners: o && typeof o === 'object' ? (o as Doc) : {},
    ...(a === 'update' &&
      Array.isArray(c) &&
      c.every((field) => typeof field === 'string') && { changed: c as string[] }),
  };
}

/** How many of the latest changes `changesSince` remembers. */
const CHANGES_REMEMBERED = 1000;

/** The fields a stream filters a resource's changes by: its owner fields (x-resource.tenancy), the scout contact. */
export function ownerFields(resource: Pick<ResourceDefinition, 'tenancy' | 'scoutEndpoint'>): string[] {
  const fields = new Set(Object.values(resource.tenancy).filter((field) => field !== '*'));
  if (resource.scoutEndpoint) fields.add(SCOUT_SCOPE_FIELD);
  return [...fields];
}

/** Keeps `live_owner_fields` as the schemas say; several processes starting together agree (idempotent). */
async function syncOwnerFields(db: Db, resources: ReadonlyMap<string, ResourceDefinition>) {
  const pairs = [
    ...[...resources.values()].flatMap((resource) =>
      ownerFields(resource).map((field) => [resource.endpoint, field] as const),
    ),
    ...Object.entries(PARTS).map(([part, { keyField }]) => [part, keyField] as const),
  ];
  const endpoints = pairs.map(([endpoint]) => endpoint);
  const fields = pairs.map(([, field]) => field);
  await db.query(
    `INSERT INTO live_owner_fields (resource, field) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT DO NOTHING`,
    [endpoints, fields],
  );
  await db.query(
    `DELETE FROM live_owner_fields WHERE (resource, field) NOT IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [endpoints, fields],
  );
}

/** How long the owner fields of a record that parts belong to are kept: a unit rarely changes hands. */
const OWNER_CACHE_MS = 30_000;
const OWNER_CACHE_SIZE = 10_000;

/**
 * Writes the owner fields now, or, when the database is out at start (a gateway rides out outages, see
 * README "When the database is unreachable"), keeps trying in the background until it is back.
 */
async function syncOwnerFieldsSoon(db: Db, resources: ReadonlyMap<string, ResourceDefinition>) {
  try {
    await syncOwnerFields(db, resources);
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    const retry = setInterval(() => {
      syncOwnerFields(db, resources).then(
        () => clearInterval(retry),
        () => undefined,
      );
    }, OWNER_FIELDS_RETRY_MS);
    retry.unref();
  }
}

const OWNER_FIELDS_RETRY_MS = 5_000;

export async function startChangeFeed(db: Db, resources: ReadonlyMap<string, ResourceDefinition>): Promise<ChangeFeed> {
  await syncOwnerFieldsSoon(db, resources);
  const listeners = new Set<ChangeListener>();
  const deliver = (notice: RecordChangeNotice) => {
    for (const listener of listeners) listener.change(notice);
  };

  // The owner fields of the records parts belong to, read once per process and kept a while.
  const owners = new Map<string, { at: number; owners: Promise<Doc | undefined> }>();
  const ownersOf = (resource: ResourceDefinition, key: string) => {
    const id = `${resource.endpoint}\u0000${key}`;
    const cached = owners.get(id);
    if (cached && Date.now() - cached.at < OWNER_CACHE_MS) return cached.owners;
    if (owners.size >= OWNER_CACHE_SIZE) owners.clear();
    const read = db
      .query<{ doc: Doc }>('SELECT doc FROM records WHERE resource = $1 AND key = $2', [resource.endpoint, key])
      .then(({ rows }) =>
        rows[0] ? Object.fromEntries(ownerFields(resource).map((field) => [field, rows[0].doc[field]])) : undefined,
      );
    owners.set(id, { at: Date.now(), owners: read });
    read.catch(() => owners.delete(id));
    return read;
  };
  /** A part's change as a change of the record it belongs to, once that record's owners are known. */
  const deliverPart = async (notice: RecordChangeNotice) => {
    const part = PARTS[notice.resource];
    const whole = resources.get(part.resource);
    const key = notice.owners[part.keyField];
    if (!whole || key === undefined || key === null || notice.action === 'bulk') {
      if (whole) deliver({ resource: whole.endpoint, action: 'bulk', owners: {}, part: notice.resource });
      return;
    }
    const found = await ownersOf(whole, String(key)).catch(() => undefined);
    if (!found) return;
    deliver({ resource: whole.endpoint, key: String(key), action: 'update', owners: found, part: notice.resource });
  };

  let hearing = false;
  let changesHeard = 0;
  /** The latest changes by their number (`changesHeard` once heard); undefined for what the feed cannot tell. */
  const remembered = new Map<number, RecordChangeNotice | undefined>();
  const heardOne = (notice: RecordChangeNotice | undefined) => {
    changesHeard += 1;
    remembered.set(changesHeard, notice);
    remembered.delete(changesHeard - CHANGES_REMEMBERED);
  };
  const markers = new Map<string, () => void>();
  let markerCount = 0;
  const stop = await db.listen?.(
    CHANGES_CHANNEL,
    (payload) => {
      if (markers.size && payload.startsWith(`{"${MARKER_FIELD}":`)) {
        const id = (JSON.parse(payload) as Record<string, string>)[MARKER_FIELD];
        markers.get(id)?.();
        markers.delete(id);
        return;
      }
      const notice = parseNotice(payload);
      heardOne(notice);
      if (!notice) return;
      if (Object.hasOwn(PARTS, notice.resource)) void deliverPart(notice);
      else deliver(notice);
    },
    () => {
      hearing = true;
      heardOne(undefined);
      for (const listener of listeners) listener.resumed();
    },
    () => {
      hearing = false;
    },
  );
  hearing = Boolean(stop);
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    deliver(notice) {
      heardOne(notice);
      deliver(notice);
    },
    hearing: () => hearing,
    changesHeard: () => changesHeard,
    changesSince(mark) {
      if (changesHeard - mark > CHANGES_REMEMBERED - 1 || mark > changesHeard) return undefined;
      const changes: RecordChangeNotice[] = [];
      for (let n = mark + 1; n <= changesHeard; n += 1) {
        const notice = remembered.get(n);
        if (!notice) return undefined;
        changes.push(notice);
      }
      return changes;
    },
    async heard() {
      // Not hearing: nothing is kept meanwhile, so there is nothing to wait for.
      if (!stop || !hearing) return;
      const id = `${process.pid}.${(markerCount += 1)}`;
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<void>((resolve) => {
        markers.set(id, resolve);
        // A marker sent while the connection is lost never arrives: the feed is re-read on resume anyway.
        timer = setTimeout(resolve, HEARD_WAIT_MS);
      });
      const sent = await db
        .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify({ [MARKER_FIELD]: id })])
        .then(
          () => true,
          // The database is out: the call that follows meets it too.
          () => false,
        );
      if (sent) await arrived;
      clearTimeout(timer);
      markers.delete(id);
    },
    async close() {
      hearing = false;
      for (const resolve of markers.values()) resolve();
      markers.clear();
      listeners.clear();
      await stop?.();
    },
  };
}
