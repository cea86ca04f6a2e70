import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** What the receiver answered: an HTTP status, or nothing (held, or `/silent`). */
  answered?: number;
}

export interface ReceiverOptions {
  /** Requests to hold without ever answering (a receiver caught mid-request). */
  hold?: (request: Received) => boolean;
}

/**
 * A loopback https webhook receiver (the test certificate of `fixtures/`): answers `state.failing` requests with 500,
 * never answers `/silent` or what `hold` picks, then 200. `inFlightTwice` lists the Webhook-Ids that arrived while a
 * request of the same id was still open: a delivery sent twice at once.
 */
export function startLoopbackReceiver(options: ReceiverOptions = {}) {
  const received: Received[] = [];
  const state = { failing: 0 };
  const open = new Map<string, number>();
  const inFlightTwice: string[] = [];
  const server: Server = createServer({
    key: fixture('loopback-receiver.key'),
    cert: fixture('loopback-receiver.crt'),
  });
  server.on('request', (request: IncomingMessage, response) => {
    const id = String(request.headers['webhook-id'] ?? '');
    if (id && open.get(id)) inFlightTwice.push(id);
    open.set(id, (open.get(id) ?? 0) + 1);
    request.once('close', () => open.set(id, (open.get(id) ?? 1) - 1));
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry: Received = { path: request.url ?? '', headers: request.headers, body };
      received.push(entry);
      if (request.url === '/silent' || options.hold?.(entry)) return; // never answers
      if (state.failing > 0) {
        state.failing -= 1;
        entry.answered = 500;
        response.writeHead(500).end('receiver down for maintenance');
        return;
      }
      entry.answered = 200;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise<{
    url: string;
    received: Received[];
    state: typeof state;
    inFlightTwice: string[];
    server: Server;
  }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `https://127.0.0.1:${port}`, received, state, inFlightTwice, server });
    });
  });
}
