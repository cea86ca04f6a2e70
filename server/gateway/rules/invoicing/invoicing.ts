import type { Db } from '../../../db/adapter.ts';
import type { Invoice } from '../../../../src/types/generated/invoice.ts';
import type { JobWork } from '../../background-jobs.ts';
import { HttpError, keyedError, notFound } from '../../http-error.ts';
import { insertRecords, type Doc } from '../../record-store.ts';
import type { ResourceRules } from '../../resource-rules.ts';
import { refusedFields } from '../../write-pipeline.ts';
import { translatorFor, startSheet, type Language, languageOf } from '../shared/pdf-sheet.ts';
import { PieceEvent } from '../shared/piece-events.ts';
import { PIECES } from '../shared/piece-store.ts';
import { REPORT_LINK_SECONDS } from '../shipments/shipment-reports.ts';
import { formatReportFile } from '../../../../src/schema/report-file.ts';
import { INVOICES, PRICES } from './price-structure.ts';
import { CARRIERS, inStore } from '../shared/endpoints.ts';
import { findKeys, readDoc } from '../shared/docs.ts';
import { bodyParams, DAY_TEXT, queryParams, requiredText } from '../shared/params.ts';

const requestParams = queryParams({ request_id: requiredText('request_id') });
const downloadParams = queryParams({ file_name: requiredText('file_name') });
/** The log's filters, once typed (`typedRequest`): carrier ids read as numbers, the period's days. */
const logParams = bodyParams({
  carrier_ids: {
    schema: { type: 'array', items: { type: 'number' } },
    refusal: ['gateway.positive_integer', { name: 'carrier_ids' }],
    optional: true,
  },
  from_date: { schema: DAY_TEXT, refusal: ['gateway.param_required', { name: 'from_date' }], optional: true },
  to_date: { schema: DAY_TEXT, refusal: ['gateway.param_required', { name: 'to_date' }], optional: true },
});

/**
 * Carrier invoicing (issue 26 item 5, spec 02 §7 `invoicing`): `GET webtool/invoicing?opname=generate_invoice`
 * with `carrier_ids`, `from_date`, `to_date` answers a `request_id` at once; the invoices are computed in the
 * background and `opname=find&request_id=` answers `pending`, then `ready` with them (the page polls every
 * 3000 ms, spec 01 §9 CSV polling). `opname=invoice_log` lists the invoices of carriers and a period;
 * `opname=download&file_name=` gives an invoice's PDF or CSV (base64 in JSON, as the PDF sheets).
 *
 * What is billed: a delivery (piece type 1) on its courier delivery (event 103) in the period, at the price
 * of its parcel size; an end-user drop-off (type 3) on its courier pickup (202), at the return price. Each
 * at the carrier's price valid on that day (the row with the latest `valid_from` not after it). Test pieces
 * are not billed. VAT is the rate of the carrier's primary country. Invoicing the same carrier and period
 * again issues the same invoice anew (its prices cannot have changed: server/gateway/rules/invoicing/price-structure.ts).
 */

export const INVOICE_JOB = 'carrier_invoice';
const INVOICE_FORM = 'invoice-request';
/** Spec 01 §9: CSV polling every 3000 ms. */
export const INVOICE_POLL_MS = 3000;

/** Standard VAT rates of the seeded countries (percent). */
export const VAT_RATES: Record<string, number> = {
  DK: 25,
  NO: 25,
  SE: 25,
  FI: 25.5,
  PL: 23,
  DE: 19,
  BE: 21,
  RO: 19,
  GR: 24,
};

export interface InvoiceLine {
  item: string;
  valid_from: string;
  quantity: number;
  unit_price: number;
  amount: number;
}

interface InvoicePayload {
  carrier_ids: number[];
  from_date: string;
  to_date: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

interface Billed {
  item: string;
  day: string;
}

/** The pieces billed to the carrier in the period: their price item and the day it was billed on. */
async function billedPieces(db: Db, carrierId: number, from: string, to: string): Promise<Billed[]> {
  const found = await db.query<{ item: string; day: string }>(
    `SELECT CASE WHEN p.doc->>'piece_type' = '3' THEN 'return' ELSE coalesce(p.doc->>'parcel_type', 'medium') END AS item,
            to_char(min(e.at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
       FROM records p JOIN piece_events e ON e.piece_id = p.key
      WHERE p.resource = $1 AND p.doc->>'carrier_id' = $2
        AND coalesce(p.doc->>'test_piece', 'false') <> 'true'
        AND ((p.doc->>'piece_type' = '3' AND e.event_code = $3) OR (p.doc->>'piece_type' <> '3' AND e.event_code = $4))
      GROUP BY p.key, p.doc->>'piece_type', p.doc->>'parcel_type'
     HAVING min(e.at) >= $5::timestamptz AND min(e.at) < ($6::date + 1)::timestamptz`,
    [PIECES, String(carrierId), PieceEvent.CourierPickup, PieceEvent.CourierDelivered, `${from}T00:00:00Z`, to],
  );
  return found.rows;
}

interface PriceRow {
  item: string;
  unit_price: number;
  currency: string;
  valid_from: string;
}

async function pricesOf(db: Db, carrierId: number): Promise<PriceRow[]> {
  const found = await db.query<{ doc: PriceRow }>(
    `SELECT doc FROM records WHERE resource = $1 AND doc->>'carrier_id' = $2 ORDER BY doc->>'valid_from' DESC`,
    [PRICES, String(carrierId)],
  );
  return found.rows.map((row) => row.doc);
}

/** A piece billed on a day no price of its item covers: the price structure must say it first. */
const missingPrice = (item: string, day: string) => keyedError(409, 'catalogue.invoice_price_missing', { item, day });

export interface ComputedInvoice {
  invoice_number: string;
  carrier_id: number;
  carrier_name: string;
  country: string;
  from_date: string;
  to_date: string;
  pieces: number;
  currency: string;
  lines: InvoiceLine[];
  net_total: number;
  vat_rate: number;
  vat_amount: number;
  total: number;
}

/** The invoice of one carrier and period, from its billed pieces and the prices valid on their days. */
export async function computeInvoice(db: Db, carrierId: number, from: string, to: string): Promise<ComputedInvoice> {
  const carrier = await db.query<{ name: string; country: string }>(
    `SELECT doc->>'name' AS name, doc->>'primary_country_code' AS country FROM records
      WHERE ${inStore(CARRIERS)} AND key = $1`,
    [String(carrierId)],
  );
  if (!carrier.rows.length) throw notFound();
  const { name, country } = carrier.rows[0];
  const prices = await pricesOf(db, carrierId);
  const lines = new Map<string, InvoiceLine>();
  let currency = prices[0]?.currency ?? 'EUR';
  const billed = await billedPieces(db, carrierId, from, to);
  for (const piece of billed) {
    const price = prices.find((row) => row.item === piece.item && row.valid_from <= piece.day);
    if (!price) throw missingPrice(piece.item, piece.day);
    currency = price.currency;
    const key = `${price.item}|${price.valid_from}`;
    const line = lines.get(key) ?? {
      item: price.item,
      valid_from: price.valid_from,
      quantity: 0,
      unit_price: price.unit_price,
      amount: 0,
    };
    line.quantity += 1;
    line.amount = round2(line.quantity * line.unit_price);
    lines.set(key, line);
  }
  const order = ['small', 'medium', 'large', 'return'];
  const sorted = [...lines.values()].sort(
    (a, b) => order.indexOf(a.item) - order.indexOf(b.item) || a.valid_from.localeCompare(b.valid_from),
  );
  const net = round2(sorted.reduce((sum, line) => sum + line.amount, 0));
  const rate = VAT_RATES[country] ?? 0;
  const vat = round2((net * rate) / 100);
  return {
    invoice_number: `INV-${String(carrierId).padStart(3, '0')}-${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`,
    carrier_id: carrierId,
    carrier_name: name,
    country,
    from_date: from,
    to_date: to,
    pieces: billed.length,
    currency,
    lines: sorted,
    net_total: net,
    vat_rate: rate,
    vat_amount: vat,
    total: round2(net + vat),
  };
}

const money = (language: Language, value: number, currency: string) =>
  new Intl.NumberFormat(language, { style: 'currency', currency }).format(value);

/** The invoice's lines as CSV, one row per line then the totals; column names in the language's words. */
export function invoiceCsv(invoice: ComputedInvoice, language: Language = 'en-US'): string {
  const t = translatorFor(language);
  const cell = (value: unknown) => {
    const text = String(value);
    return /[",;\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const header = ['item', 'valid_from', 'quantity', 'unit_price', 'amount', 'currency'].map((column) =>
    t(`invoicing.columns.${column}`),
  );
  const rows = invoice.lines.map((line) => [
    t(`choices.price_item.${line.item}`),
    line.valid_from,
    line.quantity,
    line.unit_price.toFixed(2),
    line.amount.toFixed(2),
    invoice.currency,
  ]);
  const totals = [
    [t('invoicing.net_total'), '', invoice.pieces, '', invoice.net_total.toFixed(2), invoice.currency],
    [t('invoicing.vat', { rate: invoice.vat_rate }), '', '', '', invoice.vat_amount.toFixed(2), invoice.currency],
    [t('invoicing.total'), '', '', '', invoice.total.toFixed(2), invoice.currency],
  ];
  return [header, ...rows, ...totals].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** The invoice as an A4 PDF a carrier's accountant reads: parties, period, lines, net, VAT and total. */
export function invoicePdf(invoice: ComputedInvoice, language: Language = 'en-US', now = new Date()): Promise<Buffer> {
  const { doc, done, t, heading, line, finish } = startSheet(language, {
    title: invoice.invoice_number,
    label: 'tickets.pdf.label',
    generated: 'tickets.pdf.generated',
  });
  const price = (value: number) => money(language, value, invoice.currency);
  doc.font('regular').fontSize(9).fillColor('#555').text(t('invoicing.pdf.issuer'));
  doc
    .font('bold')
    .fontSize(20)
    .fillColor('black')
    .text(t('invoicing.pdf.heading', { number: invoice.invoice_number }));
  heading(t('invoicing.pdf.billed_to'));
  line(t('invoicing.columns.carrier'), invoice.carrier_name);
  line(t('invoicing.columns.period'), `${invoice.from_date} – ${invoice.to_date}`);
  line(t('invoicing.columns.pieces'), String(invoice.pieces));
  heading(t('invoicing.pdf.lines'));
  const columns = [50, 210, 300, 370, 460];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').fontSize(10);
    cells.forEach((text, index) =>
      doc.text(text, columns[index], y, { width: index === 0 ? 155 : 85, align: index >= 2 ? 'right' : 'left' }),
    );
    doc.moveDown(0.3);
  };
  row(
    ['item', 'valid_from', 'quantity', 'unit_price', 'amount'].map((column) => t(`invoicing.columns.${column}`)),
    true,
  );
  for (const entry of invoice.lines) {
    row([
      t(`choices.price_item.${entry.item}`),
      entry.valid_from,
      String(entry.quantity),
      price(entry.unit_price),
      price(entry.amount),
    ]);
  }
  doc.moveDown(0.6);
  row([t('invoicing.net_total'), '', '', '', price(invoice.net_total)], true);
  row([t('invoicing.vat', { rate: invoice.vat_rate }), '', '', '', price(invoice.vat_amount)]);
  row([t('invoicing.total'), '', '', '', price(invoice.total)], true);
  doc.x = 50;
  finish(now);
  return done;
}

/** Stores the invoice, replacing an earlier issue of the same carrier and period; its files are drawn on download. */
export async function storeInvoice(db: Db, invoice: ComputedInvoice, now = new Date()) {
  await db.transaction(async (tx) => {
    const earlier = await tx.query<{ key: string }>(
      `SELECT key FROM records WHERE resource = $1 AND doc->>'invoice_number' = $2`,
      [INVOICES, invoice.invoice_number],
    );
    const key =
      earlier.rows[0]?.key ??
      String(
        (
          await tx.query<{ last_value: string }>(
            `INSERT INTO id_sequences (resource, last_value) VALUES ($1, 1)
             ON CONFLICT (resource) DO UPDATE SET last_value = id_sequences.last_value + 1 RETURNING last_value`,
            [INVOICES],
          )
        ).rows[0].last_value,
      );
    await tx.query(`DELETE FROM records WHERE resource = $1 AND key = $2`, [INVOICES, key]);
    // The prices this invoice used can no longer change (price-structure.ts refuses it): they say so,
    // so that they open read-only with the reason instead of as a form whose save is refused.
    await tx.query(
      `UPDATE records SET doc = jsonb_set(doc, '{invoiced}', 'true'), version = version + 1, updated_at = now()
        WHERE resource = $1 AND doc->>'carrier_id' = $2 AND doc->>'valid_from' <= $3
          AND coalesce(doc->>'invoiced', 'false') <> 'true'`,
      [PRICES, String(invoice.carrier_id), invoice.to_date],
    );
    await insertRecords(tx, { endpoint: INVOICES, search: ['invoice_number'] }, [
      { key, doc: invoiceDoc(invoice, Number(key), now) as unknown as Doc },
    ]);
  });
  return invoice.invoice_number;
}

/** The stored invoice record (schemas/invoice.schema.json). */
export function invoiceDoc(invoice: ComputedInvoice, id: number, now: Date): Invoice & { created_at: string } {
  return {
    invoice_id: id,
    invoice_number: invoice.invoice_number,
    carrier_id: invoice.carrier_id,
    from_date: invoice.from_date,
    to_date: invoice.to_date,
    pieces: invoice.pieces,
    currency: invoice.currency,
    net_total: invoice.net_total,
    vat_rate: invoice.vat_rate,
    vat_amount: invoice.vat_amount,
    total: invoice.total,
    lines: invoice.lines,
    file_name: invoice.invoice_number,
    created_at: now.toISOString(),
  };
}

/** The job's work: each carrier's invoice computed and stored; the result lists them. */
export function invoiceWork(db: Db): JobWork {
  return async (payload, progress) => {
    const request = payload as unknown as InvoicePayload;
    const done: Record<string, unknown>[] = [];
    for (const [index, carrierId] of request.carrier_ids.entries()) {
      let invoice: ComputedInvoice;
      try {
        invoice = await computeInvoice(db, carrierId, request.from_date, request.to_date);
      } catch (error) {
        // A failed job carries its message: the page shows it in the user's language.
        if (error instanceof HttpError) throw new Error(JSON.stringify(error.toBody()));
        throw error;
      }
      const file_name = await storeInvoice(db, invoice);
      const { lines: _lines, ...summary } = invoice;
      done.push({ ...summary, file_name });
      await progress((100 * (index + 1)) / request.carrier_ids.length);
    }
    return { invoices: done };
  };
}

/** `carrier_ids` as a comma list or repeated parameter, dates as given: typed before the form's schema checks them. */
function typedRequest(query: Record<string, string | string[]>) {
  const values: Record<string, unknown> = {};
  const raw = query.carrier_ids;
  if (raw !== undefined && raw !== '') {
    values.carrier_ids = (Array.isArray(raw) ? raw : String(raw).split(','))
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  }
  for (const field of ['from_date', 'to_date'] as const) if (query[field]) values[field] = query[field];
  return values;
}

/** The columns of the finished request's file (the page's table, spec 02 §7's report file format). */
const INVOICE_COLUMNS = [
  'invoice_number',
  'carrier_name',
  'from_date',
  'to_date',
  'pieces',
  'currency',
  'net_total',
  'vat_rate',
  'vat_amount',
  'total',
] as const;

const FILE_NAME = /^(INV-\d{3}-\d{8}-\d{8})\.(pdf|csv)$/;

export const invoicingRules: ResourceRules = {
  queries: {
    async generate_invoice(ctx, query) {
      const checked = ctx.validateForm(INVOICE_FORM, typedRequest(query));
      if (!checked.valid) throw refusedFields(checked.errors);
      const payload = checked.data as unknown as InvoicePayload;
      const known = await findKeys(ctx.db, CARRIERS, { where: { key: payload.carrier_ids.map(String) } });
      if (known.length !== payload.carrier_ids.length) {
        throw refusedFields({ carrier_ids: { message: 'validation.choice' } });
      }
      const today = new Date().toISOString().slice(0, 10);
      if (payload.to_date > today) throw refusedFields({ to_date: { message: 'catalogue.invoice_future' } });
      const requestId = await ctx.jobs.enqueue(INVOICE_JOB, ctx.access.caller.username, { ...payload });
      return { success: true, request_id: requestId };
    },

    async find(ctx, query) {
      const { request_id: requestId } = requestParams(query);
      const job = await ctx.jobs.state(requestId, ctx.access.caller.username);
      if (!job) throw new HttpError(404, 'The report file has expired.', { message_key: 'catalogue.report_expired' });
      if (job.status === 'failed') {
        // The job's catalogue refusal (a missing price) is handed on as it was made.
        try {
          const body = JSON.parse(job.message) as Record<string, unknown>;
          return {
            success: true,
            status: 'failed',
            message: body.message,
            message_key: body.message_key,
            args: body.args,
          };
        } catch {
          return { success: true, ...job };
        }
      }
      if (job.status === 'ready') {
        const { invoices } = job.result as { invoices: (Omit<ComputedInvoice, 'lines'> & { file_name: string })[] };
        const rows = invoices.map((invoice) => INVOICE_COLUMNS.map((column) => invoice[column]));
        return {
          success: true,
          status: 'ready',
          invoices,
          file: formatReportFile([...INVOICE_COLUMNS], rows),
          expires_at: new Date(Date.now() + REPORT_LINK_SECONDS * 1000).toISOString(),
        };
      }
      return { success: true, ...job };
    },

    async invoice_log(ctx, query) {
      const values = logParams(typedRequest(query));
      const params: unknown[] = [INVOICES];
      let where = 'resource = $1';
      if (values.carrier_ids?.length) {
        params.push(values.carrier_ids.map(String));
        where += ` AND doc->>'carrier_id' = ANY($${params.length}::text[])`;
      }
      for (const [field, op] of [
        ['from_date', '>='],
        ['to_date', '<='],
      ] as const) {
        const value = values[field];
        if (value === undefined) continue;
        params.push(value);
        // An invoice overlaps the period asked for.
        where += ` AND doc->>'${field === 'from_date' ? 'to_date' : 'from_date'}' ${op} $${params.length}`;
      }
      const found = await ctx.db.query<{ doc: Invoice; carrier_name: string | null }>(
        `SELECT i.doc, c.doc->>'name' AS carrier_name FROM records i
           LEFT JOIN records c ON ${inStore(CARRIERS, 'c')} AND c.key = i.doc->>'carrier_id'
          WHERE ${where.replaceAll('doc->>', 'i.doc->>').replace('resource = $1', 'i.resource = $1')}
          ORDER BY i.doc->>'to_date' DESC, c.doc->>'name' LIMIT 1000`,
        params,
      );
      // The lines stay with the files: the log is the invoices' heads, each named by its carrier.
      const data = found.rows.map(({ doc: { lines: _lines, ...head }, carrier_name }) => ({ ...head, carrier_name }));
      return { success: true, data, total: data.length };
    },

    async download(ctx, query, headers) {
      const { file_name: fileName } = downloadParams(query);
      const match = FILE_NAME.exec(fileName);
      if (!match) throw notFound();
      const found = await ctx.db.query<{ doc: Invoice & { created_at: string } }>(
        `SELECT doc FROM records WHERE resource = $1 AND doc->>'invoice_number' = $2`,
        [INVOICES, match[1]],
      );
      if (!found.rows.length) throw notFound();
      const stored = found.rows[0].doc;
      const carrier = await readDoc<{ name?: string }>(ctx.db, CARRIERS, stored.carrier_id);
      const invoice: ComputedInvoice = {
        ...(stored as unknown as ComputedInvoice),
        carrier_name: carrier?.name ?? String(stored.carrier_id),
        lines: (stored.lines ?? []) as InvoiceLine[],
      };
      const language = languageOf(query as Record<string, string>, headers);
      if (match[2] === 'csv') {
        const csv = invoiceCsv(invoice, language);
        return {
          success: true,
          file_name: fileName,
          content_type: 'text/csv',
          data: Buffer.from(csv).toString('base64'),
        };
      }
      const pdf = await invoicePdf(invoice, language, new Date(stored.created_at));
      return { success: true, file_name: fileName, content_type: 'application/pdf', data: pdf.toString('base64') };
    },
  },
};
