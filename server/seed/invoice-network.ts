import type { Db } from '../db/adapter.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { computeInvoice, storeInvoice } from '../gateway/rules/invoicing/invoicing.ts';
import { carriers, carrierSetups } from './network-data.ts';

/**
 * The demo price structure and carrier invoices (issue 26 items 4 to 6): each carrier's prices per parcel
 * size and for a return, in its country's currency, from five months back, with one rise of the parcel
 * prices on the first day of last month; and the invoices of the last three whole months, computed by the
 * gateway's own invoicing from the seeded pieces, so that they equal what generating them again gives.
 */

const CURRENCIES: Record<string, string> = { DK: 'DKK', NO: 'NOK', SE: 'SEK', PL: 'PLN', FI: 'EUR' };
/** Prices in euro, then in the currency by a round rate. */
const RATES: Record<string, number> = { DKK: 7.5, NOK: 11.5, SEK: 11, PLN: 4.3, EUR: 1 };
const BASE = { small: 0.39, medium: 0.49, large: 0.62, return: 0.45 } as const;
/** Last month's rise of the parcel prices (returns stay). */
const RISE = 1.08;

/** The first day (YYYY-MM-DD, UTC) of the month `offset` months from `now`'s. */
export function monthStart(now: Date, offset: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}
function monthEnd(now: Date, offset: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0)).toISOString().slice(0, 10);
}

export function demoPrices(now: Date): NewRecord[] {
  const records: NewRecord[] = [];
  const add = (doc: Record<string, unknown>) => {
    const price_id = records.length + 1;
    // Not invoiced yet: seedInvoices marks the prices its invoices use, as the invoicing job does.
    records.push({ key: String(price_id), doc: { price_id, ...doc, invoiced: false } });
  };
  // Announced first: each carrier's return price rises from next month, a row that may still change.
  for (const carrier of carriers) {
    const currency = CURRENCIES[carrierSetups[carrier.id].country] ?? 'EUR';
    const unit_price = Math.round(BASE.return * RATES[currency] * (1 + (carrier.id - 1) * 0.03) * 1.05 * 100) / 100;
    add({ carrier_id: carrier.id, item: 'return', unit_price, currency, valid_from: monthStart(now, 1) });
  }
  for (const carrier of carriers) {
    const currency = CURRENCIES[carrierSetups[carrier.id].country] ?? 'EUR';
    const rate = RATES[currency];
    // Each carrier its own price list: a little more for the later ones, as negotiated.
    const negotiated = 1 + (carrier.id - 1) * 0.03;
    for (const [item, euro] of Object.entries(BASE)) {
      const base = Math.round(euro * rate * negotiated * 100) / 100;
      const rows: [string, number][] = [[monthStart(now, -5), base]];
      if (item !== 'return') rows.push([monthStart(now, -1), Math.round(base * RISE * 100) / 100]);
      for (const [valid_from, unit_price] of rows)
        add({ carrier_id: carrier.id, item, unit_price, currency, valid_from });
    }
  }
  return records;
}

/** The invoices of the last three whole months for every carrier, stored as the invoicing job stores them. */
export async function seedInvoices(db: Db, now: Date) {
  let count = 0;
  for (const offset of [-3, -2, -1]) {
    for (const carrier of carriers) {
      const invoice = await computeInvoice(db, carrier.id, monthStart(now, offset), monthEnd(now, offset));
      // Issued on the first day of the next month, as an accountant would.
      await storeInvoice(db, invoice, new Date(`${monthStart(now, offset + 1)}T06:00:00Z`));
      count += 1;
    }
  }
  return count;
}
