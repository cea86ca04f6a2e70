import type { Db } from '../../../db/adapter.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import type { TestAppUser } from '../../../../src/types/generated/test-app-user.ts';
import { SAVE_FAILED } from '../../../../src/contract/errors.ts';
import { configuredCountry } from '../../../../src/schema/configured-country.ts';
import { comparablePhone, internationalPhone, searchablePhone } from '../../../../src/schema/phone-search.ts';
import { HttpError } from '../../http-error.ts';
import { recordRules } from '../../resource-rules.ts';
import { inStore, TEST_APP_USERS } from '../shared/endpoints.ts';
export { TEST_APP_USERS } from '../shared/endpoints.ts';

/**
 * Infinity test app users (issue 28, spec 02 §3, §7 `testappusers`): end-user app accounts the operator company
 * tests with, by phone and/or e-mail. A piece booked for an active one (its end user's phone or e-mail) is a test
 * shipment (`test_piece`), which the dashboard figures and the invoices leave out; the test app user counts it.
 */

const refused = (field: string, message: string) =>
  new HttpError(422, SAVE_FAILED, { errors: { [field]: { message } } });

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

export const testAppUserRules = recordRules<TestAppUser>({
  async beforeWrite(ctx, doc, existing) {
    const phone = text(doc.phone);
    const email = text(doc.email)?.toLowerCase();
    // Spec 02 §5 (as a booking's end user): a phone or an e-mail names the account.
    if (!phone && !email) throw refused('phone', 'validation.test_app_user_contact');
    let stored: string | null = null;
    if (phone) {
      if (!searchablePhone(phone, configuredCountry)) throw refused('phone', 'validation.invalid_phone');
      stored = internationalPhone(phone, configuredCountry);
    }
    // One account per phone and per e-mail: a second would make the same pieces test shipments twice over.
    const same = await ctx.tx.query<{ field: string }>(
      `SELECT CASE WHEN $2::text IS NOT NULL AND regexp_replace(coalesce(doc->>'phone', ''), '[^0-9+]', '', 'g') = $2
                   THEN 'phone' ELSE 'email' END AS field
       FROM records WHERE ${inStore(TEST_APP_USERS)} AND key <> $1
         AND (($2::text IS NOT NULL AND regexp_replace(coalesce(doc->>'phone', ''), '[^0-9+]', '', 'g') = $2)
           OR ($3::text IS NOT NULL AND lower(doc->>'email') = $3))
       LIMIT 1`,
      [existing?.key ?? '', stored ? comparablePhone(stored) : null, email ?? null],
    );
    if (same.rows.length) throw refused(same.rows[0].field, 'validation.test_app_user_taken');
    return {
      ...doc,
      phone: stored,
      email: email ?? null,
      test_pieces: existing?.doc.test_pieces ?? 0,
    };
  },
});

/**
 * The active test app user a new piece is booked for (by its end user's phone or e-mail), if any; counts the
 * piece on their record. Called by `createPiece` in the piece's transaction.
 */
export async function testAppUserOf(tx: Db, piece: Pick<Piece, 'end_user_phone' | 'end_user_email'>) {
  const phone = text(piece.end_user_phone);
  const email = text(piece.end_user_email)?.toLowerCase();
  if (!phone && !email) return undefined;
  const found = await tx.query<{ key: string }>(
    `SELECT key FROM records WHERE ${inStore(TEST_APP_USERS)} AND coalesce((doc->>'active')::boolean, true)
       AND (($1::text IS NOT NULL AND regexp_replace(coalesce(doc->>'phone', ''), '[^0-9+]', '', 'g') = $1)
         OR ($2::text IS NOT NULL AND lower(doc->>'email') = $2))
     LIMIT 1`,
    [phone ? comparablePhone(phone) : null, email ?? null],
  );
  const key = found.rows[0]?.key;
  if (!key) return undefined;
  await tx.query(
    `UPDATE records SET doc = jsonb_set(doc, '{test_pieces}', to_jsonb(coalesce((doc->>'test_pieces')::int, 0) + 1))
     WHERE ${inStore(TEST_APP_USERS)} AND key = $1`,
    [key],
  );
  return Number(key);
}
