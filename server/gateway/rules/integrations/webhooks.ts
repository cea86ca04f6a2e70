import type { Db } from '../../../db/adapter.ts';
import type { Carrier } from '../../../../src/types/generated/carrier.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import type { WebhookEvent } from '../../../../src/types/generated/webhook-event.ts';
import { PieceEvent } from '../../../../src/types/generated/codes.ts';
import { keyedError, noPermission, notFound } from '../../http-error.ts';
import { searchText, type ListCondition } from '../../record-store.ts';
import type { OpnameContext, ResourceRules } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { readDoc, reserveIds } from '../shared/hardware-store.ts';
import { inStore, WEBHOOKS } from '../shared/endpoints.ts';
import { bodyParams, queryParams, SOME_TEXT } from '../shared/params.ts';
export { WEBHOOKS } from '../shared/endpoints.ts';

/**
 * Webhook events (issue 28, spec 02 §3, §7 `alerts/webhooks`, §9 "webhook selection 500"). A piece event of a
 * carrier whose webhook settings (`webhook_url`, `webhook_events`) subscribe to its type makes a webhook event,
 * a record of resource `alerts/webhooks`, in the piece event's own transaction (`produceWebhookEvent`, called by
 * `recordEvent` of piece-store.ts): either both are stored or neither. The event waits (`pending`) until
 * `next_attempt_at` (the event's time plus the carrier's delay before the first attempt); the delivery worker
 * (server/gateway/webhook-delivery.ts) then sends it and keeps its status, attempts and log.
 *
 * - `GET` lists them (tenancy: a carrier sees its own), filtered by event type, carrier, status, piece id and
 *   period (`from_date`, `to_date` on the event's time).
 * - `PATCH {opname: 'resend', event_ids}` (at most 500, all visible to the caller, or nothing changes) puts them
 *   back to `pending`, due now, in a fresh first cycle.
 * - `GET opname=logs&event_id=` answers the delivery attempts: time, outcome, HTTP status, duration, excerpt.
 */

const CARRIERS = 'partners/carrier';
const WEBHOOK_SEARCH = { search: ['piece_id'] };

/** Spec 02 §5, §9: at most 500 events are selected for one resend. */
export const MAX_RESEND = 500;

export type WebhookEventType = WebhookEvent['event_type'];

/** Which piece events (spec 02 §4) each webhook event type is made from. */
export const WEBHOOK_TYPE_OF_EVENT: Partial<Record<number, WebhookEventType>> = {
  [PieceEvent.HardReserved]: 'piece_reserved',
  [PieceEvent.SoftReserved]: 'piece_reserved',
  [PieceEvent.CourierDelivered]: 'courier_delivered',
  [PieceEvent.EnduserPickup]: 'enduser_pickup',
  [PieceEvent.CourierPickup]: 'courier_pickup',
  [PieceEvent.ReturnPickup]: 'courier_pickup',
  [PieceEvent.ExpiredPiecePickedUp]: 'courier_pickup',
  [PieceEvent.PieceExpired]: 'piece_expired',
  [PieceEvent.ForcedExpired]: 'piece_expired',
  [PieceEvent.PieceCancelled]: 'piece_cancelled',
};

const MINUTE_MS = 60_000;

/** The carrier's webhook settings as the worker reads them (defaults as the carrier schema's). */
export function webhookSettings(carrier: Carrier | undefined) {
  return {
    url: carrier?.webhook_url ?? '',
    header: carrier?.webhook_http_header ?? '',
    events: carrier?.webhook_events ?? [],
    retries: carrier?.webhook_retry_attempts ?? 3,
    intervalMinutes: carrier?.webhook_retry_interval ?? 5,
    firstDelayMinutes: carrier?.webhook_first_delay ?? 0,
    cycleHours: carrier?.webhook_cycle_repeat ?? 12,
    secret: carrier?.api_key ?? '',
  };
}

/** A new webhook event, pending until the carrier's delay before the first attempt has passed. */
export function newWebhookEvent(
  eventId: number,
  piece: Pick<Piece, 'piece_id' | 'carrier_id'>,
  code: number,
  type: WebhookEventType,
  at: Date,
  firstDelayMinutes: number,
): WebhookEvent {
  const due = new Date(at.getTime() + firstDelayMinutes * MINUTE_MS).toISOString();
  return {
    event_id: eventId,
    event_type: type,
    carrier_id: piece.carrier_id,
    piece_id: piece.piece_id,
    at: at.toISOString(),
    status: 'pending',
    attempts: 0,
    cycle: 1,
    cycle_attempts: 0,
    cycle_started_at: due,
    next_attempt_at: due,
    last_http_status: null,
    delivered_at: null,
    piece_event_code: code,
  };
}

/** The records rows of webhook events, as the piece store and the seed write them. */
export function webhookRecordRow(event: WebhookEvent) {
  return {
    key: String(event.event_id),
    partnerId: String(event.carrier_id),
    doc: event,
    search: searchText(WEBHOOK_SEARCH, { ...event }),
  };
}

async function insertWebhookEvent(tx: Db, event: WebhookEvent) {
  const row = webhookRecordRow(event);
  await tx.query(
    `INSERT INTO records (resource, key, partner_type, partner_id, doc, search, created_by, updated_by)
     VALUES ($1, $2, 'carrier', $3, $4, $5, 'webhooks', 'webhooks')`,
    [WEBHOOKS, row.key, row.partnerId, JSON.stringify(row.doc), row.search],
  );
}

/**
 * Called for every piece event, in its transaction: makes the webhook event when the piece's carrier has a
 * return URL and subscribes to the event's type. Answers the event made, if any.
 */
export async function produceWebhookEvent(tx: Db, piece: Piece, code: number, at: Date) {
  const type = WEBHOOK_TYPE_OF_EVENT[code];
  if (!type) return undefined;
  const settings = webhookSettings(await readDoc<Carrier>(tx, CARRIERS, piece.carrier_id));
  if (!settings.url || !settings.events.includes(type)) return undefined;
  const eventId = await reserveIds(tx, WEBHOOKS, 1);
  const event = newWebhookEvent(eventId, piece, code, type, at, settings.firstDelayMinutes);
  await insertWebhookEvent(tx, event);
  return event;
}

/** The events of `ids` the caller may see, read for update. */
async function visibleEvents(tx: Db, ctx: OpnameContext, ids: string[]) {
  const found = await tx.query<{ key: string; doc: WebhookEvent }>(
    `SELECT key, doc FROM records WHERE ${inStore(WEBHOOKS)} AND key = ANY($1::text[]) FOR UPDATE`,
    [ids],
  );
  const scope = scopeFor(ctx.access, ctx.resource);
  return {
    rows: found.rows,
    hidden: found.rows.filter((row) => !visible(scope, row.doc as unknown as Record<string, unknown>)),
  };
}

const resendParams = bodyParams({
  event_ids: {
    schema: { type: 'array', minItems: 1, items: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
    refusal: ['gateway.param_required', { name: 'event_ids' }],
  },
});
const logsParams = queryParams({
  event_id: {
    schema: SOME_TEXT,
    refusal: ['gateway.param_required', { name: 'event_id' }],
    then: [
      {
        schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
        refusal: ['gateway.whole_number_expected', { field: 'event_id' }],
      },
      { schema: { type: 'string', pattern: '[1-9]' }, refusal: ['gateway.param_required', { name: 'event_id' }] },
    ],
  },
});

/** The event ids of a resend, checked: whole numbers, 1 to 500 of them, each once. */
function resendIds(body: Record<string, unknown>): string[] {
  const ids = body.event_ids;
  // Not a shape: a selection over the maximum is a 422 of its own, before each id is checked.
  if (Array.isArray(ids) && ids.length > MAX_RESEND) {
    throw keyedError(422, 'catalogue.webhook_selection_max', { max: MAX_RESEND });
  }
  return [...new Set(resendParams(body).event_ids.map(String))];
}

async function resend(ctx: OpnameContext, body: Record<string, unknown>, clock: () => Date) {
  const ids = resendIds(body);
  const now = clock().toISOString();
  return ctx.db.transaction(async (tx) => {
    const { rows, hidden } = await visibleEvents(tx, ctx, ids);
    // Another carrier's event refuses the whole selection, as an unknown one would: nothing is changed.
    if (hidden.length) throw noPermission();
    if (rows.length !== ids.length) throw keyedError(404, 'catalogue.webhook_events_unknown');
    let queued = 0;
    for (const row of rows) {
      // An event on its way now is left to that delivery.
      if (row.doc.status === 'sending') continue;
      const next: WebhookEvent = {
        ...row.doc,
        status: 'pending',
        cycle: 1,
        cycle_attempts: 0,
        cycle_started_at: now,
        next_attempt_at: now,
      };
      await tx.query(
        `UPDATE records SET doc = $2, version = version + 1, updated_at = now(), updated_by = $3
         WHERE ${inStore(WEBHOOKS)} AND key = $1`,
        [row.key, JSON.stringify(next), ctx.access.caller.username],
      );
      await tx.query(
        `INSERT INTO audit_log (username, partner_type, partner_id, resource, key, action, changes)
         VALUES ($1, $2, $3, '${WEBHOOKS}', $4, 'update', $5)`,
        [
          ctx.access.caller.username,
          ctx.access.partnerType,
          ctx.access.partner ?? null,
          row.key,
          JSON.stringify({ status: { from: row.doc.status, to: 'pending' } }),
        ],
      );
      queued += 1;
    }
    return { success: true, data: { queued, selected: ids.length } };
  });
}

export interface WebhookAttemptRow {
  id: number;
  at: string;
  outcome: string;
  http_status: number | null;
  duration_ms: number | null;
  response_excerpt: string | null;
  url: string | null;
}

async function logs(ctx: OpnameContext, query: Record<string, string>) {
  const eventId = Number(logsParams(query).event_id);
  const event = await readDoc<WebhookEvent>(ctx.db, WEBHOOKS, eventId);
  if (!event || !visible(scopeFor(ctx.access, ctx.resource), event as unknown as Record<string, unknown>)) {
    throw notFound();
  }
  const found = await ctx.db.query<WebhookAttemptRow>(
    `SELECT id::int AS id, at, outcome, http_status, duration_ms, response_excerpt, url
     FROM webhook_attempts WHERE event_id = $1 ORDER BY at DESC, id DESC LIMIT 200`,
    [eventId],
  );
  const data = found.rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
  return { success: true, data, total: data.length };
}

/** `from_date` / `to_date` of the period filter come through the schema's date-range; nothing else to add. */
function listConditions(): ListCondition[] {
  return [];
}

/** The rules of webhook events, with the clock of the delivery worker (tests move it). */
export function createWebhookRules(clock: () => Date = () => new Date()): ResourceRules {
  return {
    // Webhook events are the gateway's: made from piece events, changed by deliveries and resends only. Every
    // field is read-only, so a save keeps the stored event as it is.
    async beforeWrite(_ctx, _doc, existing) {
      if (!existing) throw noPermission();
      return existing.doc;
    },
    async beforeDelete() {
      throw noPermission();
    },
    listConditions,
    patchOpnames: { resend: (ctx, body) => resend(ctx, body, clock) },
    queries: { logs },
  };
}

export const webhookRules = createWebhookRules();
