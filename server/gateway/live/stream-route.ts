import type { ServerResponse } from 'node:http';
import type { StreamChange } from '../../../src/contract/live.ts';
import { assertResourceAccess, type CallerAccess } from '../caller-access.ts';
import type { ResourceDefinition } from '../resource-registry.ts';
import { scopeFor, visible, type Scope } from '../tenancy.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import type { ChangeFeed, ChangeListener, RecordChangeNotice } from './change-feed.ts';

/**
 * `GET webtool/stream` (ARCHITECTURE.md, "Live updates"): Server-Sent Events of the committed changes the
 * caller may read, for the app's subscriptions (src/dataProvider/live-updates.ts). Signed like every
 * webtool call (the app reads it with fetch, which sends the signature; EventSource could not); refused
 * without valid credentials, and ended when they expire (`event: expired`: the app signs a new one).
 *
 * Each change passes the same rules as a GET of the record: the resource's read permission
 * (assertResourceAccess) and the caller's scope (tenancy.ts `scopeFor` / `visible`, on the owner fields
 * the change carries). Events of one record coalesce while waiting for the next flush; more waiting
 * records than `maxPending` become one `changed` event per resource (the app re-reads it). A subscriber
 * whose socket stops taking data for `stallMs`, or holds more than `maxBufferedBytes` unsent, is dropped.
 */

export interface LiveStreamLimits {
  /** A comment line this often keeps proxies from closing an idle stream and lets the app see it alive. */
  heartbeatMs: number;
  /** Changes are gathered this long and sent together. */
  flushMs: number;
  /** Records waiting for one subscriber before they become per-resource `changed` events. */
  maxPending: number;
  /** A subscriber whose socket accepted nothing for this long is dropped. */
  stallMs: number;
  /** Bytes written but not yet taken by the socket before the subscriber is dropped. */
  maxBufferedBytes: number;
  /** The clock the credentials' expiry is read by (the identity stand-in's clock in tests). */
  now: () => number;
}

export const defaultLiveLimits: LiveStreamLimits = {
  heartbeatMs: 15_000,
  flushMs: 100,
  maxPending: 500,
  stallMs: 10_000,
  maxBufferedBytes: 1024 * 1024,
  now: Date.now,
};

/** What the app receives, per record (src/contract/live.ts). */
type LiveEvent = StreamChange;

const TYPES = { insert: 'created', update: 'updated', delete: 'deleted', bulk: 'changed' } as const;

/** The type of two events of one record coalesced: created then updated is still new; deleted wins. */
function merged(before: LiveEvent['type'], after: LiveEvent['type']): LiveEvent['type'] {
  if (after === 'deleted' || before === 'deleted') return after === 'created' ? 'updated' : 'deleted';
  return before === 'created' ? 'created' : after;
}

/** Decides per resource, once per stream, whether and which of its records the caller reads. */
function readScopes(access: CallerAccess, resources: ReadonlyMap<string, ResourceDefinition>) {
  const scopes = new Map<string, Scope>();
  return (endpoint: string): Scope => {
    let scope = scopes.get(endpoint);
    if (scope === undefined) {
      const resource = resources.get(endpoint);
      scope = 'none';
      if (resource) {
        try {
          assertResourceAccess(access, resource, 'read');
          scope = scopeFor(access, resource);
        } catch {
          scope = 'none';
        }
      }
      scopes.set(endpoint, scope);
    }
    return scope;
  };
}

export interface LiveStreams {
  route: SpecialRoute;
  /** Streams open in this process. */
  count(): number;
  /** Ends every stream (the gateway is closing). */
  endAll(): void;
}

export function createLiveStreams(
  feed: ChangeFeed,
  resources: ReadonlyMap<string, ResourceDefinition>,
  limits: Partial<LiveStreamLimits> = {},
): LiveStreams {
  const settings = { ...defaultLiveLimits, ...limits };
  const open = new Set<() => void>();

  const route: SpecialRoute = async ({ request, reply, access }) => {
    const expiresAt = request.caller?.expiresAt;
    const raw: ServerResponse = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    raw.socket?.setNoDelay(true);

    const scopeOf = readScopes(access, resources);
    const ownPartner = `${access.partnerType}:${access.partner ?? ''}`;
    const pending = new Map<string, LiveEvent>();
    const changedResources = new Set<string>();
    let flushTimer: NodeJS.Timeout | undefined;
    let stalledSince: number | undefined;
    let ended = false;

    const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    const end = (event?: string) => {
      if (ended) return;
      ended = true;
      unsubscribe();
      open.delete(end);
      clearTimeout(flushTimer);
      clearInterval(heartbeat);
      clearTimeout(expiry);
      if (event) send(event, {});
      raw.end();
    };
    const drop = () => {
      if (ended) return;
      end();
      raw.destroy();
      request.log.warn({ username: access.caller.username }, 'live stream dropped: the subscriber does not read');
    };

    const flush = () => {
      flushTimer = undefined;
      if (ended || (!pending.size && !changedResources.size)) return;
      if (raw.writableNeedDrain) {
        // The socket takes nothing: keep coalescing, and give up on a subscriber that stays stalled.
        stalledSince ??= Date.now();
        if (Date.now() - stalledSince > settings.stallMs) drop();
        else flushTimer = setTimeout(flush, settings.flushMs);
        return;
      }
      stalledSince = undefined;
      const events: LiveEvent[] = [
        ...[...changedResources].map((resource) => ({ resource, type: 'changed' as const })),
        ...[...pending.values()].filter((event) => !changedResources.has(event.resource)),
      ];
      pending.clear();
      changedResources.clear();
      send('changes', events);
      if (raw.writableLength > settings.maxBufferedBytes) drop();
    };
    const schedule = () => {
      if (pending.size > settings.maxPending) {
        for (const event of pending.values()) changedResources.add(event.resource);
        pending.clear();
      }
      flushTimer ??= setTimeout(flush, settings.flushMs);
    };

    const listener: ChangeListener = {
      change(notice: RecordChangeNotice) {
        const scope = scopeOf(notice.resource);
        if (scope === 'none') return;
        if (notice.action === 'bulk') {
          changedResources.add(notice.resource);
          return schedule();
        }
        if (!visible(scope, notice.owners)) return;
        const mayName = access.seesAll || notice.byPartner === ownPartner;
        const event: LiveEvent = {
          resource: notice.resource,
          id: notice.key,
          type: TYPES[notice.action],
          version: notice.version,
          ...(mayName && notice.by ? { by: notice.by } : {}),
          ...(notice.part ? { part: notice.part } : {}),
        };
        const id = `${notice.resource}\u0000${notice.key}\u0000${notice.part ?? ''}`;
        const before = pending.get(id);
        pending.set(id, before ? { ...event, type: merged(before.type, event.type) } : event);
        schedule();
      },
      resumed() {
        if (!ended) send('resync', {});
      },
    };
    const unsubscribe = feed.subscribe(listener);
    open.add(end);

    const expired = () => expiresAt !== undefined && settings.now() >= expiresAt;
    const heartbeat = setInterval(() => {
      if (expired()) return end('expired');
      if (raw.writableNeedDrain) {
        stalledSince ??= Date.now();
        if (Date.now() - stalledSince > settings.stallMs) return drop();
        return;
      }
      raw.write(': heartbeat\n\n');
    }, settings.heartbeatMs);
    const expiry =
      expiresAt === undefined
        ? undefined
        : setTimeout(() => end('expired'), Math.min(Math.max(expiresAt - settings.now(), 0), 2 ** 31 - 1));
    raw.on('close', () => end());
    raw.on('drain', () => {
      stalledSince = undefined;
      if (!flushTimer) flush();
    });

    send('ready', { process: process.pid, heartbeat_ms: settings.heartbeatMs });
  };

  return {
    route,
    count: () => open.size,
    endAll() {
      for (const end of [...open]) end();
    },
  };
}
