import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { Piece } from '../../../../src/types/generated/piece.ts';
import type { Db } from '../../../db/adapter.ts';
import { badRequest, HttpError, keyedError, notFound } from '../../http-error.ts';
import { featureOption } from '../../../../src/schema/permissions.ts';
import { webAppLink } from './web-app-link.ts';
import { asksForChange } from '../../resource-registry.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { refusedFields, visibleRecord } from '../../write-pipeline.ts';
import { COMPARTMENTS, HARDWARE_UNITS, readDoc } from '../shared/hardware-store.ts';
import { COURIER_TOKEN_HOURS, PieceEvent, tokenStatusNow } from '../shared/piece-events.ts';
import { pieceEvents, recordEvent } from '../shared/piece-store.ts';
import { pieceNotifications } from '../integrations/notifications.ts';
import {
  cancelVerdict,
  commentError,
  COMMENT_MAX_LENGTH,
  COMMENT_MIN_CHARACTERS,
  courierResend,
  END_USER_RESEND_HOURS,
  endUserResend,
  expiryVerdict,
  extendedExpiry,
  manualProcessingVerdict,
  moveVerdict,
  type Verdict,
} from './piece-troubleshooting.ts';
import { inStore, PIECES } from '../shared/endpoints.ts';
import { optionalVersion } from '../shared/values.ts';
import { bodyParams } from '../shared/params.ts';

/**
 * Shipments (spec 02 §7): `GET webtool/shipments?opname=get_piece_detail | validate_troubleshoot_actions
 * | validate_send_notifications {piece_id}`, and the troubleshooting actions as
 * `PATCH webtool/shipments { opname, piece_id, version? }`: `resend_token {target: end_user | courier}`,
 * `cancel_piece`, `process_manually`, `update_expiry {change: extend_24 | extend_48 | force}`,
 * `add_comment {comment}`, `move_piece {hardware_id?}`. Each write goes through the write pipeline
 * (a piece the caller cannot see is a 404, audited, 409 on a stale version) and appends its event
 * (piece-store.ts), refused with the catalogue text of piece-troubleshooting.ts (409) otherwise.
 */

const HOUR_MS = 60 * 60 * 1000;

const pieceParams = bodyParams({
  piece_id: {
    schema: { type: 'string', pattern: '\\S' },
    refusal: ['gateway.param_required', { name: 'piece_id' }],
    then: [
      { schema: { type: 'string', maxLength: 30 }, refusal: ['gateway.max_length', { name: 'piece_id', max: 30 }] },
    ],
  },
});
const resendParams = bodyParams({
  target: {
    schema: { enum: ['end_user', 'courier'] },
    refusal: ['gateway.one_of', { name: 'target', values: 'end_user, courier' }],
  },
});
const expiryParams = bodyParams({
  change: {
    schema: { enum: ['extend_24', 'extend_48', 'force'] },
    refusal: ['gateway.one_of', { name: 'change', values: 'extend_24, extend_48, force' }],
  },
});

const pieceIdOf = (source: Record<string, unknown>) => pieceParams(source).piece_id;

async function visiblePiece(ctx: OpnameContext, tx: Db, source: Record<string, unknown>) {
  const record = await visibleRecord(tx, ctx.access, ctx.resource, pieceIdOf(source));
  return record as unknown as { key: string; doc: Piece; version: number };
}

const codesOf = async (tx: Db, pieceId: string) => (await pieceEvents(tx, pieceId)).map((event) => event.event_code);

/** The other installed units of the piece's service point, with their free compartments. */
async function otherUnits(tx: Db, piece: Piece) {
  const found = await tx.query<{ hardware_id: number; name: string | null; free: string }>(
    `SELECT (u.doc->>'hardware_id')::int AS hardware_id, coalesce(u.doc->>'name', u.doc->>'sub_id') AS name,
            (SELECT count(*) FROM records c WHERE ${inStore(COMPARTMENTS, 'c')} AND c.doc->>'hardware_id' = u.key
               AND coalesce((c.doc->>'is_free')::boolean, false)) AS free
     FROM records u WHERE ${inStore(HARDWARE_UNITS, 'u')} AND u.doc->>'service_point_id' = $1 AND u.key <> $2
     ORDER BY (u.doc->>'hardware_id')::int`,
    [String(piece.service_point_id), String(piece.hardware_id ?? '')],
  );
  return found.rows.map((row) => ({
    hardware_id: row.hardware_id,
    name: row.name,
    free_compartments: Number(row.free),
  }));
}

async function troubleshootVerdicts(tx: Db, piece: Piece, now: Date) {
  const codes = await codesOf(tx, piece.piece_id);
  const units = await otherUnits(tx, piece);
  return {
    actions: {
      cancel: cancelVerdict(piece, codes),
      process_manually: manualProcessingVerdict(piece, codes),
      extend_expiry: expiryVerdict(piece, now, 'extend'),
      force_expiry: expiryVerdict(piece, now, 'force'),
      move: moveVerdict(
        piece,
        units.reduce((sum, unit) => sum + unit.free_compartments, 0),
      ),
      comment: { allowed: true } as Verdict,
    },
    units,
    comment: { min_characters: COMMENT_MIN_CHARACTERS, max_length: COMMENT_MAX_LENGTH },
  };
}

const sendVerdicts = (piece: Piece, now: Date) => ({
  notifications: { end_user: endUserResend(piece, now), courier: courierResend(piece, now) },
});

function refuse(verdict: Verdict) {
  if (verdict.allowed) return;
  throw new HttpError(409, verdict.reason!, { message_key: verdict.message_key });
}

/** The piece with each token's status as it reads now (an open token past its time is Expired). */
function asSeenNow(piece: Piece, now: Date): Piece {
  return { ...piece, tokens: (piece.tokens ?? []).map((token) => ({ ...token, status: tokenStatusNow(token, now) })) };
}

async function pieceDetail(ctx: OpnameContext, query: Record<string, string>) {
  const record = await visiblePiece(ctx, ctx.db, query);
  const piece = record.doc;
  const now = new Date();
  const compartment = piece.compartment_id
    ? await readDoc<Compartment>(ctx.db, COMPARTMENTS, piece.compartment_id)
    : undefined;
  const unit = piece.hardware_id
    ? await readDoc<{ name?: string; sub_id?: string }>(ctx.db, HARDWARE_UNITS, piece.hardware_id)
    : undefined;
  const servicePoint = await readDoc<{ name?: string; sp_id?: string }>(
    ctx.db,
    'service_points',
    piece.service_point_id,
  );
  return {
    success: true,
    data: {
      piece: { ...asSeenNow(piece, now), version: record.version },
      web_app_link: webAppLink(ctx.access.permissions, piece),
      events: await pieceEvents(ctx.db, piece.piece_id),
      compartment: {
        compartment_id: piece.compartment_id ?? null,
        column: compartment?.column ?? null,
        position: compartment?.position ?? null,
        hardware_id: piece.hardware_id ?? null,
        hardware_name: unit ? (unit.name ?? unit.sub_id ?? null) : null,
        service_point_id: piece.service_point_id,
        service_point_name: servicePoint?.name ?? null,
        sp_id: servicePoint?.sp_id ?? null,
      },
      // What the end user and the courier were sent, from the notifications the piece's events made (issue 28.3).
      notifications: await pieceNotifications(ctx.db, ctx.access, piece.piece_id),
    },
  };
}

/** The shipment logs option of spec 01 §6 ("shipment logs"): the piece logs are read only with it. */
export const SHIPMENT_LOGS_OPTION = 'shipment_logs';

/**
 * The piece's log: its events and the audit trail of its record, newest first (route /piece-logs and
 * `GET webtool/shipments?opname=piece_logs`): both refuse a caller without the shipment logs option.
 */
export async function pieceLogs(ctx: Pick<OpnameContext, 'db' | 'access' | 'resource'>, query: Record<string, string>) {
  if (!featureOption(ctx.access.permissions, ctx.resource.features, SHIPMENT_LOGS_OPTION)) {
    throw new HttpError(403, 'Your access does not include the shipment logs', {
      message_key: 'catalogue.shipment_logs_option',
    });
  }
  let pieceId = query.piece_id;
  if (!pieceId && query.piece_barcode) {
    const found = await ctx.db.query<{ key: string }>(
      `SELECT key FROM records WHERE ${inStore(PIECES)} AND doc->>'piece_barcode' = $1 LIMIT 1`,
      [query.piece_barcode],
    );
    pieceId = found.rows[0]?.key ?? '';
    if (!pieceId) throw notFound();
  }
  const record = await visiblePiece(ctx as OpnameContext, ctx.db, { piece_id: pieceId });
  const audit = await ctx.db.query<{ at: string; username: string | null; action: string; changes: Doc }>(
    `SELECT at, username, action, changes FROM audit_log WHERE ${inStore(PIECES)} AND key = $1 ORDER BY at DESC, id DESC LIMIT 200`,
    [record.key],
  );
  const events = await pieceEvents(ctx.db, record.key);
  const lines = [
    ...events.map((event) => ({
      at: event.at,
      source: 'event',
      actor: event.actor,
      event_code: event.event_code,
      message: JSON.stringify(event.details),
    })),
    ...audit.rows.map((row) => ({
      at: new Date(row.at).toISOString(),
      source: 'audit',
      actor: row.username,
      event_code: null,
      message: `${row.action} ${JSON.stringify(row.changes)}`,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  return { success: true, data: { piece_id: record.key, piece_barcode: record.doc.piece_barcode, lines } };
}

/** One troubleshooting write: checks, appends the event(s) and writes the piece through the pipeline. */
function action(perform: (tx: Db, piece: Piece, body: Doc, actor: string, now: Date) => Promise<Piece>) {
  return async (ctx: OpnameContext, body: Doc) => {
    const pieceId = pieceIdOf(body);
    const actor = ctx.access.caller.username;
    const data = await ctx.writes.change(
      pieceId,
      async (tx, existing) => ({ ...(await perform(tx, existing.doc as unknown as Piece, body, actor, new Date())) }),
      optionalVersion(body),
    );
    return { success: true, data };
  };
}

const resendToken = action(async (tx, piece, body, actor, now) => {
  if (resendParams(body).target === 'courier') {
    refuse(courierResend(piece, now));
    const validUntil = new Date(now.getTime() + COURIER_TOKEN_HOURS * HOUR_MS).toISOString();
    return recordEvent(tx, piece, PieceEvent.TokenSentToCourier, { valid_until: validUntil }, actor, now);
  }
  refuse(endUserResend(piece, now));
  const expiry = new Date(new Date(piece.expiry_at!).getTime() + END_USER_RESEND_HOURS * HOUR_MS).toISOString();
  return recordEvent(tx, piece, PieceEvent.PieceExpiryUpdated, { expiry_at: expiry, resend: 'end_user' }, actor, now);
});

const cancelPiece = action(async (tx, piece, _body, actor, now) => {
  refuse(cancelVerdict(piece, await codesOf(tx, piece.piece_id)));
  return recordEvent(tx, piece, PieceEvent.PieceCancelled, {}, actor, now);
});

const processManually = action(async (tx, piece, _body, actor, now) => {
  refuse(manualProcessingVerdict(piece, await codesOf(tx, piece.piece_id)));
  return recordEvent(tx, piece, PieceEvent.ParcelProcessedManually, {}, actor, now);
});

const EXPIRY_CHANGES = { extend_24: 24, extend_48: 48, force: 'force' } as const;

const updateExpiry = action(async (tx, piece, body, actor, now) => {
  const change = EXPIRY_CHANGES[expiryParams(body).change];
  if (change === 'force') {
    refuse(expiryVerdict(piece, now, 'force'));
    return recordEvent(tx, piece, PieceEvent.ForcedExpired, {}, actor, now);
  }
  refuse(expiryVerdict(piece, now, 'extend'));
  const expiry = extendedExpiry(piece, change, now);
  return recordEvent(tx, piece, PieceEvent.PieceExpiryUpdated, { expiry_at: expiry, hours: change }, actor, now);
});

const addComment = action(async (tx, piece, body, actor, now) => {
  const error = commentError(body.comment);
  if (error) {
    throw refusedFields({
      comment: {
        message: error,
        args: error === 'validation.max_length' ? { max: COMMENT_MAX_LENGTH } : { min: COMMENT_MIN_CHARACTERS },
      },
    });
  }
  return recordEvent(tx, piece, PieceEvent.PieceCommentAdded, { comment: String(body.comment).trim() }, actor, now);
});

const movePiece = action(async (tx, piece, body, actor, now) => {
  const units = await otherUnits(tx, piece);
  const wanted = body.hardware_id === undefined ? undefined : Number(body.hardware_id);
  const targets = wanted === undefined ? units : units.filter((unit) => unit.hardware_id === wanted);
  // Not a shape: the unit must be another installed unit of the piece's service point.
  if (wanted !== undefined && !targets.length) throw badRequest('gateway.other_unit_of_service_point');
  refuse(
    moveVerdict(
      piece,
      targets.reduce((sum, unit) => sum + unit.free_compartments, 0),
    ),
  );
  const target = targets.find((unit) => unit.free_compartments > 0)!;
  const free = await tx.query<{ doc: Compartment }>(
    `SELECT doc FROM records WHERE ${inStore(COMPARTMENTS)} AND doc->>'hardware_id' = $1
       AND coalesce((doc->>'is_free')::boolean, false)
     ORDER BY (doc->>'column')::int, (doc->>'position')::int LIMIT 1`,
    [String(target.hardware_id)],
  );
  const compartment = free.rows[0].doc;
  const from = { hardware_id: piece.hardware_id, compartment_id: piece.compartment_id };
  const started = await recordEvent(
    tx,
    piece,
    PieceEvent.PieceMoveInitiated,
    { from, to_hardware_id: target.hardware_id },
    actor,
    now,
  );
  return recordEvent(
    tx,
    started,
    PieceEvent.PieceMoveToOtherHW,
    { hardware_id: compartment.hardware_id, compartment_id: compartment.compartment_id, from },
    actor,
    new Date(now.getTime() + 1),
  );
});

export const shipmentRules = recordRules<Piece>({
  /** A client's own create or edit would skip the event log: pieces change by bookings and the actions above. */
  async beforeWrite(ctx, _doc, existing) {
    if (ctx.input === undefined) return;
    // A PATCH that asks for nothing (its id and version only) changes nothing, as for any resource.
    if (existing && !asksForChange(ctx.resource, ctx.input)) return existing.doc;
    throw keyedError(409, 'gateway.piece_actions_only');
  },
  queries: {
    get_piece_detail: pieceDetail,
    piece_logs: pieceLogs,
    async validate_troubleshoot_actions(ctx, query) {
      const record = await visiblePiece(ctx, ctx.db, query);
      return { success: true, data: await troubleshootVerdicts(ctx.db, record.doc, new Date()) };
    },
    async validate_send_notifications(ctx, query) {
      const record = await visiblePiece(ctx, ctx.db, query);
      return { success: true, data: sendVerdicts(record.doc, new Date()) };
    },
  },
  patchOpnames: {
    resend_token: resendToken,
    cancel_piece: cancelPiece,
    process_manually: processManually,
    update_expiry: updateExpiry,
    add_comment: addComment,
    move_piece: movePiece,
  },
});
