import type { HardwareUnit } from '../../types/generated/hardware-unit.ts';
import type { ServicePoint } from '../../types/generated/service-point.ts';

/**
 * The rules the Hardware units tab shows before the gateway is asked (the gateway checks them
 * again, server/gateway/rules/hardware/service-point-hardware-plan.ts): which statuses take hardware, the
 * limit, and which installation mark a unit offers.
 */

/** A unit as the gateway answers it, with the version an action is based on. */
export type StoredHardwareUnit = HardwareUnit & { version?: number };

/** 5 Ready for installation, 6 Pending units, 7 Active (spec 02 §4). */
const ACCEPTS_HARDWARE = new Set([5, 6, 7]);
/** Spec 02 §9: hardware units per service point 1-7. */
const MAX_UNITS = 7;
const PLANNED = 2;
const SCHEDULED_REMOVAL = 2;

/** Why no unit can be added now (a translation key and its arguments), or undefined when one can. */
export function addUnitBlocker(
  servicePoint: Pick<ServicePoint, 'status' | 'parked' | 'is_terminated' | 'max_hardware_units'>,
  unitCount: number,
): { message: string; args?: Record<string, unknown> } | undefined {
  if (servicePoint.is_terminated || servicePoint.parked || !ACCEPTS_HARDWARE.has(servicePoint.status)) {
    return { message: 'service_points.hardware.why_not_ready' };
  }
  const max = servicePoint.max_hardware_units ?? MAX_UNITS;
  if (unitCount >= max) return { message: 'service_points.hardware.why_limit', args: { max } };
  return undefined;
}

/**
 * The mark a unit offers: a planned unit is opened or closed for installation; an installed one is
 * closed for uninstallation, or opened again while its uninstallation is pending.
 */
export function installationAction(unit: Pick<StoredHardwareUnit, 'status' | 'badges_v2' | 'removal_state'>) {
  if (unit.status === PLANNED) {
    return unit.badges_v2?.includes('installation_open')
      ? { opname: 'mark_close_for_installation', label: 'service_points.hardware.mark_close' }
      : { opname: 'mark_open_for_installation', label: 'service_points.hardware.mark_open' };
  }
  return unit.removal_state === SCHEDULED_REMOVAL
    ? { opname: 'mark_open_for_installation', label: 'service_points.hardware.reopen' }
    : { opname: 'mark_close_for_installation', label: 'service_points.hardware.close_uninstall' };
}
