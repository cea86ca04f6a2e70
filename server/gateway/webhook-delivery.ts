import { createHmac, randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Db } from '../db/adapter.ts';
import type { Carrier } from '../../src/types/generated/carrier.ts';
import type { WebhookEvent } from '../../src/types/generated/webhook-event.ts';
import { processName, type JobWork } from './background-jobs.ts';
import { readDoc } from './rules/shared/hardware-store.ts';
import { webhookSettings, WEBHOOKS } from './rules/integrations/webhooks.ts';

/**
 * The webhook delivery worker (issue 28). Deliveries are background jobs (`background_jobs`, its lease and
 * `FOR UPDATE SKIP LOCKED`, server/gateway/background-jobs.ts), so any gateway process delivers and a dead
 * process's delivery is taken over when its lease runs out.
 *
 * - `dispatchDue()` (every `dispatchMs` in each process, and by tests after moving the clock) moves the events
 *   whose `next_attempt_at` has come from `pending` to `sending` and queues one `webhook_delivery` job each, in
 *   one transaction: an event is on its way at most once at a time, and never lost between the two. An event
 *   left `sending` without a queued or running job (its job failed) is queued again.
 * - The job (`deliver`) writes an attempt row (`sending`) before the request leaves, POSTs the event to the
 *   carrier's return URL with the carrier's HTTP header and an HMAC signature, waits at most `timeoutMs`, and
 *   writes the outcome and the event's next state in one transaction. A taker that finds a `sending` row of a
 *   dead process closes it as `interrupted` and sends again with the same `Webhook-Id`, which receivers use to
 *   keep each event once (a request that reached the receiver just before the process died cannot be known).
 * - Resend cycle (carrier settings, spec 02 §5 and §9): a cycle is a first attempt and `webhook_retry_attempts`
 *   retries `webhook_retry_interval` minutes apart; a cycle that fails starts again `webhook_cycle_repeat` hours
 *   after the previous one began; after 3 cycles the event is `failed` until someone resends it.
 * - Locally (`local`), only loopback receivers are called (127.0.0.0/8, ::1, localhost), whose self-signed
 *   certificates are accepted; any other address is refused without a request. Elsewhere certificates are checked.
 *
 * Signature: `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the carrier's
 * API key>`; `Webhook-Id: <event id>` and `Webhook-Attempt: <n>` name the delivery.
 */

export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';
/** Resend cycles of one event before it is `failed` (spec 02 §9: "webhook cycles 3"). */
export const WEBHOOK_CYCLES = 3;
const EXCERPT = 500;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface WebhookDeliveryOptions {
  db: Db;
  /** The clock of due times and attempts; tests move it. */
  now?: () => Date;
  /** Local mode: loopback receivers only. */
  local?: boolean;
  /** A receiver that has not answered after this is a timeout. */
  timeoutMs?: number;
  /** How often each process looks for due events (0: only when `dispatchDue` is called). */
  dispatchMs?: number;
}

export type AttemptOutcome = 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'refused';

interface SendResult {
  outcome: AttemptOutcome;
  status: number | null;
  excerpt: string;
}

/** Whether `host` is a loopback address (the only receivers a local gateway calls). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1';
  return false;
}

/** The signature header of a body sent at `seconds` (unix time), keyed with the carrier's secret. */
export function webhookSignature(secret: string, seconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex');
  return `t=${seconds},v1=${digest}`;
}

/** The carrier's "HTTP header" setting (`Name: value`) as a header, if it reads as one. */
function carrierHeader(setting: string): Record<string, string> {
  const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:\s*(.+)$/.exec(setting.trim());
  return match ? { [match[1]]: match[2].trim() } : {};
}

/** What the receiver gets for one event. */
export function webhookBody(event: WebhookEvent, attempt: number) {
  return JSON.stringify({
    event_id: event.event_id,
    event_type: event.event_type,
    carrier_id: event.carrier_id,
    piece_id: event.piece_id,
    piece_event: event.piece_event_code,
    at: event.at,
    attempt,
  });
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; insecure: boolean },
): Promise<SendResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        rejectUnauthorized: !options.insecure,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < EXCERPT) text += chunk;
        });
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          done({
            outcome: status >= 200 && status < 300 ? 'delivered' : 'http_error',
            status,
            excerpt: text.slice(0, EXCERPT),
          });
        });
        res.on('error', (error) =>
          done({ outcome: 'network_error', status: res.statusCode ?? null, excerpt: error.message }),
        );
      },
    );
    const timer = setTimeout(() => {
      done({ outcome: 'timeout', status: null, excerpt: `No answer within ${options.timeoutMs} ms` });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) =>
      done({ outcome: 'network_error', status: null, excerpt: error.message.slice(0, EXCERPT) }),
    );
    req.end(body);
  });
}

/** The event's state after an attempt: delivered, the next retry, the next cycle, or failed. */
export function afterAttempt(
  event: WebhookEvent,
  result: { outcome: AttemptOutcome; status: number | null },
  settings: ReturnType<typeof webhookSettings>,
  now: Date,
): WebhookEvent {
  const attempts = (event.attempts ?? 0) + 1;
  const cycleAttempts = (event.cycle_attempts ?? 0) + 1;
  const base = { ...event, attempts, cycle_attempts: cycleAttempts, last_http_status: result.status };
  if (result.outcome === 'delivered') {
    return { ...base, status: 'delivered', delivered_at: now.toISOString(), next_attempt_at: null };
  }
  if (cycleAttempts < 1 + settings.retries) {
    const next = new Date(now.getTime() + settings.intervalMinutes * MINUTE_MS).toISOString();
    return { ...base, status: 'pending', next_attempt_at: next };
  }
  const cycle = event.cycle ?? 1;
  if (cycle < WEBHOOK_CYCLES) {
    const started = new Date(event.cycle_started_at ?? now.toISOString()).getTime();
    const nextCycle = new Date(Math.max(started + settings.cycleHours * HOUR_MS, now.getTime())).toISOString();
    return {
      ...base,
      status: 'pending',
      cycle: cycle + 1,
      cycle_attempts: 0,
      cycle_started_at: nextCycle,
      next_attempt_at: nextCycle,
    };
  }
  return { ...base, status: 'failed', next_attempt_at: null };
}

export function createWebhookDelivery(options: WebhookDeliveryOptions) {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const local = options.local ?? true;
  const timeoutMs = options.timeoutMs ?? 10_000;

  /** Queues a delivery job for each due event (and for each `sending` one whose job is gone); answers how many. */
  async function dispatchDue(): Promise<number> {
    return db.transaction(async (tx) => {
      const due = await tx.query<{ key: string }>(
        `SELECT key FROM records r
         WHERE resource = '${WEBHOOKS}'
           AND ((doc->>'status' = 'pending' AND doc->>'next_attempt_at' <= $1)
             OR (doc->>'status' = 'sending' AND NOT EXISTS (
                  SELECT 1 FROM background_jobs j WHERE j.kind = '${WEBHOOK_DELIVERY_JOB}'
                    AND j.status IN ('queued', 'running') AND j.payload->>'event_id' = r.key)))
         ORDER BY doc->>'next_attempt_at' LIMIT 500
         FOR UPDATE SKIP LOCKED`,
        [now().toISOString()],
      );
      for (const { key } of due.rows) {
        await tx.query(
          `UPDATE records SET doc = jsonb_set(doc, '{status}', '"sending"'), version = version + 1, updated_at = now()
           WHERE resource = '${WEBHOOKS}' AND key = $1`,
          [key],
        );
        await tx.query(
          `INSERT INTO background_jobs (id, kind, owner, payload, status, expires_at)
           VALUES ($1, '${WEBHOOK_DELIVERY_JOB}', 'webhooks', $2, 'queued', now() + interval '1 day')`,
          [randomUUID(), JSON.stringify({ event_id: key })],
        );
      }
      return due.rows.length;
    });
  }

  async function send(event: WebhookEvent, carrier: Carrier | undefined, attempt: number) {
    const settings = webhookSettings(carrier);
    let url: URL | undefined;
    try {
      url = new URL(settings.url);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'https:') {
      return { settings, url: settings.url, refusal: 'The carrier has no https return URL.' };
    }
    if (local && !isLoopbackHost(url.hostname)) {
      return { settings, url: settings.url, refusal: 'A local gateway delivers to loopback addresses only.' };
    }
    const body = webhookBody(event, attempt);
    const seconds = Math.floor(now().getTime() / 1000);
    const headers = {
      ...carrierHeader(settings.header),
      'webhook-id': String(event.event_id),
      'webhook-attempt': String(attempt),
      'webhook-signature': webhookSignature(settings.secret, seconds, body),
      'user-agent': 'locker-webtool-webhooks/1',
    };
    return { settings, url: settings.url, request: { target: url, headers, body } };
  }

  const deliver: JobWork = async (payload, progress) => {
    const key = String(payload.event_id);
    const event = await readDoc<WebhookEvent>(db, WEBHOOKS, key);
    if (!event || event.status !== 'sending') return { skipped: true };
    // A delivery of a process that died mid-way: closed, then sent again under the same Webhook-Id.
    await db.query(`UPDATE webhook_attempts SET outcome = 'interrupted' WHERE event_id = $1 AND outcome = 'sending'`, [
      Number(key),
    ]);
    const carrier = await readDoc<Carrier>(db, 'partners/carrier', event.carrier_id);
    const attempt = (event.attempts ?? 0) + 1;
    const planned = await send(event, carrier, attempt);
    const startedAt = now();
    const started = Date.now();
    const row = await db.query<{ id: string }>(
      `INSERT INTO webhook_attempts (event_id, job_id, at, url, outcome, process)
       VALUES ($1, $2, $3, $4, 'sending', $5) RETURNING id`,
      [Number(key), null, startedAt.toISOString(), planned.url, processName],
    );
    await progress(10);
    const result: SendResult = planned.request
      ? await post(planned.request.target, planned.request.headers, planned.request.body, {
          timeoutMs,
          insecure: local,
        })
      : { outcome: 'refused', status: null, excerpt: planned.refusal ?? '' };
    const duration = Date.now() - started;
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE webhook_attempts SET outcome = $2, http_status = $3, duration_ms = $4, response_excerpt = $5
         WHERE id = $1`,
        [row.rows[0].id, result.outcome, result.status, duration, result.excerpt],
      );
      const current = await tx.query<{ doc: WebhookEvent }>(
        `SELECT doc FROM records WHERE resource = '${WEBHOOKS}' AND key = $1 FOR UPDATE`,
        [key],
      );
      const stored = current.rows[0]?.doc ?? event;
      const next = afterAttempt(stored, result, planned.settings, now());
      await tx.query(
        `UPDATE records SET doc = $2, version = version + 1, updated_at = now() WHERE resource = '${WEBHOOKS}' AND key = $1`,
        [key, JSON.stringify(next)],
      );
    });
    return { outcome: result.outcome, status: result.status };
  };

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  if (options.dispatchMs) {
    timer = setInterval(() => {
      if (running) return;
      running = dispatchDue()
        .catch((error: unknown) => console.error('webhook dispatch:', error))
        .finally(() => {
          running = undefined;
        });
    }, options.dispatchMs);
    timer.unref();
  }

  return {
    work: { [WEBHOOK_DELIVERY_JOB]: deliver } as Record<string, JobWork>,
    dispatchDue,
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
