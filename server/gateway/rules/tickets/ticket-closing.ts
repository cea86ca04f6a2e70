import type { Db } from '../../../db/adapter.ts';
import type { Pinpad } from '../../../../src/types/generated/pinpad.ts';
import type { Ticket } from '../../../../src/types/generated/ticket.ts';
import { TICKET_TYPE } from '../../../../src/schema/ticket-badge.ts';
import type { Doc } from '../../record-store.ts';
import { readRecord } from '../../record-writes.ts';
import type { RuleContext } from '../../resource-rules.ts';
import { actorOf, commitChange } from '../../write-pipeline.ts';

import {
  compartmentsOf,
  HARDWARE_UNITS,
  holdsParcel,
  PINPADS,
  readDoc,
  withDerivedFields,
  type StoredUnit,
} from '../shared/hardware-store.ts';
import { pinpadStatus } from '../hardware/pinpads.ts';
import { refreshServicePointHardware } from '../hardware/service-point-hardware-derived.ts';
import { ticketStateRefusal } from '../shared/ticket-refusals.ts';
import { HardwareStatus, RemovalState } from '../../../../src/types/generated/codes.ts';
import { moveParcels, parcelMovePlan } from './ticket-parcel-move.ts';
import { TICKET_OPTIONS, ticketOption } from '../../../../src/schema/ticket-options.ts';
import { isSet } from '../shared/values.ts';

/**
 * What closing a ticket does to the hardware (spec 02 §4): an install ticket installs its planned
 * units; an uninstall ticket is the only way a unit or PIN pad leaves its service point, once its
 * parcels are processed; a PIN pad ticket that brought a pad from the warehouse places it. Each change
 * goes through the write stage of the unit or pad, audited as the caller's, in the ticket's transaction.
 */

const SYNC_NONE = 0;
const SYNC_PENDING = 1;

async function unitHoldsParcels(tx: Db, hardwareId: unknown) {
  if (!isSet(hardwareId)) return false;
  return (await compartmentsOf(tx, String(hardwareId))).some(holdsParcel);
}

/** Whether the caller's role moves a removed unit's parcels (spec 01 §6, server/gateway/rules/tickets/ticket-parcel-move.ts). */
const movesParcels = (ctx: RuleContext) => ticketOption(ctx.access.permissions, TICKET_OPTIONS.parcelMove);

/**
 * Refuses to close an uninstall ticket while the unit (or the PIN pad's unit) still holds parcels; with
 * the uninstall with parcel move option, a unit's parcels move instead, unless there is no room for them.
 * A PIN pad's unit stays at its service point: its parcels do not move.
 */
export async function assertMayClose(ctx: RuleContext, ticket: Ticket) {
  const { tx } = ctx;
  if (ticket.ticket_type === TICKET_TYPE.uninstallHardware && (await unitHoldsParcels(tx, ticket.hardware_unit_id))) {
    if (!movesParcels(ctx)) throw ticketStateRefusal('hw_contains_parcels');
    if (!(await parcelMovePlan(tx, ticket.hardware_unit_id))) throw ticketStateRefusal('hw_parcels_no_room');
  }
  if (ticket.ticket_type === TICKET_TYPE.uninstallPinpad) {
    const pad = isSet(ticket.pinpad_id) ? await readDoc<Pinpad>(tx, PINPADS, ticket.pinpad_id) : undefined;
    if (await unitHoldsParcels(tx, pad?.hardware_id ?? ticket.hardware_unit_id)) {
      throw ticketStateRefusal('hw_contains_parcels');
    }
  }
}

async function writeUnit(ctx: RuleContext, hardwareId: unknown, change: (unit: StoredUnit) => StoredUnit) {
  const resource = ctx.resources.get(HARDWARE_UNITS)!;
  const existing = await readRecord(ctx.tx, resource, String(hardwareId));
  if (!existing) return undefined;
  const unit = change(existing.doc as unknown as StoredUnit);
  const refreshed = await withDerivedFields(ctx.tx, unit, await compartmentsOf(ctx.tx, existing.key));
  await commitChange(ctx.tx, actorOf(ctx.access), resource, {
    action: 'update',
    existing,
    doc: refreshed as unknown as Doc,
    basedOnVersion: existing.version,
  });
  return existing.doc as unknown as StoredUnit;
}

async function writePad(ctx: RuleContext, pinpadId: unknown, change: (pad: Pinpad) => Pinpad) {
  const resource = ctx.resources.get(PINPADS)!;
  const existing = await readRecord(ctx.tx, resource, String(pinpadId));
  if (!existing) return undefined;
  const pad = change(existing.doc as unknown as Pinpad);
  await commitChange(ctx.tx, actorOf(ctx.access), resource, {
    action: 'update',
    existing,
    doc: { ...pad, status: pinpadStatus(pad) } as unknown as Doc,
    basedOnVersion: existing.version,
  });
  return existing.doc as unknown as Pinpad;
}

/** A unit leaves its service point: back to the warehouse, removed, without its PIN pad. */
async function uninstallUnit(ctx: RuleContext, hardwareId: unknown) {
  const before = await writeUnit(ctx, hardwareId, (unit) => {
    const next: StoredUnit = {
      ...unit,
      service_point_id: null,
      pinpad_id: null,
      status: HardwareStatus.InWarehouse,
      removal_state: RemovalState.Removed,
    };
    delete next.installation_open;
    return next;
  });
  if (before && isSet(before.pinpad_id)) {
    await writePad(ctx, before.pinpad_id, (pad) => ({ ...pad, hardware_id: null }));
  }
  return before?.service_point_id;
}

async function uninstallPad(ctx: RuleContext, pinpadId: unknown) {
  const before = await writePad(ctx, pinpadId, (pad) => ({
    ...pad,
    service_point_id: null,
    hardware_id: null,
    installation_sync_status: SYNC_NONE,
  }));
  if (before && isSet(before.hardware_id)) {
    await writeUnit(ctx, before.hardware_id, (unit) => ({ ...unit, pinpad_id: null }));
  }
}

/** A pad brought from the warehouse by a PIN pad ticket joins the service point (and its unit). */
async function placePad(ctx: RuleContext, ticket: Ticket) {
  const before = await writePad(ctx, ticket.pinpad_id, (pad) =>
    isSet(pad.service_point_id)
      ? pad
      : {
          ...pad,
          service_point_id: ticket.sp_id,
          hardware_id: ticket.hardware_unit_id ?? null,
          installation_sync_status: SYNC_PENDING,
        },
  );
  if (before && !isSet(before.service_point_id) && isSet(ticket.hardware_unit_id)) {
    await writeUnit(ctx, ticket.hardware_unit_id, (unit) => ({ ...unit, pinpad_id: Number(ticket.pinpad_id) }));
  }
}

export async function closeTicketEffects(ctx: RuleContext, ticket: Ticket) {
  switch (ticket.ticket_type) {
    case TICKET_TYPE.install:
      for (const id of ticket.hardware_unit_ids ?? []) {
        await writeUnit(ctx, id, (unit) => {
          const next: StoredUnit = {
            ...unit,
            status: HardwareStatus.Installed,
            removal_state: RemovalState.NotRemoved,
          };
          delete next.installation_open;
          return next;
        });
      }
      break;
    case TICKET_TYPE.uninstallHardware: {
      // assertMayClose let a unit with parcels through only with the option and room for them.
      const moves = movesParcels(ctx) ? await parcelMovePlan(ctx.tx, ticket.hardware_unit_id) : [];
      if (moves === undefined) throw ticketStateRefusal('hw_parcels_no_room');
      await moveParcels(ctx.tx, moves, ctx.access.caller.username, ticket.ticket_id);
      await uninstallUnit(ctx, ticket.hardware_unit_id);
      break;
    }
    case TICKET_TYPE.uninstallPinpad:
      if (isSet(ticket.pinpad_id)) await uninstallPad(ctx, ticket.pinpad_id);
      break;
    case TICKET_TYPE.maintainPinpad:
      if (isSet(ticket.pinpad_id)) await placePad(ctx, ticket);
      break;
    default:
      return;
  }
  await refreshServicePointHardware(ctx.tx, [ticket.sp_id]);
}
