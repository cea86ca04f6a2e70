import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { WebhookEvent } from '../../src/types/generated/webhook-event.ts';
import { appendEvent } from '../../server/gateway/rules/shared/piece-store.ts';
import { WEBHOOKS } from '../../server/gateway/rules/integrations/webhooks.ts';
import { afterAttempt } from '../../server/gateway/webhook-delivery.ts';
import { webhookSettings } from '../../server/gateway/rules/integrations/webhooks.ts';
import { nordPostOutage } from '../../server/seed/webhook-history.ts';
import { startLoopbackReceiver } from './support/loopback-receiver.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startLoopbackReceiver>>;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;
let nowMs = Date.now();
const MINUTE = 60_000;

async function setCarrier(id: number, settings: Record<string, unknown>) {
  await stack.db.query(`UPDATE records SET doc = doc || $2::jsonb WHERE resource = 'partners/carrier' AND key = $1`, [
    String(id),
    JSON.stringify(settings),
  ]);
}

async function readEvent(id: number) {
  const found = await stack.db.query<{ doc: WebhookEvent }>(
    `SELECT doc FROM records WHERE resource = '${WEBHOOKS}' AND key = $1`,
    [String(id)],
  );
  return found.rows[0]?.doc;
}

/** A waiting piece of the carrier (delivered, in a compartment), picked up now: its webhook event. */
async function pickUpPiece(carrierId: number): Promise<WebhookEvent | undefined> {
  const found = await stack.db.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = $1 AND doc->>'state' = '103'
       AND coalesce((doc->>'active')::boolean, false) ORDER BY key LIMIT 1 OFFSET $2`,
    [String(carrierId), picked++],
  );
  const pieceId = found.rows[0].key;
  await stack.db.transaction((tx) => appendEvent(tx, pieceId, 201, {}, 'test'));
  const made = await stack.db.query<{ doc: WebhookEvent }>(
    `SELECT doc FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'piece_id' = $1 AND doc->>'event_type' = 'enduser_pickup'`,
    [pieceId],
  );
  return made.rows[0]?.doc;
}
let picked = 0;

/** Queues the due events and waits until none is on its way any more. */
async function deliverDue() {
  const queued = await stack.app.webhookDelivery.dispatchDue();
  for (let i = 0; i < 200; i += 1) {
    const sending = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'status' = 'sending'`,
    );
    if (Number(sending.rows[0].n) === 0) return queued;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('deliveries did not finish');
}

async function logsOf(session: SigningSession, eventId: number) {
  return stack.send(session, {
    method: 'GET',
    path: 'webtool/alerts/webhooks',
    query: { opname: 'logs', event_id: String(eventId) },
  });
}

beforeAll(async () => {
  receiver = await startLoopbackReceiver();
  stack = await startStack({
    webhooks: { now: () => new Date(nowMs), local: true, timeoutMs: 700, dispatchMs: 0 },
  });
  [operator, carrier, carrier2] = await Promise.all([
    stack.signIn('operator'),
    stack.signIn('carrier'),
    stack.signIn('carrier2'),
  ]);
  // Seeded events still waiting would go to the receiver once the clock moves: the tests count their own.
  await stack.db.query(
    `DELETE FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'status' IN ('pending', 'sending')`,
  );
  // NordPost (carrier 1) subscribes to every event; one retry 2 minutes apart, cycles 10 hours apart.
  await setCarrier(1, {
    webhook_url: `${receiver.url}/nordpost`,
    webhook_http_header: 'Authorization: Bearer nordpost-test',
    webhook_retry_attempts: 1,
    webhook_retry_interval: 2,
    webhook_first_delay: 0,
    webhook_cycle_repeat: 10,
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  receiver?.server.close();
});

describe('webhook events and their delivery', () => {
  it('makes an event from a subscribed piece event, retries a failing receiver and delivers it once it recovers', async () => {
    await stack.db.query(
      `DELETE FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'status' IN ('pending', 'sending')`,
    );
    const event = await pickUpPiece(1);
    expect(event).toMatchObject({ event_type: 'enduser_pickup', carrier_id: 1, status: 'pending', attempts: 0 });
    const id = event!.event_id!;
    nowMs = Date.now() + 5000;
    receiver.state.failing = 2;

    expect(await deliverDue()).toBe(1);
    expect(await readEvent(id)).toMatchObject({ status: 'pending', attempts: 1, last_http_status: 500 });
    // Not due before the interval: nothing is sent.
    expect(await deliverDue()).toBe(0);
    nowMs += 2 * MINUTE;
    expect(await deliverDue()).toBe(1);
    // The cycle (a first attempt and one retry) failed: the next starts 10 hours after the first.
    const waiting = await readEvent(id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2, cycle: 2, cycle_attempts: 0 });
    expect(new Date(waiting!.next_attempt_at!).getTime() - new Date(event!.cycle_started_at!).getTime()).toBe(
      10 * 60 * MINUTE,
    );
    nowMs += 9 * 60 * MINUTE;
    expect(await deliverDue()).toBe(0);
    nowMs += 60 * MINUTE;
    expect(await deliverDue()).toBe(1);
    expect(await readEvent(id)).toMatchObject({ status: 'delivered', attempts: 3, last_http_status: 200 });

    // The receiver saw the event three times under one id, signed with the carrier's API key.
    const mine = receiver.received.filter((r) => r.headers['webhook-id'] === String(id));
    expect(mine.map((r) => r.headers['webhook-attempt'])).toEqual(['1', '2', '3']);
    const carrierDoc = await stack.db.query<{ api_key: string }>(
      `SELECT doc->>'api_key' AS api_key FROM records WHERE resource = 'partners/carrier' AND key = '1'`,
    );
    for (const request of mine) {
      expect(request.path).toBe('/nordpost');
      expect(request.headers.authorization).toBe('Bearer nordpost-test');
      const [t, v1] = String(request.headers['webhook-signature']).split(',');
      const seconds = t.replace('t=', '');
      const expected = createHmac('sha256', carrierDoc.rows[0].api_key)
        .update(`${seconds}.${request.body}`)
        .digest('hex');
      expect(v1).toBe(`v1=${expected}`);
      expect(JSON.parse(request.body)).toMatchObject({ event_id: id, event_type: 'enduser_pickup', carrier_id: 1 });
    }

    // The delivery log: newest first, each attempt's status, duration and what the receiver said.
    const log = await logsOf(operator, id);
    expect(log.status).toBe(200);
    const rows = log.body.data as {
      outcome: string;
      http_status: number;
      duration_ms: number;
      response_excerpt: string;
    }[];
    expect(rows.map((row) => [row.outcome, row.http_status])).toEqual([
      ['delivered', 200],
      ['http_error', 500],
      ['http_error', 500],
    ]);
    expect(rows[1].response_excerpt).toBe('receiver down for maintenance');
    expect(rows.every((row) => row.duration_ms >= 0)).toBe(true);
  });

  it('times out a receiver that never answers, refuses a non-loopback address locally, and fails after 3 cycles', async () => {
    await setCarrier(1, { webhook_url: `${receiver.url}/silent` });
    const event = await pickUpPiece(1);
    const before = receiver.received.length;
    await deliverDue();
    expect(await readEvent(event!.event_id!)).toMatchObject({ status: 'pending', attempts: 1, last_http_status: null });
    expect((await logsOf(operator, event!.event_id!)).body.data).toMatchObject([{ outcome: 'timeout' }]);
    expect(receiver.received.length).toBe(before + 1);

    await setCarrier(1, { webhook_url: 'https://hooks.example.com/nordpost' });
    nowMs += 2 * MINUTE;
    await deliverDue();
    expect((await logsOf(operator, event!.event_id!)).body.data).toMatchObject([
      { outcome: 'refused', http_status: null },
      { outcome: 'timeout' },
    ]);
    expect(receiver.received.length).toBe(before + 1);
    // Two more cycles of refusals, then the event is failed and waits for a resend.
    for (let i = 0; i < 4; i += 1) {
      nowMs += 10 * 60 * MINUTE;
      await deliverDue();
    }
    expect(await readEvent(event!.event_id!)).toMatchObject({ status: 'failed', attempts: 6, cycle: 3 });
    await setCarrier(1, { webhook_url: `${receiver.url}/nordpost` });
  });

  it('takes over the delivery of a process that died mid-way, once, under the same event id', async () => {
    const event = await pickUpPiece(1);
    const key = String(event!.event_id);
    // What a process killed while waiting for the receiver leaves: its job running with a lease that ran
    // out, the event on its way, and an attempt without an outcome.
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{status}', '"sending"') WHERE resource = '${WEBHOOKS}' AND key = $1`,
      [key],
    );
    await stack.db.query(
      `INSERT INTO background_jobs (id, kind, owner, payload, status, runs, claimed_by, lease_until, expires_at)
       VALUES (gen_random_uuid(), 'webhook_delivery', 'webhooks', $1, 'running', 1, 'dead-host:1', now() - interval '1 second',
               now() + interval '1 day')`,
      [JSON.stringify({ event_id: key })],
    );
    await stack.db.query(
      `INSERT INTO webhook_attempts (event_id, at, url, outcome, process) VALUES ($1, now(), $2, 'sending', 'dead-host:1')`,
      [Number(key), `${receiver.url}/nordpost`],
    );
    // Its job still holds it: the dispatcher does not queue a second delivery.
    expect(await stack.app.webhookDelivery.dispatchDue()).toBe(0);
    await expect
      .poll(async () => (await readEvent(Number(key)))?.status, { timeout: 15_000, interval: 100 })
      .toBe('delivered');
    const jobs = await stack.db.query<{ runs: number; status: string }>(
      `SELECT runs, status FROM background_jobs WHERE kind = 'webhook_delivery' AND payload->>'event_id' = $1`,
      [key],
    );
    expect(jobs.rows).toEqual([{ runs: 2, status: 'ready' }]);
    const log = (await logsOf(operator, Number(key))).body.data as { outcome: string }[];
    expect(log.map((row) => row.outcome)).toEqual(['delivered', 'interrupted']);
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === key)).toHaveLength(1);
  });

  it('does not make events the carrier does not subscribe to', async () => {
    await setCarrier(2, { webhook_url: `${receiver.url}/fjordfrakt`, webhook_events: ['piece_cancelled'] });
    expect(await pickUpPiece(2)).toBeUndefined();
  });

  it('resends up to 500 events of the caller, refusing 501 and another carrier’s events with nothing written', async () => {
    const failed = await stack.db.query<{ key: string }>(
      `SELECT key FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'status' = 'failed' AND doc->>'carrier_id' = '1'
       ORDER BY key LIMIT 40`,
    );
    const ids = failed.rows.map((row) => Number(row.key));
    expect(ids.length).toBeGreaterThan(0);
    // The seed's NordPost outage: its events of one hour two days ago, from 14:00 UTC, failed and wait for a resend.
    const nordPostEvents = await stack.db.query<{ at: string }>(
      `SELECT doc->>'at' AS at FROM records WHERE resource = '${WEBHOOKS}' AND doc->>'carrier_id' = '1'`,
    );
    const outage = nordPostOutage(
      new Date(),
      nordPostEvents.rows.map((row) => new Date(row.at)),
    );
    const seededFailures = await stack.db.query<{ n: string; all: string }>(
      `SELECT count(*) FILTER (WHERE doc->>'status' = 'failed') AS n, count(*) AS all FROM records
        WHERE resource = '${WEBHOOKS}' AND doc->>'carrier_id' = '1' AND doc->>'at' >= $1 AND doc->>'at' < $2`,
      [outage.start.toISOString(), outage.end.toISOString()],
    );
    // Every NordPost event of that hour failed, and there is at least one.
    expect(Number(seededFailures.rows[0].n)).toBeGreaterThan(0);
    expect(seededFailures.rows[0].n).toBe(seededFailures.rows[0].all);
    const fingerprint = await recordsFingerprint(stack.db);
    const before = await fingerprint();

    const tooMany = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/alerts/webhooks',
      body: { opname: 'resend', event_ids: Array.from({ length: 501 }, (_, i) => i + 1) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ message_key: 'catalogue.webhook_selection_max', args: { max: 500 } });

    // FjordFrakt's user selects NordPost's events: refused, nothing changed.
    const foreign = await stack.send(carrier2, {
      method: 'PATCH',
      path: 'webtool/alerts/webhooks',
      body: { opname: 'resend', event_ids: ids.slice(0, 3) },
    });
    expect(foreign.status).toBe(403);
    expect(await fingerprint()).toEqual(before);

    const resent = await stack.send(carrier, {
      method: 'PATCH',
      path: 'webtool/alerts/webhooks',
      body: { opname: 'resend', event_ids: ids },
    });
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ queued: ids.length });
    expect(await readEvent(ids[0])).toMatchObject({ status: 'pending', cycle: 1, cycle_attempts: 0 });
    const seen = receiver.received.length;
    await deliverDue();
    for (const id of ids) expect(await readEvent(id)).toMatchObject({ status: 'delivered' });
    // Each resent event reached the receiver exactly once.
    const ids2 = receiver.received.slice(seen).map((r) => r.headers['webhook-id']);
    expect([...ids2].sort()).toEqual(ids.map(String).sort());
  });

  it('shows a carrier only its own webhook events and logs', async () => {
    const own = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/alerts/webhooks',
      query: { offset: '0', limit: '100' },
    });
    expect(own.status).toBe(200);
    const rows = own.body.data as WebhookEvent[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.carrier_id === 1)).toBe(true);
    const others = await stack.send(carrier, {
      method: 'GET',
      path: 'webtool/alerts/webhooks',
      query: { offset: '0', limit: '20', carrier_id: '2' },
    });
    expect(others.body.total).toBe(0);
    expect((await logsOf(carrier2, rows[0].event_id!)).status).toBe(404);
    // The operator filters by carrier, type and status.
    const filtered = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/alerts/webhooks',
      query: { offset: '0', limit: '20', carrier_id: '1', event_type: 'enduser_pickup', status: 'delivered' },
    });
    expect(filtered.status).toBe(200);
    expect((filtered.body.data as WebhookEvent[]).every((row) => row.status === 'delivered')).toBe(true);
    // A support provider may not open webhooks.
    const support = await stack.signIn('support');
    expect((await stack.send(support, { method: 'GET', path: 'webtool/alerts/webhooks', query: {} })).status).toBe(403);
  });

  it('refuses a logs call without a whole positive event id, with its keyed 400', async () => {
    const logs = async (query: Record<string, string>) => {
      const answer = await stack.send(operator, {
        method: 'GET',
        path: 'webtool/alerts/webhooks',
        query: { opname: 'logs', ...query },
      });
      return [answer.status, answer.body.message_key, answer.body.args];
    };
    const required = [400, 'gateway.param_required', { name: 'event_id' }];
    expect(await logs({})).toEqual(required);
    expect(await logs({ event_id: '' })).toEqual(required);
    expect(await logs({ event_id: '000' })).toEqual(required);
    for (const eventId of ['x', '-1', '1.5', '1234567890']) {
      expect(await logs({ event_id: eventId })).toEqual([400, 'gateway.whole_number_expected', { field: 'event_id' }]);
    }
  });

  it('moves through the resend cycle by the carrier’s settings', () => {
    const settings = { ...webhookSettings(undefined), retries: 3, intervalMinutes: 20, cycleHours: 24 };
    const start = new Date('2026-11-01T10:00:00.000Z');
    let event: WebhookEvent = {
      event_id: 1,
      event_type: 'piece_reserved',
      carrier_id: 1,
      piece_id: 'P-1',
      at: start.toISOString(),
      status: 'sending',
      attempts: 0,
      cycle: 1,
      cycle_attempts: 0,
      cycle_started_at: start.toISOString(),
    };
    let now = start;
    const times: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      event = afterAttempt(event, { outcome: 'http_error', status: 500 }, settings, now);
      if (event.status === 'failed') break;
      times.push(event.next_attempt_at!);
      now = new Date(event.next_attempt_at!);
    }
    expect(event).toMatchObject({ status: 'failed', attempts: 12, cycle: 3 });
    expect(times.slice(0, 4)).toEqual([
      '2026-11-01T10:20:00.000Z',
      '2026-11-01T10:40:00.000Z',
      '2026-11-01T11:00:00.000Z',
      '2026-11-02T10:00:00.000Z',
    ]);
  });
});
