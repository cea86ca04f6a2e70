/**
 * Live updates (issue 31.2): `GET webtool/stream` on a listening gateway (inject does not stream).
 * Committed changes reach the streams of the users who may read the record, with who saved it;
 * a rolled-back write sends nothing; no or expired credentials are refused, and a stream ends when its
 * credentials expire; a subscriber that does not read is dropped; a burst coalesces per record.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest, type SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { findRecord, readRecord } from './support/seed-finders.ts';

interface StreamEvent {
  event: string;
  data: unknown;
}

interface OpenStream {
  status: number;
  events: StreamEvent[];
  /** Resolves once an event matching `test` arrived (or rejects after `timeoutMs`). */
  waitFor(test: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  ended: Promise<void>;
  close(): void;
}

interface Change {
  resource: string;
  id?: string;
  type: string;
  version?: number;
  by?: string;
}

const changesOf = (stream: OpenStream) =>
  stream.events.filter((event) => event.event === 'changes').flatMap((event) => event.data as Change[]);

describe('live stream', () => {
  let stack: Stack;
  let base: string;
  let operator: SigningSession;
  let carrier: SigningSession;
  let carrier2: SigningSession;

  async function openStream(session: SigningSession | undefined): Promise<OpenStream> {
    const controller = new AbortController();
    const { url, init } = session
      ? await signRequest(base, { method: 'GET', path: 'webtool/stream' }, session)
      : { url: `${base}/webtool/stream`, init: { method: 'GET' as const, headers: {} } };
    const response = await fetch(url, { ...init, signal: controller.signal });
    const events: StreamEvent[] = [];
    const waiters = new Set<() => void>();
    let buffer = '';
    const ended = (async () => {
      if (!response.body) return;
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data !== undefined) events.push({ event, data: JSON.parse(data) });
            for (const wake of waiters) wake();
          }
        }
      } catch {
        // aborted
      }
      for (const wake of waiters) wake();
    })();
    return {
      status: response.status,
      events,
      ended,
      close: () => controller.abort(),
      waitFor(test, timeoutMs = 5000) {
        return new Promise((resolve, reject) => {
          const check = () => {
            const found = events.find(test);
            if (!found) return false;
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
            return true;
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            reject(new Error(`no such event; got ${JSON.stringify(events)}`));
          }, timeoutMs);
          if (!check()) waiters.add(check);
        });
      },
    };
  }

  /** A piece of the carrier, by its owner. */
  async function pieceOf(carrierId: number) {
    return (await findRecord(stack.db, 'shipments', { carrier_id: carrierId })).key;
  }

  const touch = (key: string) =>
    stack.db.query(`UPDATE records SET version = version + 1 WHERE resource = 'shipments' AND key = $1`, [key]);

  beforeAll(async () => {
    stack = await startStack({
      live: { heartbeatMs: 200, flushMs: 20, stallMs: 400, maxBufferedBytes: 64 * 1024, maxPending: 100_000 },
    });
    await stack.app.listen({ port: 0, host: '127.0.0.1' });
    const address = stack.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    [operator, carrier, carrier2] = await Promise.all([
      stack.signIn('operator'),
      stack.signIn('carrier'),
      stack.signIn('carrier2'),
    ]);
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('streams a committed change to the users who may read it, with who saved it; never a rolled-back one', async () => {
    const [ops, own, other] = await Promise.all([openStream(operator), openStream(carrier), openStream(carrier2)]);
    try {
      for (const stream of [ops, own, other]) {
        expect(stream.status).toBe(200);
        await stream.waitFor((event) => event.event === 'ready');
      }
      const first = await pieceOf(1);
      const second = await pieceOf(2);
      await touch(first);
      await touch(second);
      // Rolled back: nothing of it may reach anyone.
      await stack.db
        .transaction(async (tx) => {
          await tx.query(`UPDATE records SET version = version + 1 WHERE resource = 'shipments' AND key = $1`, [first]);
          throw new Error('rolled back');
        })
        .catch(() => undefined);

      const isPiece = (key: string) => (event: StreamEvent) =>
        event.event === 'changes' && (event.data as Change[]).some((c) => c.resource === 'shipments' && c.id === key);
      await ops.waitFor(isPiece(first));
      await ops.waitFor(isPiece(second));
      await own.waitFor(isPiece(first));
      await other.waitFor(isPiece(second));
      // A heartbeat later, neither carrier got the other's piece.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(changesOf(own).some((c) => c.id === second)).toBe(false);
      expect(changesOf(other).some((c) => c.id === first)).toBe(false);
      const stored = await readRecord(stack.db, 'shipments', first);
      expect(changesOf(ops).filter((c) => c.id === first)).toEqual([
        { resource: 'shipments', id: first, type: 'updated', version: stored.version },
      ]);

      // Through the write pipeline: the operator's stream names who saved it; a carrier sees no alerts.
      const [alert] = (
        await stack.send(operator, { method: 'GET', path: 'webtool/alerts', query: { offset: '0', limit: '1' } })
      ).body.data as { alert_id: number; version: number }[];
      const saved = await stack.send(operator, {
        method: 'PATCH',
        path: 'webtool/alerts',
        body: { alert_id: alert.alert_id, version: alert.version, troubleshooting_comment: 'Replaced the lock.' },
      });
      expect(saved.status).toBe(200);
      const event = await ops.waitFor(
        (e) => e.event === 'changes' && (e.data as Change[]).some((c) => c.resource === 'alerts'),
      );
      expect((event.data as Change[]).find((c) => c.resource === 'alerts')).toEqual({
        resource: 'alerts',
        id: String(alert.alert_id),
        type: 'updated',
        version: alert.version + 1,
        by: 'operator',
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(changesOf(own).some((c) => c.resource === 'alerts')).toBe(false);
    } finally {
      for (const stream of [ops, own, other]) stream.close();
    }
  });

  it('coalesces a burst of changes of one record into few events', async () => {
    const stream = await openStream(operator);
    try {
      await stream.waitFor((event) => event.event === 'ready');
      const key = await pieceOf(1);
      for (let i = 0; i < 200; i += 1) {
        stack.app.live.feed.deliver({ resource: 'shipments', key, action: 'update', version: i, owners: {} });
      }
      await stream.waitFor((event) => event.event === 'changes');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const received = changesOf(stream).filter((c) => c.id === key);
      expect(received.length).toBeLessThan(5);
      expect(received.at(-1)?.version).toBe(199);
    } finally {
      stream.close();
    }
  });

  it('refuses a stream without credentials or with expired ones, and ends one when its credentials expire', async () => {
    const none = await openStream(undefined);
    expect(none.status).toBe(401);

    const stream = await openStream(carrier);
    expect(stream.status).toBe(200);
    await stream.waitFor((event) => event.event === 'ready');
    stack.clock.offsetMs = 2 * 3600 * 1000;
    try {
      await stream.waitFor((event) => event.event === 'expired', 3000);
      await stream.ended;
      const expired = await openStream(carrier);
      expect(expired.status).toBe(401);
    } finally {
      stack.clock.offsetMs = 0;
      stream.close();
    }
  });

  it('drops a subscriber that does not read instead of buffering for it', async () => {
    const { url, init } = await signRequest(base, { method: 'GET', path: 'webtool/stream' }, operator);
    const target = new URL(url);
    const socket = connect(Number(target.port), target.hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const headers = Object.entries({ ...init.headers, host: target.host })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`GET ${target.pathname} HTTP/1.1\r\n${headers}\r\n\r\n`);
    // Read the answer's first bytes, then never again.
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    const opened = stack.app.live.streams.count();
    expect(opened).toBeGreaterThan(0);

    // Distinct records, many bytes: the socket's buffers fill and the gateway stops writing to it.
    const padding = 'x'.repeat(180);
    let sent = 0;
    const flood = setInterval(() => {
      for (let i = 0; i < 2000; i += 1) {
        sent += 1;
        stack.app.live.feed.deliver({
          resource: 'shipments',
          key: `${padding}${sent}`,
          action: 'update',
          version: 1,
          owners: {},
        });
      }
    }, 10);
    try {
      // The socket is paused, so it would not notice the end: the gateway's count of streams says it.
      while (stack.app.live.streams.count() >= opened) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      clearInterval(flood);
      socket.destroy();
    }
    expect(stack.app.live.streams.count()).toBe(opened - 1);
  }, 20_000);
});
