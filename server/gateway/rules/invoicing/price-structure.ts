import type { Db } from '../../../db/adapter.ts';
import type { PriceStructure } from '../../../../src/types/generated/price-structure.ts';
import { keyedError } from '../../http-error.ts';
import { recordRules } from '../../resource-rules.ts';
import { INVOICES, PRICES } from '../shared/endpoints.ts';
export { INVOICES, PRICES } from '../shared/endpoints.ts';

/** Where the price rows live (schemas/price-structure.schema.json) and the carrier invoices (schemas/invoice.schema.json). */

/** The last day of the carrier's invoiced periods (YYYY-MM-DD), or undefined before its first invoice. */
export async function lastInvoicedDay(db: Db, carrierId: unknown): Promise<string | undefined> {
  const found = await db.query<{ last: string | null }>(
    `SELECT max(doc->>'to_date') AS last FROM records WHERE resource = $1 AND doc->>'carrier_id' = $2`,
    [INVOICES, String(carrierId)],
  );
  return found.rows[0].last ?? undefined;
}

/**
 * The price structure's history (issue 26 item 4): a price holds from its `valid_from` until the next
 * row of the same carrier and item. What an invoice was computed from is never rewritten: a row valid
 * from a day already invoiced neither changes nor goes, and no new row (nor a changed date) may start
 * on or before the carrier's last invoiced day. Two rows of one carrier and item on one day would make
 * the price of that day ambiguous, so they are refused too. A negative price is the schema's `minimum`.
 */
export const priceStructureRules = recordRules<PriceStructure>({
  async beforeWrite({ tx }, doc, existing) {
    const invoicedUntil = await lastInvoicedDay(tx, doc.carrier_id);
    if (existing) {
      const before = await lastInvoicedDay(tx, existing.doc.carrier_id);
      if (before && existing.doc.valid_from <= before) {
        throw keyedError(409, 'catalogue.price_invoiced', { date: before });
      }
    }
    if (invoicedUntil && doc.valid_from <= invoicedUntil) {
      throw keyedError(409, 'catalogue.price_backdated', { date: invoicedUntil });
    }
    const same = await tx.query(
      `SELECT 1 FROM records WHERE resource = $1 AND doc->>'carrier_id' = $2 AND doc->>'item' = $3
         AND doc->>'valid_from' = $4 AND key <> $5`,
      [PRICES, String(doc.carrier_id), doc.item, doc.valid_from, existing?.key ?? ''],
    );
    if (same.rows.length) throw keyedError(409, 'catalogue.price_duplicate');
    // Only an invoice marks a price as used (storeInvoice); a row that may still change is not.
    return { ...doc, invoiced: false };
  },
  async beforeDelete({ tx }, existing) {
    const invoicedUntil = await lastInvoicedDay(tx, existing.doc.carrier_id);
    if (invoicedUntil && existing.doc.valid_from <= invoicedUntil) {
      throw keyedError(409, 'catalogue.price_invoiced', { date: invoicedUntil });
    }
  },
});
