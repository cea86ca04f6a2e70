import type { RealtimeCallback, RealtimeEvent, StreamChange } from '../contract/live.ts';

/**
 * The app's end of the live updates (issue 31.2; the gateway's is server/gateway/live/): one stream
 * `GET webtool/stream` per tab, shared by every subscription, in react-admin's realtime conventions:
 * topics `resource/<name>` and `resource/<name>/<id>`, events `{ type: 'created' | 'updated' |
 * 'deleted', payload: { ids } }`.
 *
 * - The stream opens with the first subscription and closes a while after the last one ends.
 * - Events arriving within `coalesceMs` are delivered together, one per record (a burst of saves of
 *   one record is one event); more than `maxQueued` records become one event per resource with
 *   `meta.all` (re-read the resource).
 * - A stream that ends, fails or stays silent longer than `silenceMs` (the gateway sends heartbeats) is
 *   opened again with backoff. Changes made meanwhile are not replayed: every topic then gets an
 *   `updated` event with `meta.resync`, and its subscriber re-reads. A gateway that lost its own
 *   database listener says `resync` as well; credentials that expired (`expired`) reconnect at once.
 */

export type { RealtimeCallback, RealtimeEvent, StreamChange };

export interface LiveUpdatesOptions {
  /** Opens the signed stream; throws when refused or unreachable. */
  open(signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** The react-admin resource names of an endpoint (a scout path names the same records). */
  namesOf(endpoint: string): string[];
  coalesceMs?: number;
  maxQueued?: number;
  /** Waits before each new attempt; the last repeats. */
  backoffMs?: readonly number[];
  silenceMs?: number;
  /** How long the stream stays open without subscriptions (a page change unsubscribes and subscribes). */
  lingerMs?: number;
}

export interface LiveUpdates {
  subscribe(topic: string, callback: RealtimeCallback): void;
  unsubscribe(topic: string, callback: RealtimeCallback): void;
  /** 'closed' without subscriptions, 'connecting' until the gateway said ready, then 'open'. */
  state(): 'closed' | 'connecting' | 'open';
  close(): void;
}

const DEFAULT_BACKOFF = [1000, 2000, 5000, 10_000, 30_000];

/** Server-Sent Events from a byte stream: `event:` and `data:` lines, blocks ended by a blank line. */
export async function* sseEvents(
  stream: ReadableStream<Uint8Array>,
  onBytes: () => void = () => undefined,
  signal?: AbortSignal,
) {
  const reader = stream.getReader();
  // Aborted (closed, or silent too long): the pending read ends, whatever the stream is.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel);
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onBytes();
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length) yield { event, data: data.join('\n') };
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

export function createLiveUpdates(options: LiveUpdatesOptions): LiveUpdates {
  const coalesceMs = options.coalesceMs ?? 250;
  const maxQueued = options.maxQueued ?? 1000;
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF;
  const silenceMs = options.silenceMs ?? 45_000;
  const lingerMs = options.lingerMs ?? 5000;

  const topics = new Map<string, Set<RealtimeCallback>>();
  const queued = new Map<string, StreamChange>();
  const changedResources = new Set<string>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let lingerTimer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let status: 'closed' | 'connecting' | 'open' = 'closed';
  let current: AbortController | undefined;
  let wakeUp: (() => void) | undefined;

  const wanted = () => topics.size > 0;

  function emit(topic: string, event: Omit<RealtimeEvent, 'topic'>) {
    for (const callback of [...(topics.get(topic) ?? [])]) {
      try {
        callback({ topic, ...event });
      } catch (error) {
        console.error(error);
      }
    }
  }

  /** Topics of a resource's records that someone subscribed to: `resource/<name>/<id>`. */
  const recordTopicsOf = (name: string) => [...topics.keys()].filter((topic) => topic.startsWith(`resource/${name}/`));

  function flush() {
    flushTimer = undefined;
    const changes = [...queued.values()];
    const resources = [...changedResources];
    queued.clear();
    changedResources.clear();
    for (const endpoint of resources) {
      for (const name of options.namesOf(endpoint)) {
        const all = { type: 'updated' as const, payload: { ids: [] }, meta: { all: true } };
        emit(`resource/${name}`, all);
        for (const topic of recordTopicsOf(name)) emit(topic, all);
      }
    }
    const byResource = new Map<string, StreamChange[]>();
    for (const change of changes) byResource.set(change.resource, [...(byResource.get(change.resource) ?? []), change]);
    for (const [endpoint, list] of byResource) {
      for (const name of options.namesOf(endpoint)) {
        const groups = new Map<string, StreamChange[]>();
        for (const change of list) {
          const group = `${change.type}\u0000${change.part ?? ''}`;
          groups.set(group, [...(groups.get(group) ?? []), change]);
        }
        for (const ofType of groups.values()) {
          const { type, part } = ofType[0] as StreamChange & { type: RealtimeEvent['type'] };
          const versions = Object.fromEntries(
            ofType.filter((c) => c.version !== undefined).map((c) => [String(c.id), c.version!]),
          );
          const by = [...new Set(ofType.map((c) => c.by))];
          emit(`resource/${name}`, {
            type,
            payload: { ids: ofType.map((change) => change.id!) },
            meta: { versions, ...(by.length === 1 && by[0] ? { by: by[0] } : {}), ...(part ? { part } : {}) },
          });
          for (const change of ofType) {
            emit(`resource/${name}/${change.id}`, {
              type,
              payload: { ids: [change.id!] },
              meta: {
                ...(change.version !== undefined ? { versions: { [String(change.id)]: change.version } } : {}),
                ...(change.by ? { by: change.by } : {}),
                ...(part ? { part } : {}),
              },
            });
          }
        }
      }
    }
  }

  function queue(changes: StreamChange[]) {
    for (const change of changes) {
      if (change.type === 'changed' || change.id === undefined) {
        changedResources.add(change.resource);
        continue;
      }
      const key = `${change.resource}\u0000${change.id}\u0000${change.part ?? ''}`;
      const before = queued.get(key);
      const type =
        before?.type === 'created' && change.type === 'updated'
          ? 'created'
          : before && change.type === 'created'
            ? 'updated'
            : change.type;
      queued.set(key, { ...change, type });
    }
    if (queued.size > maxQueued) {
      for (const change of queued.values()) changedResources.add(change.resource);
      queued.clear();
    }
    flushTimer ??= setTimeout(flush, coalesceMs);
  }

  function resyncAll() {
    for (const topic of topics.keys()) {
      emit(topic, { type: 'updated', payload: { ids: [] }, meta: { all: true, resync: true } });
    }
  }

  async function connect() {
    if (running) return;
    running = true;
    let attempt = 0;
    let connectedBefore = false;
    while (wanted()) {
      const controller = new AbortController();
      current = controller;
      status = 'connecting';
      let silence: ReturnType<typeof setTimeout> | undefined;
      const alive = () => {
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), silenceMs);
      };
      let again = false;
      try {
        alive();
        const stream = await options.open(controller.signal);
        for await (const { event, data } of sseEvents(stream, alive, controller.signal)) {
          if (event === 'ready') {
            status = 'open';
            attempt = 0;
            // What changed while the stream was away is read again.
            if (connectedBefore) resyncAll();
            connectedBefore = true;
          } else if (event === 'changes') {
            queue(JSON.parse(data) as StreamChange[]);
          } else if (event === 'resync') {
            resyncAll();
          } else if (event === 'expired') {
            again = true;
            break;
          }
        }
      } catch {
        // refused, unreachable, dropped or silent: try again below
      } finally {
        clearTimeout(silence);
        controller.abort();
      }
      status = 'closed';
      if (!wanted()) break;
      const wait = again ? 0 : backoff[Math.min(attempt, backoff.length - 1)];
      if (!again) attempt += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
    running = false;
    current = undefined;
  }

  function stop() {
    current?.abort();
    wakeUp?.();
  }

  return {
    subscribe(topic, callback) {
      clearTimeout(lingerTimer);
      lingerTimer = undefined;
      const callbacks = topics.get(topic) ?? new Set();
      callbacks.add(callback);
      topics.set(topic, callbacks);
      void connect();
    },
    unsubscribe(topic, callback) {
      const callbacks = topics.get(topic);
      callbacks?.delete(callback);
      if (callbacks && !callbacks.size) topics.delete(topic);
      if (!wanted() && !lingerTimer) {
        lingerTimer = setTimeout(() => {
          lingerTimer = undefined;
          if (!wanted()) stop();
        }, lingerMs);
      }
    },
    state: () => status,
    close() {
      topics.clear();
      clearTimeout(flushTimer);
      clearTimeout(lingerTimer);
      stop();
    },
  };
}
