import { describe, expect, it } from 'vitest';
import { createLiveUpdates, type RealtimeEvent } from '../../src/dataProvider/live-updates.ts';

/** A stream the test writes Server-Sent Events into, as the gateway would. */
function fakeStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    send(event: string, data: unknown) {
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    /** The connection drops (a gateway restart). */
    drop() {
      controller.error(new Error('connection reset'));
    },
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(test: () => boolean, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await wait(5);
  }
}

function setup(options: { refuseFirst?: number } = {}) {
  const streams: ReturnType<typeof fakeStream>[] = [];
  let refusals = options.refuseFirst ?? 0;
  const live = createLiveUpdates({
    namesOf: (endpoint) => (endpoint === 'maintenance/tickets' ? ['tickets'] : []),
    coalesceMs: 20,
    backoffMs: [10, 20],
    lingerMs: 10,
    open: async () => {
      if (refusals > 0) {
        refusals -= 1;
        throw new Error('unreachable');
      }
      const stream = fakeStream();
      streams.push(stream);
      return stream.stream;
    },
  });
  return { live, streams };
}

describe('live updates subscription manager', () => {
  it('delivers a burst of saves of one record as one event per topic, in react-admin realtime shape', async () => {
    const { live, streams } = setup();
    const list: RealtimeEvent[] = [];
    const record: RealtimeEvent[] = [];
    live.subscribe('resource/tickets', (event) => list.push(event));
    live.subscribe('resource/tickets/7', (event) => record.push(event));
    await until(() => streams.length === 1);
    streams[0].send('ready', {});
    for (let version = 2; version <= 300; version += 1) {
      streams[0].send('changes', [{ resource: 'maintenance/tickets', id: '7', type: 'updated', version, by: 'maint' }]);
    }
    streams[0].send('changes', [{ resource: 'maintenance/tickets', id: '8', type: 'created', version: 1 }]);
    streams[0].send('changes', [{ resource: 'maintenance/tickets', id: '8', type: 'updated', version: 2 }]);
    streams[0].send('changes', [{ resource: 'other', id: '1', type: 'updated', version: 2 }]);
    await until(() => list.length >= 2);
    await wait(50);
    expect(list).toEqual([
      {
        topic: 'resource/tickets',
        type: 'updated',
        payload: { ids: ['7'] },
        meta: { versions: { '7': 300 }, by: 'maint' },
      },
      { topic: 'resource/tickets', type: 'created', payload: { ids: ['8'] }, meta: { versions: { '8': 2 } } },
    ]);
    expect(record).toEqual([
      {
        topic: 'resource/tickets/7',
        type: 'updated',
        payload: { ids: ['7'] },
        meta: { versions: { '7': 300 }, by: 'maint' },
      },
    ]);
    live.close();
  });

  it('turns more waiting records than it keeps into one "re-read the resource" event', async () => {
    const { live, streams } = setup();
    const list: RealtimeEvent[] = [];
    live.subscribe('resource/tickets', (event) => list.push(event));
    await until(() => streams.length === 1);
    streams[0].send(
      'changes',
      Array.from({ length: 1500 }, (_, i) => ({ resource: 'maintenance/tickets', id: String(i), type: 'updated' })),
    );
    await until(() => list.length > 0);
    await wait(50);
    expect(list).toEqual([{ topic: 'resource/tickets', type: 'updated', payload: { ids: [] }, meta: { all: true } }]);
    live.close();
  });

  it('reconnects with backoff after a dropped stream or a refused one, then asks every topic to re-read', async () => {
    const { live, streams } = setup({ refuseFirst: 1 });
    const events: RealtimeEvent[] = [];
    live.subscribe('resource/tickets', (event) => events.push(event));
    // The first attempt is refused: a second one follows after the backoff.
    await until(() => streams.length === 1);
    streams[0].send('ready', {});
    await until(() => live.state() === 'open');
    expect(events).toEqual([]);
    streams[0].drop();
    await until(() => streams.length === 2);
    expect(live.state()).toBe('connecting');
    streams[1].send('ready', {});
    await until(() => events.length === 1);
    expect(events[0]).toMatchObject({ type: 'updated', payload: { ids: [] }, meta: { all: true, resync: true } });
    // The gateway lost its own listener: the same re-read.
    streams[1].send('resync', {});
    await until(() => events.length === 2);
    // Expired credentials: a new stream at once, signed afresh.
    streams[1].send('expired', {});
    await until(() => streams.length === 3);
    live.close();
  });

  it('opens one stream for every subscription and closes it a while after the last one leaves', async () => {
    const { live, streams } = setup();
    const a = () => undefined;
    const b = () => undefined;
    live.subscribe('resource/tickets', a);
    live.subscribe('resource/tickets/1', b);
    await until(() => streams.length === 1);
    streams[0].send('ready', {});
    await until(() => live.state() === 'open');
    live.unsubscribe('resource/tickets', a);
    live.unsubscribe('resource/tickets/1', b);
    await until(() => live.state() === 'closed');
    expect(streams).toHaveLength(1);
  });
});
