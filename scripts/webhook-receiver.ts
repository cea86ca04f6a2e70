/**
 * A loopback webhook receiver for trying the webhooks locally (issue 28, README "Webhooks"):
 *
 *   node --import tsx scripts/webhook-receiver.ts --port 4443 [--down-minutes 2] [--secret <carrier API key>]
 *
 * Listens on https://127.0.0.1:<port>/ with the self-signed loopback certificate of the server tests (a local
 * gateway accepts it for loopback receivers only). Answers 503 during the first `--down-minutes` minutes, then
 * 200. Checks each delivery's `Webhook-Signature` when given the carrier's API key, keeps each `Webhook-Id`
 * once (a repeated id is counted as a duplicate and answered 200 without being processed again), and prints a
 * line per request. `GET /` answers the counts: requests, events processed, duplicates, bad signatures.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4443' },
    'down-minutes': { type: 'string', default: '0' },
    secret: { type: 'string' },
  },
});

const fixture = (name: string) => readFileSync(new URL(`../tests/server/support/fixtures/${name}`, import.meta.url));
const downUntil = Date.now() + Number(values['down-minutes']) * 60_000;
const processed = new Set<string>();
const counts = { requests: 0, processed: 0, duplicates: 0, refused_while_down: 0, bad_signatures: 0 };

/** `t=<seconds>,v1=<hex>`: the HMAC-SHA256 of `<seconds>.<body>` keyed with the carrier's API key. */
function signatureValid(header: string | undefined, body: string, secret: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer({ key: fixture('loopback-receiver.key'), cert: fixture('loopback-receiver.crt') });
server.on('request', (request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts, null, 2));
      return;
    }
    counts.requests += 1;
    const id = String(request.headers['webhook-id'] ?? '');
    const attempt = String(request.headers['webhook-attempt'] ?? '');
    if (values.secret && !signatureValid(request.headers['webhook-signature'] as string, body, values.secret)) {
      counts.bad_signatures += 1;
      console.log(`event ${id} attempt ${attempt}: bad signature, refused`);
      response.writeHead(401).end('{"error":"bad signature"}');
      return;
    }
    if (Date.now() < downUntil) {
      counts.refused_while_down += 1;
      console.log(`event ${id} attempt ${attempt}: down, answered 503`);
      response.writeHead(503).end('receiver down');
      return;
    }
    if (processed.has(id)) {
      counts.duplicates += 1;
      console.log(`event ${id} attempt ${attempt}: DUPLICATE, not processed again`);
    } else {
      processed.add(id);
      counts.processed += 1;
      console.log(`event ${id} attempt ${attempt}: processed (${counts.processed} events)`);
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`Webhook receiver at https://127.0.0.1:${values.port}/ (GET / for the counts)`);
});
