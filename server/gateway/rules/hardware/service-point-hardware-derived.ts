import type { Db } from '../../../db/adapter.ts';
import type { HardwareBadge } from '../../../../src/types/generated/hardware-unit.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { HardwareStatus } from '../../../../src/types/generated/codes.ts';
import { HARDWARE_UNITS, inStore, PINPADS, SERVICE_POINTS } from '../shared/endpoints.ts';
import { findDocs, readDoc } from '../shared/docs.ts';

/**
 * The hardware facts a service point shows without opening its units (spec 02 §3): `badges_v2`, the
 * union of its units' badges, and its PIN pad's id, model and status. The gateway keeps them on the
 * service point whenever a unit or PIN pad at it, or the service point itself, is written.
 */

export type ServicePointHardwareFields = Pick<
  ServicePoint,
  | 'badges_v2'
  | 'pinpad_id'
  | 'pinpad_model_id'
  | 'pinpad_status'
  | 'active_pinpad'
  | 'has_hardware'
  | 'service_point_hardware_unit_id'
>;

/** The badges in the order the hardware list names them (common.schema.json hardwareBadge). */
const BADGE_ORDER: HardwareBadge[] = [
  'license_badge',
  'is_terminated',
  'low_battery',
  'comparment_fault',
  'compartment_fault_count',
  'sync_alert',
  'activation_pending',
  'installation_open',
  'installation_pending',
  'inactive_hw',
  'uninstallation_pending',
  'compartment_locked',
  'all_ok',
  'unassigned',
  'assigned',
  'active',
];

export interface UnitBadges {
  hardware_id?: number;
  badges_v2?: HardwareBadge[] | null;
}

export interface PadAtServicePoint {
  pinpad_id: number;
  hardware_model_id: number;
  status?: number;
}

/**
 * Pure, so that the seed derives the demo network's fields the same way. `all_ok` is kept only when
 * every unit is all right: one unit needing a visit is what a service point's row must not hide.
 * `has_hardware` (the search helper's filter, spec 02 §7) and `service_point_hardware_unit_id` (spec
 * 02 §3: the service point's hardware unit, its first by id) count the units that are not terminated.
 */
export function servicePointHardwareFields(
  units: readonly UnitBadges[],
  pad: PadAtServicePoint | undefined,
): ServicePointHardwareFields {
  const held = new Set(units.flatMap((unit) => unit.badges_v2 ?? []));
  if (units.some((unit) => !unit.badges_v2?.includes('all_ok'))) held.delete('all_ok');
  const live = units.filter((unit) => !isTerminated(unit) && unit.hardware_id !== undefined);
  const fields: ServicePointHardwareFields = {
    badges_v2: BADGE_ORDER.filter((badge) => held.has(badge)),
    active_pinpad: pad?.status === HardwareStatus.Active,
    has_hardware: live.length > 0,
    service_point_hardware_unit_id: live.length ? Math.min(...live.map((unit) => unit.hardware_id!)) : null,
  };
  if (pad) {
    fields.pinpad_id = pad.pinpad_id;
    fields.pinpad_model_id = pad.hardware_model_id;
    if (pad.status !== undefined) fields.pinpad_status = pad.status;
  }
  return fields;
}

const PIN_PAD_FIELDS = ['pinpad_id', 'pinpad_model_id', 'pinpad_status'] as const;

/**
 * Stores the fields again on each service point named (null and repeats skipped), in the caller's
 * transaction. The version is left alone on purpose: these fields are the gateway's, no client writes
 * them, and a unit marked for installation must not make the service point's open form stale.
 */
export async function refreshServicePointHardware(tx: Db, servicePointIds: readonly unknown[]) {
  const keys = [...new Set(servicePointIds.filter((id) => id !== undefined && id !== null && id !== '').map(String))];
  for (const key of keys) {
    const servicePoint = await readDoc<ServicePoint>(tx, SERVICE_POINTS, key);
    if (!servicePoint) continue;
    const units = await findDocs<UnitBadges>(tx, HARDWARE_UNITS, { where: { service_point_id: key } });
    const pads = await findDocs<PadAtServicePoint>(tx, PINPADS, {
      where: { service_point_id: key },
      orderBy: [{ field: 'pinpad_id', numeric: true }],
      limit: 1,
    });
    const fields = servicePointHardwareFields(
      units.filter((unit) => !isTerminated(unit)),
      pads[0],
    );
    const refreshed: ServicePoint = { ...servicePoint, ...fields };
    for (const field of PIN_PAD_FIELDS) if (fields[field] === undefined) delete refreshed[field];
    if (JSON.stringify(refreshed) === JSON.stringify(servicePoint)) continue;
    await tx.query(`UPDATE records SET doc = $2 WHERE ${inStore(SERVICE_POINTS)} AND key = $1`, [
      key,
      JSON.stringify(refreshed),
    ]);
  }
}

const isTerminated = (unit: UnitBadges) => unit.badges_v2?.includes('is_terminated') === true;
