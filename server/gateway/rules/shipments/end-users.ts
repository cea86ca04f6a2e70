import type { Db } from '../../../db/adapter.ts';
import type { Booking } from '../../../../src/types/generated/booking.ts';
import type { EndUser } from '../../../../src/types/generated/end-user.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import { comparablePhone, internationalPhone, searchablePhone } from '../../../../src/schema/phone-search.ts';
import { HttpError, noPermission, notFound } from '../../http-error.ts';
import { nonNegativeInt } from '../../list-query.ts';
import { MAX_LIMIT, searchText, type Doc } from '../../record-store.ts';
import { staleVersion, type StoredRecord } from '../../record-writes.ts';
import type { OpnameContext, ResourceRules, RuleContext } from '../../resource-rules.ts';
import { scopeFor } from '../../tenancy.ts';
import { reserveIds } from '../shared/hardware-store.ts';
import { END_USERS, pieceEvents, PIECES } from '../shared/piece-store.ts';
import { PieceType } from '../../../../src/types/generated/codes.ts';
import { inStore } from '../shared/endpoints.ts';
import { bodyParams, queryParams } from '../shared/params.ts';

/**
 * End users (spec 02 §3, §4, §7, `webtool/shipments/endusers`): searched by phone number or e-mail
 * (`filter_type`, `filter_value`), read with their pieces and events (`get_user_events`), and marked
 * for deletion (`DELETE {enduser_id}`): deleted at once when none of their pieces is active, else
 * when the last one is done. A carrier sees the end users of its own pieces, a support provider
 * those of the pieces at its service points (the pieces' tenancy).
 */

/** The country a phone without its prefix is read in, when the request names none (spec 01 §9: PL). */
const DEFAULT_COUNTRY = 'PL';

const INVALID_PHONE = 'Invalid phone number format';

/** The pieces' tenancy for this caller: the piece field that must hold its partner, or all. */
function pieceScope(
  ctx: Pick<OpnameContext, 'access' | 'resource' | 'resources'>,
): { field: string; value: string } | 'all' {
  const pieces = ctx.resources.get(PIECES);
  const scope = pieces ? scopeFor(ctx.access, pieces) : scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  return scope;
}

/** SQL that keeps the end users the caller sees: all, or those with a piece in its tenancy. */
function visibleClause(scope: ReturnType<typeof pieceScope>, params: unknown[]) {
  if (scope === 'all') return '';
  params.push(scope.value);
  return ` AND EXISTS (SELECT 1 FROM records p WHERE ${inStore(PIECES, 'p')} AND p.doc->>'enduser_id' = e.key
             AND p.doc->>'${scope.field}' = $${params.length})`;
}

/**
 * The end users `access` sees, as SQL over `e` (the end-user list's rule: all, or those with a piece in the
 * caller's tenancy), its values pushed onto `params`; undefined when the caller sees no piece at all.
 */
export function visibleEndUsersClause(
  access: OpnameContext['access'],
  resources: ReadonlyMap<string, OpnameContext['resource']>,
  endUsers: OpnameContext['resource'],
  params: unknown[],
): string | undefined {
  const pieces = resources.get(PIECES);
  const scope = pieces ? scopeFor(access, pieces) : scopeFor(access, endUsers);
  return scope === 'none' ? undefined : visibleClause(scope, params);
}

/** Active pieces of an end user, within what the caller sees (all when no caller is given). */
async function activePieces(tx: Db, enduserId: string) {
  const found = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE ${inStore(PIECES)} AND doc->>'enduser_id' = $1
       AND coalesce((doc->>'active')::boolean, false)`,
    [enduserId],
  );
  return Number(found.rows[0].n);
}

/**
 * Deletes an end user: the record, and their personal data on the finished pieces that named them
 * (the pieces stay, for the carrier's and the operator's history).
 */
async function deleteEndUser(tx: Db, enduserId: string, username: string) {
  await tx.query(
    `UPDATE records SET doc = doc - 'enduser_id' || jsonb_build_object(
        'end_user_phone', null, 'end_user_email', null, 'recipient_name', null, 'recipient_phone', null,
        'recipient_email', null, 'sender_name', null, 'sender_phone', null, 'sender_email', null),
       version = version + 1, updated_at = now()
     WHERE ${inStore(PIECES)} AND doc->>'enduser_id' = $1`,
    [enduserId],
  );
  await tx.query(`DELETE FROM records WHERE ${inStore(END_USERS)} AND key = $1`, [enduserId]);
  await tx.query(`INSERT INTO audit_log (username, resource, key, action) VALUES ($1, $2, $3, 'delete')`, [
    username,
    END_USERS,
    enduserId,
  ]);
}

/** End users marked for deletion whose pieces are all done are deleted now (called before every read). */
export async function deleteFinishedEndUsers(db: Db) {
  await db.transaction(async (tx) => {
    const due = await tx.query<{ key: string }>(
      `SELECT e.key FROM records e WHERE ${inStore(END_USERS, 'e')} AND (e.doc->>'marked_for_deletion')::boolean
         AND NOT EXISTS (SELECT 1 FROM records p WHERE ${inStore(PIECES, 'p')} AND p.doc->>'enduser_id' = e.key
           AND coalesce((p.doc->>'active')::boolean, false))`,
    );
    for (const { key } of due.rows) await deleteEndUser(tx, key, 'gateway');
  });
}

/** The end user with the answer's extra facts: how many of their pieces still wait. */
async function withWaiting(tx: Db, doc: EndUser) {
  return { ...doc, active_pieces: await activePieces(tx, String(doc.enduser_id)) };
}

const endUserParams = bodyParams({
  enduser_id: {
    schema: {
      anyOf: [
        { type: 'integer', minimum: 0, maximum: 999_999_999_999 },
        { type: 'string', pattern: '^\\d{1,12}$' },
      ],
    },
    refusal: ['gateway.param_required', { name: 'enduser_id' }],
  },
});

/** One end user the caller sees, or 404. */
async function visibleEndUser(ctx: OpnameContext, enduserId: unknown) {
  endUserParams({ enduser_id: enduserId });
  const params: unknown[] = [String(enduserId)];
  const clause = visibleClause(pieceScope(ctx), params);
  const found = await ctx.db.query<{ doc: EndUser; version: number }>(
    `SELECT e.doc, e.version FROM records e WHERE ${inStore(END_USERS, 'e')} AND e.key = $1${clause}`,
    params,
  );
  const row = found.rows[0];
  if (!row) throw notFound();
  return { ...row.doc, version: row.version };
}

/**
 * The end user a booking's piece names: the one with the booking's end-user phone (or else e-mail),
 * or a new one. The end user is the recipient of a delivery (piece type 1) and the sender of a
 * drop-off (type 3).
 */
export async function endUserOfBooking(tx: Db, booking: Booking) {
  const sender = booking.piece_type === PieceType.EndUserDropOff;
  const typedPhone = (sender ? booking.sender_phone : booking.recipient_phone) ?? null;
  const email = (sender ? booking.sender_email : booking.recipient_email) ?? null;
  const name = (sender ? booking.sender_name : booking.recipient_name) ?? null;
  const country = booking.phone_country ?? DEFAULT_COUNTRY;
  // Kept with its country prefix: a number typed without one is found again by a search in E.164.
  const phone = typedPhone ? internationalPhone(typedPhone, country) : null;
  const e164 = phone ? searchablePhone(phone, country) : undefined;
  const found = await tx.query<{ key: string }>(
    `SELECT key FROM records WHERE ${inStore(END_USERS)} AND NOT coalesce((doc->>'marked_for_deletion')::boolean, false)
       AND (($1::text IS NOT NULL AND regexp_replace(doc->>'phone', '[^0-9+]', '', 'g') = $1)
         OR ($1::text IS NULL AND $2::text IS NOT NULL AND lower(doc->>'email') = lower($2)))
     ORDER BY (key)::bigint LIMIT 1`,
    [e164 ?? (phone ? comparablePhone(phone) : null), email],
  );
  if (found.rows[0]) return { enduser_id: Number(found.rows[0].key), phone, email };
  const id = await reserveIds(tx, END_USERS, 1);
  const doc: EndUser = {
    enduser_id: id,
    name: name || phone || email || `#${id}`,
    phone,
    email,
    country,
    marked_for_deletion: false,
    created_at: new Date().toISOString(),
  };
  await tx.query(`INSERT INTO records (resource, key, doc, search) VALUES ($1, $2, $3, $4)`, [
    END_USERS,
    String(id),
    JSON.stringify(doc),
    searchText({ search: ['name', 'phone', 'email'] }, doc as unknown as Doc),
  ]);
  return { enduser_id: id, phone, email };
}

const filterTypeParams = queryParams({
  filter_type: {
    schema: { enum: ['phone', 'email'] },
    refusal: ['gateway.one_of', { name: 'filter_type', values: 'phone, email' }],
  },
});
const emailFilterParams = queryParams({
  filter_value: {
    schema: { type: 'string', pattern: '\\S' },
    refusal: ['gateway.param_required', { name: 'filter_value' }],
  },
});
/** The page size, once read as a whole number. */
const limitParams = bodyParams({
  limit: {
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
    refusal: ['gateway.limit_range', { max: MAX_LIMIT }],
  },
});

/** Spec 02 §5: the security questions, every one ticked before a phone or e-mail changes. */
const SECURITY_QUESTIONS = ['name', 'recent_parcel', 'service_point'] as const;
const SECURITY_QUESTIONS_UNTICKED = 'Every security question must be ticked to change the phone or e-mail';

const sameText = (a: unknown, b: unknown) => String(a ?? '').trim() === String(b ?? '').trim();

/**
 * An edit of an end user (`PATCH {enduser_id, version, name, phone, email, country, security_questions}`):
 * only one the caller sees (through its pieces); a new phone or e-mail only with every security question
 * ticked, and a phone valid for the end user's country, kept in international form. The ticked questions
 * are checked, never stored.
 */
async function checkedEdit(
  ctx: RuleContext,
  doc: EndUser & { security_questions?: string[] },
  existing: StoredRecord | undefined,
) {
  if (!existing) throw noPermission();
  const params: unknown[] = [existing.key];
  const scope = scopeFor(ctx.access, ctx.resources.get(PIECES) ?? ctx.resource);
  if (scope === 'none') throw notFound();
  const clause = visibleClause(scope, params);
  const seen = await ctx.tx.query(
    `SELECT 1 FROM records e WHERE ${inStore(END_USERS, 'e')} AND e.key = $1${clause}`,
    params,
  );
  if (!seen.rows.length) throw notFound();
  const before = existing.doc as unknown as EndUser;
  const { security_questions: ticked = [], ...rest } = doc;
  const contactChanged = !sameText(rest.phone, before.phone) || !sameText(rest.email, before.email);
  if (contactChanged && !SECURITY_QUESTIONS.every((question) => ticked.includes(question))) {
    throw new HttpError(422, SECURITY_QUESTIONS_UNTICKED, {
      message_key: 'catalogue.end_user_security_questions',
      errors: { security_questions: { message: 'catalogue.end_user_security_questions' } },
    });
  }
  let phone = rest.phone ?? null;
  if (phone && !sameText(phone, before.phone)) {
    const country = rest.country || before.country || DEFAULT_COUNTRY;
    if (!searchablePhone(phone, country)) {
      throw new HttpError(422, INVALID_PHONE, {
        message_key: 'validation.invalid_phone',
        errors: { phone: { message: 'validation.invalid_phone' } },
      });
    }
    phone = internationalPhone(phone, country);
  }
  return { ...rest, phone };
}

export const endUserRules: ResourceRules = {
  async beforeWrite(ctx, doc, existing) {
    return (await checkedEdit(ctx, doc as unknown as EndUser, existing)) as unknown as Doc;
  },

  /**
   * `GET` with `filter_type` (`phone` or `email`) and `filter_value`, or `enduser_id` (one record),
   * offset and limit. A phone is compared in its E.164 form, read in `country` (default PL); a
   * malformed one is refused with 422 on `filter_value`.
   */
  async list(ctx, query) {
    await deleteFinishedEndUsers(ctx.db);
    const params: unknown[] = [];
    let where = '';
    if (query.enduser_id) {
      params.push(query.enduser_id);
      where += ` AND e.key = $${params.length}`;
    }
    const type = query.filter_type;
    const value = (query.filter_value ?? '').trim();
    if (type || value) {
      if (filterTypeParams(query).filter_type === 'phone') {
        const e164 = searchablePhone(value, query.country || DEFAULT_COUNTRY);
        if (!e164) {
          throw new HttpError(422, INVALID_PHONE, {
            message_key: 'validation.invalid_phone',
            errors: { filter_value: { message: 'validation.invalid_phone' } },
          });
        }
        params.push(e164);
        where += ` AND regexp_replace(e.doc->>'phone', '[^0-9+]', '', 'g') = $${params.length}`;
      } else {
        emailFilterParams(query);
        params.push(value.toLowerCase());
        where += ` AND lower(e.doc->>'email') = $${params.length}`;
      }
    }
    if (query.marked_for_deletion === 'true' || query.marked_for_deletion === 'false') {
      params.push(query.marked_for_deletion);
      where += ` AND coalesce(e.doc->>'marked_for_deletion', 'false') = $${params.length}`;
    }
    where += visibleClause(pieceScope(ctx), params);
    const { limit } = limitParams({ limit: nonNegativeInt(query.limit, 'limit', ctx.resource.pageSize) });
    const offset = nonNegativeInt(query.offset, 'offset', 0);
    const total = await ctx.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records e WHERE ${inStore(END_USERS, 'e')}${where}`,
      params,
    );
    const rows = await ctx.db.query<{ doc: EndUser; version: number }>(
      `SELECT e.doc, e.version FROM records e WHERE ${inStore(END_USERS, 'e')}${where}
       ORDER BY (e.key)::bigint DESC OFFSET ${offset} LIMIT ${limit}`,
      params,
    );
    const data = [];
    for (const row of rows.rows) data.push({ ...(await withWaiting(ctx.db, row.doc)), version: row.version });
    return { success: true, data, total: Number(total.rows[0].n) };
  },

  /**
   * `DELETE {enduser_id}`: deleted now when no piece of theirs is active; otherwise marked for
   * deletion, and deleted by the gateway once the last one is done. 409 on a stale `version`.
   */
  async remove(ctx, body) {
    const endUser = await visibleEndUser(ctx, body.enduser_id);
    if (typeof body.version === 'number' && body.version !== endUser.version) throw staleVersion();
    const key = String(endUser.enduser_id);
    const waiting = await activePieces(ctx.db, key);
    if (!waiting) {
      await ctx.db.transaction((tx) => deleteEndUser(tx, key, ctx.access.caller.username));
      return { success: true, deleted: true, marked_for_deletion: true, active_pieces: 0 };
    }
    if (!endUser.marked_for_deletion) {
      await ctx.writes.change(key, async (_tx, existing) => ({ ...existing.doc, marked_for_deletion: true }));
    }
    return { success: true, deleted: false, marked_for_deletion: true, active_pieces: waiting };
  },

  queries: {
    /** `GET ?opname=get_user_events&enduser_id=`: the end user's pieces the caller sees, each with its events. */
    async get_user_events(ctx, query) {
      await deleteFinishedEndUsers(ctx.db);
      const endUser = await visibleEndUser(ctx, query.enduser_id);
      const scope = pieceScope(ctx);
      const params: unknown[] = [String(endUser.enduser_id)];
      const clause = scope === 'all' ? '' : ` AND doc->>'${scope.field}' = $2`;
      if (scope !== 'all') params.push(scope.value);
      const pieces = await ctx.db.query<{ doc: Piece }>(
        `SELECT doc FROM records WHERE ${inStore(PIECES)} AND doc->>'enduser_id' = $1${clause}
         ORDER BY doc->>'created_at' DESC LIMIT 200`,
        params,
      );
      const data = [];
      for (const { doc } of pieces.rows) data.push({ ...doc, events: await pieceEvents(ctx.db, doc.piece_id) });
      return { success: true, enduser: await withWaiting(ctx.db, endUser), data };
    },
  },
};
