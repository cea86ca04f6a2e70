import type { Db } from '../db/adapter.ts';
import type { Carrier } from '../../src/types/generated/carrier.ts';
import type { Piece } from '../../src/types/generated/piece.ts';
import type { WebhookEvent } from '../../src/types/generated/webhook-event.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { newWebhookEvent, webhookSettings, WEBHOOK_TYPE_OF_EVENT } from '../gateway/rules/integrations/webhooks.ts';
import { WEBHOOK_CYCLES } from '../gateway/webhook-delivery.ts';
import type { EventRow } from './piece-network.ts';
import { seededRandom } from './random.ts';

/** How far back the demo's webhook history goes (issue 28: the last 30 days). */
const HISTORY_DAYS = 30;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface WebhookAttemptSeed {
  event_id: number;
  at: string;
  url: string;
  outcome: 'delivered' | 'http_error' | 'timeout';
  http_status: number | null;
  duration_ms: number;
  response_excerpt: string;
}

/**
 * The hour NordPost's receiver was down (README "What to try"): two days ago from 14:00 UTC, so that all three
 * resend cycles (12 hours apart for NordPost) are over by now. Its events of that hour failed every attempt of
 * every cycle and wait for someone to resend them. The hour starts at 14:00 sharp when NordPost has events then
 * (the demo network always has); a small network (the tests' seed) whose events leave that hour empty has its
 * outage from the hour of NordPost's next event instead, so that there always is one to resend.
 */
export function nordPostOutage(now: Date, nordPostEvents: readonly Date[] = []) {
  const start = new Date(now.getTime() - 48 * HOUR_MS);
  start.setUTCHours(14, 0, 0, 0);
  const next = nordPostEvents
    .filter((at) => at >= start && at.getTime() < now.getTime() - 24 * HOUR_MS)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  if (next && next.getTime() >= start.getTime() + HOUR_MS) {
    start.setTime(next.getTime());
    start.setUTCMinutes(0, 0, 0);
  }
  return { start, end: new Date(start.getTime() + HOUR_MS) };
}

/**
 * The webhook events of the last 30 days: one per piece event a carrier's settings subscribe to, delivered at
 * the first attempt (now and then at a retry after a timeout), but NordPost's outage hour, whose events failed.
 * Deterministic, as the rest of the seed.
 */
export function demoWebhookHistory(
  carriers: { id: number; doc: Carrier }[],
  pieces: Piece[],
  events: EventRow[],
  now: Date,
) {
  const random = seededRandom(20261128);
  const settingsOf = new Map(carriers.map((carrier) => [carrier.id, webhookSettings(carrier.doc)]));
  const carrierOf = new Map(pieces.map((piece) => [piece.piece_id, piece.carrier_id]));
  const since = now.getTime() - HISTORY_DAYS * 24 * HOUR_MS;
  const made = events
    .filter((event) => {
      // Events of the last 30 days that have happened (the seed plans some pieces' later events too).
      const time = new Date(event.at).getTime();
      return time >= since && time <= now.getTime() && WEBHOOK_TYPE_OF_EVENT[event.event_code];
    })
    .sort((a, b) => a.at.localeCompare(b.at));
  const subscribedAt = (carrierId: number) =>
    made
      .filter((row) => {
        const settings = carrierOf.get(row.piece_id) === carrierId ? settingsOf.get(carrierId) : undefined;
        return Boolean(settings?.url && settings.events.includes(WEBHOOK_TYPE_OF_EVENT[row.event_code]!));
      })
      .map((row) => new Date(row.at));
  const outage = nordPostOutage(now, subscribedAt(1));
  const records: (Omit<NewRecord, 'doc'> & { doc: WebhookEvent })[] = [];
  const attempts: WebhookAttemptSeed[] = [];
  for (const row of made) {
    const carrierId = carrierOf.get(row.piece_id);
    const settings = carrierId === undefined ? undefined : settingsOf.get(carrierId);
    const type = WEBHOOK_TYPE_OF_EVENT[row.event_code]!;
    if (!settings || !settings.url || !settings.events.includes(type)) continue;
    const at = new Date(row.at);
    const eventId = records.length + 1;
    const fresh = newWebhookEvent(
      eventId,
      { piece_id: row.piece_id, carrier_id: carrierId! },
      row.event_code,
      type,
      at,
      settings.firstDelayMinutes,
    );
    const due = new Date(fresh.next_attempt_at!);
    // Not yet due: it waits for the worker.
    if (due > now) {
      records.push({ key: String(eventId), partnerId: String(carrierId), doc: fresh });
      continue;
    }
    const down = carrierId === 1 && at >= outage.start && at < outage.end;
    let event: WebhookEvent = fresh;
    let cycleStart = due.getTime();
    let when = due.getTime();
    const attempt = (outcome: WebhookAttemptSeed['outcome'], status: number | null, excerpt: string) => {
      const duration = outcome === 'timeout' ? 10_000 : random.int(35, 420);
      attempts.push({
        event_id: eventId,
        at: new Date(when).toISOString(),
        url: settings.url,
        outcome,
        http_status: status,
        duration_ms: duration,
        response_excerpt: excerpt,
      });
      event = { ...event, attempts: (event.attempts ?? 0) + 1, last_http_status: status };
    };
    if (down) {
      for (let cycle = 1; cycle <= WEBHOOK_CYCLES; cycle += 1) {
        for (let i = 0; i <= settings.retries; i += 1) {
          attempt('http_error', 503, '<html><body><h1>503 Service Unavailable</h1></body></html>');
          when += settings.intervalMinutes * MINUTE_MS;
        }
        event = {
          ...event,
          cycle,
          cycle_attempts: settings.retries + 1,
          cycle_started_at: new Date(cycleStart).toISOString(),
        };
        cycleStart += settings.cycleHours * HOUR_MS;
        when = cycleStart;
      }
      records.push({
        key: String(eventId),
        partnerId: String(carrierId),
        doc: { ...event, status: 'failed', next_attempt_at: null },
      });
      continue;
    }
    // Now and then a timeout first, retried after the interval (when that retry is already past).
    if (random.chance(0.03) && when + settings.intervalMinutes * MINUTE_MS <= now.getTime()) {
      attempt('timeout', null, 'No answer within 10000 ms');
      when += settings.intervalMinutes * MINUTE_MS;
    }
    attempt('delivered', 200, '{"received":true}');
    records.push({
      key: String(eventId),
      partnerId: String(carrierId),
      doc: {
        ...event,
        status: 'delivered',
        cycle_attempts: event.attempts,
        delivered_at: new Date(when).toISOString(),
        next_attempt_at: null,
      },
    });
  }
  return { records, attempts };
}

/** The attempts in one statement per chunk. */
export async function insertWebhookAttempts(db: Db, attempts: WebhookAttemptSeed[], chunk = 20000) {
  for (let i = 0; i < attempts.length; i += chunk) {
    const slice = attempts.slice(i, i + chunk);
    await db.query(
      `INSERT INTO webhook_attempts (event_id, at, url, outcome, http_status, duration_ms, response_excerpt, process)
       SELECT e, a, u, o, h, d, r, 'seed'
       FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[])
         AS t(e, a, u, o, h, d, r)`,
      [
        slice.map((row) => row.event_id),
        slice.map((row) => row.at),
        slice.map((row) => row.url),
        slice.map((row) => row.outcome),
        slice.map((row) => row.http_status),
        slice.map((row) => row.duration_ms),
        slice.map((row) => row.response_excerpt),
      ],
    );
  }
}
