import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { HardwareBadge, HardwareUnit } from '../../../../src/types/generated/hardware-unit.ts';
import { HardwareStatus, LicenseBadge, RemovalState, Warranty } from '../../../../src/types/generated/codes.ts';

/**
 * The read-only facts of a hardware unit that the gateway derives, never the client: its status, its
 * badges (spec 02 §3, `badges_v2`), its compartment counts, its alert flag and its warranty badges.
 * Pure, so that every badge has a unit test; the gateway stores the result with the unit (the list
 * filters on it) and derives it again whenever the unit, its compartments or its service point change.
 */

/** The unit as stored: the schema's fields and the device's own report, which no client writes. */
export type UnitState = Pick<
  HardwareUnit,
  | 'status'
  | 'is_terminated'
  | 'service_point_id'
  | 'removal_state'
  | 'license_status'
  | 'last_sync_at'
  | 'warranty_expiry_date'
  | 'battery_warranty_expiry_date'
  | 'installation_open'
> & {
  /** Charge of the unit's battery in percent, as the unit last reported it. */
  battery_level?: number | null;
};

export type CompartmentState = Pick<Compartment, 'is_faulty' | 'is_locked' | 'is_inactive_comp'>;

export interface DerivationContext {
  /** Status of the service point the unit is at, when it is at one. */
  servicePointStatus?: number;
  now: Date;
}

export type DerivedHardwareFields = Required<
  Pick<
    HardwareUnit,
    | 'status'
    | 'badges_v2'
    | 'compartment_count'
    | 'compartment_fault_count'
    | 'alert'
    | 'warranty_expiry_badge'
    | 'battery_warranty_badge'
    | 'is_terminated'
  >
>;

/** Service point statuses (spec 02 §4) that say where an assigned unit's installation stands. */
const SP_READY_FOR_INSTALLATION = 5;
const SP_INACTIVE = 8;

/** A battery below this charge needs a visit. */
export const LOW_BATTERY_PERCENT = 20;
/** An installed unit that has not synchronised for this long raises a sync alert. */
export const SYNC_ALERT_AFTER_MS = 24 * 60 * 60 * 1000;

/** NoWarranty without a date; under warranty up to and including the date (UTC calendar day). */
export function warrantyBadge(date: string | undefined, now: Date): 1 | 2 | 3 {
  if (!date) return Warranty.NoWarranty;
  return date >= now.toISOString().slice(0, 10) ? Warranty.UnderWarranty : Warranty.WarrantyExpired;
}

/**
 * Where the unit stands: terminated is final; a unit without a service point is in the warehouse;
 * at a service point it keeps the stage it reached there (planned, installed, active).
 */
export function hardwareStatus(unit: UnitState): 1 | 2 | 3 | 4 | 5 {
  if (unit.is_terminated) return HardwareStatus.Terminated;
  if (unit.service_point_id === undefined || unit.service_point_id === null) return HardwareStatus.InWarehouse;
  const stage = unit.status;
  return stage === HardwareStatus.Installed || stage === HardwareStatus.Active ? stage : HardwareStatus.Assigned;
}

/**
 * A planned unit's installation is open when the service point marked it so; unmarked, when the
 * service point is ready for installation. The mark wins both ways, so that a unit can be held back.
 */
function installationOpen(unit: UnitState, context: DerivationContext) {
  if (typeof unit.installation_open === 'boolean') return unit.installation_open;
  return context.servicePointStatus === SP_READY_FOR_INSTALLATION;
}

/**
 * The badges, in the order the list shows them. One faulty compartment gives `comparment_fault`
 * (the spec's spelling); two or more give `compartment_fault_count`, which the list shows with the
 * count (99+ above 99). `all_ok` is an active unit without any badge that asks for attention.
 */
export function hardwareBadges(unit: UnitState, compartments: CompartmentState[], context: DerivationContext) {
  const status = hardwareStatus(unit);
  if (status === HardwareStatus.Terminated) return ['is_terminated'] satisfies HardwareBadge[];
  const atServicePoint = status !== HardwareStatus.InWarehouse;
  const faults = compartments.filter((compartment) => compartment.is_faulty).length;
  const inService = status === HardwareStatus.Installed || status === HardwareStatus.Active;
  const lastSync = unit.last_sync_at ? Date.parse(unit.last_sync_at) : undefined;

  const attention: HardwareBadge[] = [];
  if (unit.license_status === LicenseBadge.Pending || unit.license_status === LicenseBadge.Terminated) {
    attention.push('license_badge');
  }
  if (atServicePoint && typeof unit.battery_level === 'number' && unit.battery_level < LOW_BATTERY_PERCENT) {
    attention.push('low_battery');
  }
  if (faults === 1) attention.push('comparment_fault');
  if (faults > 1) attention.push('compartment_fault_count');
  if (inService && (lastSync === undefined || context.now.getTime() - lastSync > SYNC_ALERT_AFTER_MS)) {
    attention.push('sync_alert');
  }
  if (unit.removal_state === RemovalState.ActivationPending) attention.push('activation_pending');
  if (
    inService &&
    (context.servicePointStatus === SP_INACTIVE ||
      (compartments.length > 0 && compartments.every((compartment) => compartment.is_inactive_comp)))
  ) {
    attention.push('inactive_hw');
  }
  if (unit.removal_state === RemovalState.ScheduledRemoved) attention.push('uninstallation_pending');
  if (compartments.some((compartment) => compartment.is_locked)) attention.push('compartment_locked');

  const stage: HardwareBadge[] = [];
  if (status === HardwareStatus.InWarehouse) stage.push('unassigned');
  if (status === HardwareStatus.Assigned) {
    stage.push('assigned');
    stage.push(installationOpen(unit, context) ? 'installation_open' : 'installation_pending');
  }
  if (status === HardwareStatus.Active) {
    stage.push('active');
    if (!attention.length) stage.push('all_ok');
  }
  return [...stage, ...attention];
}

/** Every derived field of the unit, from the unit, its compartments and its service point. */
export function deriveHardwareFields(
  unit: UnitState,
  compartments: CompartmentState[],
  context: DerivationContext,
): DerivedHardwareFields {
  const badges = hardwareBadges(unit, compartments, context);
  return {
    status: hardwareStatus(unit),
    is_terminated: unit.is_terminated === true,
    badges_v2: badges,
    compartment_count: compartments.length,
    compartment_fault_count: compartments.filter((compartment) => compartment.is_faulty).length,
    alert: badges.some((badge) =>
      ['low_battery', 'comparment_fault', 'compartment_fault_count', 'sync_alert', 'compartment_locked'].includes(
        badge,
      ),
    ),
    warranty_expiry_badge: warrantyBadge(unit.warranty_expiry_date, context.now),
    battery_warranty_badge: warrantyBadge(unit.battery_warranty_expiry_date, context.now),
  };
}
