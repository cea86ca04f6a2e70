import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { pdfPages } from './support/pdf-text.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/**
 * The price structure and the carrier invoices (issue 26 items 4, 5): a price's history is never rewritten
 * for an invoiced period, a negative price is refused; an invoice is requested, polled by request id, listed
 * in the log and downloaded as PDF and CSV, and its amounts are the seeded pieces times the prices valid on
 * their days, recomputed here independently of the gateway's code.
 */

type Doc = Record<string, unknown>;
let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let fingerprint: () => Promise<{ records: string; audit: string }>;

beforeAll(async () => {
  stack = await startStack();
  fingerprint = await recordsFingerprint(stack.db);
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
});
afterAll(() => stack?.close());

const PRICES = 'webtool/invoicing/price_structure';
const INVOICING = 'webtool/invoicing';
const rows = (answer: { body: Doc }) => answer.body.data as Doc[];
const query = (session: SigningSession, opname: string, values: Record<string, string> = {}) =>
  stack.send(session, { method: 'GET', path: INVOICING, query: { opname, ...values } });

async function refused(request: () => Promise<{ status: number; body: Doc }>, status: number) {
  const snapshot = await fingerprint();
  const answer = await request();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await fingerprint()).toEqual(snapshot);
  return answer.body;
}

/** The first and last day of last month (UTC), as the seeded invoices cover it. */
function lastMonth() {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
  return { from, to };
}
const tomorrow = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);

/** What carrier 1 owes for the period, from the stored pieces, events and prices, without the gateway's code. */
async function expectedNet(carrierId: number, from: string, to: string) {
  const pieces = await stack.db.query<{ key: string; doc: Doc }>(
    `SELECT key, doc FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = $1`,
    [String(carrierId)],
  );
  const events = await stack.db.query<{ piece_id: string; event_code: number; at: Date }>(
    `SELECT piece_id, event_code, at FROM piece_events WHERE event_code IN (103, 202) ORDER BY at`,
  );
  const firstAt = new Map<string, Date>();
  for (const event of events.rows) {
    const key = `${event.piece_id}:${event.event_code}`;
    if (!firstAt.has(key)) firstAt.set(key, new Date(event.at));
  }
  const prices = (
    await stack.db.query<{ doc: { item: string; unit_price: number; valid_from: string } }>(
      `SELECT doc FROM records WHERE resource = 'invoicing/price_structure' AND doc->>'carrier_id' = $1`,
      [String(carrierId)],
    )
  ).rows.map((row) => row.doc);
  let cents = 0;
  let count = 0;
  for (const { key, doc } of pieces.rows) {
    if (doc.test_piece === true) continue;
    const isReturn = doc.piece_type === 3;
    const at = firstAt.get(`${key}:${isReturn ? 202 : 103}`);
    if (!at) continue;
    const day = at.toISOString().slice(0, 10);
    if (day < from || day > to) continue;
    const item = isReturn ? 'return' : String(doc.parcel_type ?? 'medium');
    const price = prices
      .filter((row) => row.item === item && row.valid_from <= day)
      .sort((a, b) => b.valid_from.localeCompare(a.valid_from))[0];
    cents += Math.round(price.unit_price * 100);
    count += 1;
  }
  return { net: cents / 100, count };
}

describe('price structure', () => {
  it('lists the prices for the operator company, newest first, and refuses a carrier', async () => {
    const answer = await stack.send(operator, { method: 'GET', path: PRICES, query: { offset: '0', limit: '100' } });
    expect(answer.status).toBe(200);
    const dates = rows(answer).map((row) => String(row.valid_from));
    expect(dates.length).toBeGreaterThan(4);
    expect(dates).toEqual([...dates].sort().reverse());
    // One change of price in the last three months: the small parcel of carrier 1 has two rows.
    const small = rows(answer).filter((row) => row.carrier_id === 1 && row.item === 'small');
    expect(small).toHaveLength(2);
    expect((await stack.send(carrier, { method: 'GET', path: PRICES, query: {} })).status).toBe(403);
  });

  it('refuses a negative price, a backdated one and a change of an invoiced one; takes a future one', async () => {
    const body = await refused(
      () =>
        stack.send(operator, {
          method: 'POST',
          path: PRICES,
          body: { carrier_id: 1, item: 'small', unit_price: -1, currency: 'DKK', valid_from: tomorrow() },
        }),
      422,
    );
    expect(body.errors).toMatchObject({ unit_price: { message: 'validation.min' } });
    const { to } = lastMonth();
    const backdated = await refused(
      () =>
        stack.send(operator, {
          method: 'POST',
          path: PRICES,
          body: { carrier_id: 1, item: 'small', unit_price: 1, currency: 'DKK', valid_from: to },
        }),
      409,
    );
    expect(backdated).toMatchObject({ message_key: 'catalogue.price_backdated', args: { date: to } });
    const used = rows(
      await stack.send(operator, { method: 'GET', path: PRICES, query: { carrier_id: '1', item: 'medium' } }),
    ).sort((a, b) => String(a.valid_from).localeCompare(String(b.valid_from)))[0];
    // The invoice that used it marked it, so the app opens it read-only with the reason (x-read-only).
    expect(used.invoiced).toBe(true);
    const invoiced = await refused(
      () => stack.send(operator, { method: 'PATCH', path: PRICES, body: { ...used, unit_price: 0.01 } }),
      409,
    );
    expect(invoiced.message_key).toBe('catalogue.price_invoiced');
    await refused(
      () => stack.send(operator, { method: 'DELETE', path: PRICES, body: { price_id: used.price_id } }),
      409,
    );
    const future = await stack.send(operator, {
      method: 'POST',
      path: PRICES,
      body: { carrier_id: 1, item: 'large', unit_price: 9.5, currency: 'DKK', valid_from: tomorrow() },
    });
    expect(future.status, JSON.stringify(future.body)).toBe(201);
    expect((future.body.data as Doc).invoiced).toBe(false);
    const again = await refused(
      () =>
        stack.send(operator, {
          method: 'POST',
          path: PRICES,
          body: { carrier_id: 1, item: 'large', unit_price: 9.9, currency: 'DKK', valid_from: tomorrow() },
        }),
      409,
    );
    expect(again.message_key).toBe('catalogue.price_duplicate');
    const removed = await stack.send(operator, {
      method: 'DELETE',
      path: PRICES,
      body: { price_id: (future.body.data as Doc).price_id },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  });
});

describe('carrier invoicing', () => {
  it('generates, polls, lists and downloads an invoice whose total is the pieces times their prices', async () => {
    const { from, to } = lastMonth();
    const requested = await query(operator, 'generate_invoice', { carrier_ids: '1', from_date: from, to_date: to });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const requestId = String(requested.body.request_id);
    let answer: Doc = {};
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const polled = await query(operator, 'find', { request_id: requestId });
      expect(polled.status).toBe(200);
      answer = polled.body;
      if (answer.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answer.status, JSON.stringify(answer)).toBe('ready');
    const [invoice] = answer.invoices as Doc[];
    const { net, count } = await expectedNet(1, from, to);
    expect(count).toBeGreaterThan(0);
    expect(invoice).toMatchObject({ carrier_id: 1, pieces: count, net_total: net, currency: 'DKK', vat_rate: 25 });
    expect(invoice.total).toBeCloseTo(Math.round(net * 125) / 100, 2);
    expect(String(answer.file).split('#')[0].split('|')).toContain('total');

    const log = await query(operator, 'invoice_log', { carrier_ids: '1', from_date: from, to_date: to });
    const listed = rows(log);
    expect(listed.map((row) => row.invoice_number)).toEqual([invoice.invoice_number]);
    expect(listed[0]).toMatchObject({ carrier_name: 'NordPost', total: invoice.total });

    const pdf = await query(operator, 'download', { file_name: `${String(invoice.file_name)}.pdf`, lang: 'fr-FR' });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(String(pdf.body.data), 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfPages(bytes).join('\n');
    expect(text).toContain(String(invoice.invoice_number));
    expect(text).toContain('NordPost');
    expect(text).toContain('Total TTC');
    const csv = await query(operator, 'download', { file_name: `${String(invoice.file_name)}.csv` });
    const lines = Buffer.from(String(csv.body.data), 'base64').toString().trim().split('\r\n');
    expect(lines[0]).toBe('Parcel size or service,Price valid from,Quantity,Unit price,Amount,Currency');
    expect(lines.at(-1)).toBe(`Total,,,,${Number(invoice.total).toFixed(2)},DKK`);
    // The lines add up to the pieces: one price change in the period gives two lines of that size.
    const quantities = lines.slice(1, -3).map((line) => Number(line.split(',')[2]));
    expect(quantities.reduce((sum, n) => sum + n, 0)).toBe(count);
  });

  it('refuses a period ending before it starts, no carrier, and callers outside the operator company', async () => {
    const ends = await query(operator, 'generate_invoice', {
      carrier_ids: '1',
      from_date: '2026-03-10',
      to_date: '2026-03-01',
    });
    expect(ends.status).toBe(422);
    expect(Object.keys(ends.body.errors as Doc)).toEqual(['to_date']);
    const none = await query(operator, 'generate_invoice', { from_date: '2026-03-01', to_date: '2026-03-10' });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors as Doc)).toEqual(['carrier_ids']);
    expect((await query(carrier, 'invoice_log')).status).toBe(403);
    expect(
      (await query(carrier, 'generate_invoice', { carrier_ids: '1', from_date: '2026-03-01', to_date: '2026-03-10' }))
        .status,
    ).toBe(403);
    expect((await query(operator, 'download', { file_name: '../../etc/passwd' })).status).toBe(404);
  });
});
