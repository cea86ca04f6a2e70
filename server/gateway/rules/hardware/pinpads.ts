import type { Db } from '../../../db/adapter.ts';
import type { Pinpad } from '../../../../src/types/generated/pinpad.ts';
import { readRecord } from '../../record-writes.ts';
import { recordRules, type RuleContext } from '../../resource-rules.ts';
import { actorOf, commitChange } from '../../write-pipeline.ts';

import { fieldRefusal, stateRefusal, unknownReference } from '../shared/hardware-refusals.ts';
import {
  HARDWARE_OWNERS,
  HARDWARE_UNITS,
  PINPADS,
  readDoc,
  recordExists,
  SERVICE_POINTS,
  type StoredUnit,
} from '../shared/hardware-store.ts';
import { assertDeletingPartner, modelOfKind } from './hardware-units.ts';
import { refreshServicePointHardware } from './service-point-hardware-derived.ts';
import { HardwareStatus } from '../../../../src/types/generated/codes.ts';
import { isGiven } from '../shared/values.ts';

/** A stored PIN pad: its schema fields and whether it was terminated, which no client sets. */
type StoredPinpad = Pinpad & { is_terminated?: boolean };

const PINPAD_KIND = 2;
/** installation_sync_status: the pad has been told its service point, and has confirmed it. */
const SYNC_NONE = 0;
const SYNC_PENDING = 1;
const SYNC_DONE = 2;

/** Warehouse without a service point; assigned until the pad confirms its installation; then active. */
export function pinpadStatus(pad: StoredPinpad): 1 | 2 | 4 | 5 {
  if (pad.is_terminated) return HardwareStatus.Terminated;
  if (!isGiven(pad.service_point_id)) return HardwareStatus.InWarehouse;
  return pad.installation_sync_status === SYNC_DONE ? HardwareStatus.Active : HardwareStatus.Assigned;
}

/** Another PIN pad than `own` whose field holds the value. */
async function otherPadWith(tx: Db, field: 'service_point_id' | 'hardware_id', value: unknown, own: string) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE resource = $1 AND doc->>'${field}' = $2 AND key <> $3 LIMIT 1`,
    [PINPADS, String(value), own],
  );
  return found.rows.length > 0;
}

/** Spec 02 §5: one PIN pad per service point and per unit, and the unit at the pad's service point. */
async function assertPlacement(tx: Db, pad: StoredPinpad, own: string) {
  if (isGiven(pad.service_point_id)) {
    if (!(await recordExists(tx, SERVICE_POINTS, pad.service_point_id))) throw unknownReference('service_point_id');
    if (await otherPadWith(tx, 'service_point_id', pad.service_point_id, own)) {
      throw fieldRefusal('pinpad_sp_has_pinpad', 'service_point_id');
    }
  }
  if (!isGiven(pad.hardware_id)) return;
  const unit = await readDoc<StoredUnit>(tx, HARDWARE_UNITS, pad.hardware_id);
  if (!unit) throw unknownReference('hardware_id');
  if (!isGiven(pad.service_point_id) || String(unit.service_point_id ?? '') !== String(pad.service_point_id)) {
    throw fieldRefusal('pinpad_hw_not_at_sp', 'hardware_id');
  }
  const unitHasAnother = isGiven(unit.pinpad_id) && String(unit.pinpad_id) !== own;
  if (unitHasAnother || (await otherPadWith(tx, 'hardware_id', pad.hardware_id, own))) {
    throw fieldRefusal('pinpad_hw_has_pinpad', 'hardware_id');
  }
}

/** Sets a unit's `pinpad_id` through the write stage, audited as part of the pad's change. */
async function linkUnit(ctx: RuleContext, hardwareId: unknown, pinpadId: number | null) {
  const resource = ctx.resources.get(HARDWARE_UNITS)!;
  const unit = await readRecord(ctx.tx, resource, String(hardwareId));
  if (!unit || (unit.doc.pinpad_id ?? null) === pinpadId) return;
  await commitChange(ctx.tx, actorOf(ctx.access), resource, {
    action: 'update',
    existing: unit,
    doc: { ...unit.doc, pinpad_id: pinpadId },
    basedOnVersion: unit.version,
  });
}

/**
 * PIN pads (spec 02 §3, §5): a PIN pad model, a real owner, a service point and unit that fit; the
 * status and installation sync state are the gateway's, and the unit names its pad in the same
 * transaction. A pad at a service point neither moves nor is deleted: it leaves through an uninstall
 * ticket.
 */
export const pinpadRules = recordRules<StoredPinpad>({
  async beforeWrite({ tx }, doc, existing) {
    const before = existing?.doc;
    if (before?.is_terminated) throw stateRefusal('hw_terminated');
    if (!before || String(before.hardware_owner_id) !== String(doc.hardware_owner_id)) {
      if (!(await recordExists(tx, HARDWARE_OWNERS, doc.hardware_owner_id)))
        throw unknownReference('hardware_owner_id');
    }
    await modelOfKind(tx, doc.hardware_model_id, PINPAD_KIND);
    const servicePointChanged = String(before?.service_point_id ?? '') !== String(doc.service_point_id ?? '');
    // Spec 02 §4: a pad leaves its service point through an uninstall ticket, once its parcels are processed.
    if (servicePointChanged && isGiven(before?.service_point_id)) {
      throw fieldRefusal('hw_detach_by_ticket', 'service_point_id');
    }
    const pad: StoredPinpad = {
      ...doc,
      is_terminated: false,
      installation_sync_status: !isGiven(doc.service_point_id)
        ? SYNC_NONE
        : servicePointChanged
          ? SYNC_PENDING
          : (before?.installation_sync_status ?? SYNC_PENDING),
    };
    await assertPlacement(tx, pad, existing?.key ?? '');
    return { ...pad, status: pinpadStatus(pad) };
  },

  async afterWrite(ctx, written, existing) {
    await refreshServicePointHardware(ctx.tx, [existing?.doc.service_point_id, written.service_point_id]);
    const before = existing?.doc.hardware_id;
    if (String(before ?? '') === String(written.hardware_id ?? '')) return;
    if (isGiven(before)) await linkUnit(ctx, before, null);
    if (isGiven(written.hardware_id)) await linkUnit(ctx, written.hardware_id, written.pinpad_id!);
  },

  async beforeDelete(ctx, existing) {
    assertDeletingPartner(ctx, existing.doc.hardware_owner_id);
    if (isGiven(existing.doc.service_point_id)) throw stateRefusal('hw_requires_uninstall');
  },
});
