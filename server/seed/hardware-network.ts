import type { Compartment } from '../../src/types/generated/compartment.ts';
import type { Pinpad } from '../../src/types/generated/pinpad.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { deriveHardwareFields, LOW_BATTERY_PERCENT } from '../gateway/rules/hardware/hardware-badges.ts';
import { compartmentsOfLayout, type StoredUnit } from '../gateway/rules/shared/hardware-store.ts';
import { hardwareModels } from './hardware-catalogue.ts';
import { hardwareProviders } from './network-data.ts';
import { seededRandom } from './random.ts';
import {
  HardwareKind,
  HardwareStatus,
  LicenseBadge,
  RemovalState,
  ServicePointStatus,
} from '../../src/types/generated/codes.ts';

/**
 * The demo network's hardware: the units of every service point from "ready for installation" to
 * "inactive" (spec 02 §4: a terminated service point has no installed hardware), their compartment
 * grids with parcels, reservations and faults, PIN pads, and a warehouse of unassigned and
 * terminated units. Pure and deterministic (its own seeded generator, dates relative to `now`), so
 * that the service points drawn before it stay the same.
 */

/** A parcel the seed put in a compartment: the bookings and shipments issue creates the matching pieces. */
export interface SeededPiece {
  piece_id: string;
  compartment_id: number;
  hardware_id: number;
  service_point_id: number;
}

export interface ServicePointWithUnits {
  doc: { service_point_id: number; sp_id: string; status: number };
  units: number;
}

const WAREHOUSE_UNASSIGNED = 90;
const WAREHOUSE_TERMINATED = 30;
const WAREHOUSE_PINPADS = 30;
const TERMINATED_PINPADS = 6;

const DAY_MS = 24 * 60 * 60 * 1000;
const lockerModels = hardwareModels.filter((model) => model.hardware_type === HardwareKind.ParcelLocker);
const pinpadModels = hardwareModels.filter((model) => model.hardware_type === HardwareKind.PinPad);
/** Small lockers are the common ones. */
const MODEL_WEIGHTS = [5, 4, 3, 2, 1];
/** The demo `hardware` user's LockerWorks owns the larger share. */
const OWNER_WEIGHTS = [5, 3, 2];

export function buildHardwareNetwork(servicePoints: ServicePointWithUnits[], now: Date) {
  const random = seededRandom(20261125);
  const weighted = <T>(items: readonly T[], weights: number[]) => {
    let draw = random.next() * weights.reduce((sum, weight) => sum + weight, 0);
    for (const [index, item] of items.entries()) {
      draw -= weights[index];
      if (draw < 0) return item;
    }
    return items[items.length - 1];
  };
  const isoDaysFromNow = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  const timeAgo = (ms: number) => new Date(now.getTime() - ms).toISOString();

  const units: NewRecord[] = [];
  const compartments: NewRecord[] = [];
  const pinpads: NewRecord[] = [];
  const pieces: SeededPiece[] = [];
  let pieceCounter = 0;

  const newPieceId = () => {
    pieceCounter += 1;
    // 17 digits like a carrier's barcode, unique by construction, not in order.
    return `37041${String(pieceCounter * 7919 + random.int(0, 7918)).padStart(12, '0')}`;
  };

  /** A grid as it looks after weeks of use: parcels, reservations, and the odd broken door. */
  function usedCompartments(
    fresh: Omit<Compartment, 'compartment_id'>[],
    firstId: number,
    servicePointId: number,
    inUse: boolean,
  ): Compartment[] {
    return fresh.map((base, index) => {
      const compartment: Compartment = { compartment_id: firstId + index, ...base };
      if (!inUse) return compartment;
      const roll = random.next();
      if (roll < 0.25) {
        const pieceId = newPieceId();
        pieces.push({
          piece_id: pieceId,
          compartment_id: compartment.compartment_id,
          hardware_id: compartment.hardware_id,
          service_point_id: servicePointId,
        });
        return { ...compartment, piece_id: pieceId, is_occupied: true, is_free: false };
      }
      if (roll < 0.3) return { ...compartment, next_piece_id: newPieceId(), is_reserved: true, is_free: false };
      if (roll < 0.325) return { ...compartment, is_faulty: true, is_free: false };
      if (roll < 0.34) return { ...compartment, is_disabled: true, is_free: false };
      if (roll < 0.35) return { ...compartment, is_inactive_comp: true, is_free: false };
      if (roll < 0.36) return { ...compartment, is_locked: true, is_free: false };
      return compartment;
    });
  }

  function addUnit(unit: Omit<StoredUnit, 'hardware_id' | 'model_name'>, servicePointStatus?: number) {
    const hardwareId = units.length + 1;
    const model = hardwareModels.find((candidate) => candidate.hardware_model_id === unit.hardware_model_id)!;
    const inUse = unit.status === HardwareStatus.Installed || unit.status === HardwareStatus.Active;
    const grid = usedCompartments(
      compartmentsOfLayout(hardwareId, model.layout),
      compartments.length + 1,
      unit.service_point_id ?? 0,
      inUse,
    );
    const doc: StoredUnit = { hardware_id: hardwareId, model_name: model.name, ...unit };
    const stored = { ...doc, ...deriveHardwareFields(doc, grid, { servicePointStatus, now }) };
    units.push({
      key: String(hardwareId),
      partnerType: 'hardware_provider',
      partnerId: String(unit.hardware_owner_id),
      doc: stored,
    });
    for (const compartment of grid)
      compartments.push({ key: String(compartment.compartment_id), doc: { ...compartment } });
    return stored;
  }

  /** The fields every unit has, whatever its place. */
  function basics(hardwareNumber: number) {
    const owner = weighted(hardwareProviders, OWNER_WEIGHTS);
    const model = weighted(lockerModels, MODEL_WEIGHTS);
    return {
      sub_id: `HW${String(hardwareNumber).padStart(6, '0')}`,
      hardware_type: 1 as const,
      hardware_model_id: model.hardware_model_id,
      hardware_owner_id: owner.id,
      serial_ids: [`LW${100000 + hardwareNumber}`, `CB${String(random.int(100000, 999999))}`],
      firmware_version: random.pick(['4.2.1', '4.3.0', '4.3.2', '5.0.0-rc1']),
      ...(random.chance(0.9) ? { warranty_expiry_date: isoDaysFromNow(random.int(-500, 1100)) } : {}),
      ...(random.chance(0.85) ? { battery_warranty_expiry_date: isoDaysFromNow(random.int(-300, 700)) } : {}),
    };
  }

  for (const { doc: servicePoint, units: count } of servicePoints) {
    const { status } = servicePoint;
    const planned = status === ServicePointStatus.ReadyForInstallation || status === ServicePointStatus.PendingUnits;
    const unitsHere = [];
    for (let n = 1; n <= count; n += 1) {
      const common = basics(units.length + 1);
      const roll = random.next();
      const stage = planned
        ? HardwareStatus.Assigned
        : status === ServicePointStatus.Inactive || roll < 0.08
          ? HardwareStatus.Installed
          : HardwareStatus.Active;
      const installed = stage !== HardwareStatus.Assigned;
      const removal =
        status === ServicePointStatus.Active && stage === HardwareStatus.Installed
          ? RemovalState.ActivationPending
          : status === ServicePointStatus.Active && roll > 0.95
            ? RemovalState.ScheduledRemoved
            : RemovalState.NotRemoved;
      unitsHere.push(
        addUnit(
          {
            ...common,
            name: `${servicePoint.sp_id}-${n}`,
            service_point_id: servicePoint.service_point_id,
            pinpad_id: null,
            status: stage,
            is_terminated: false,
            removal_state: removal,
            license_status: random.chance(0.9)
              ? LicenseBadge.Activated
              : random.pick([LicenseBadge.NoFee, LicenseBadge.Pending]),
            last_sync_at: installed
              ? timeAgo(random.chance(0.07) ? random.int(2, 12) * DAY_MS : random.int(1, 600) * 60_000)
              : null,
            battery_level: installed
              ? random.chance(0.06)
                ? random.int(3, LOW_BATTERY_PERCENT - 1)
                : random.int(LOW_BATTERY_PERCENT, 100)
              : null,
          },
          status,
        ),
      );
    }
    if (status >= 6 && unitsHere.length && random.chance(0.35)) {
      const unit = unitsHere[0];
      const pinpadId = pinpads.length + 1;
      unit.pinpad_id = pinpadId;
      pinpads.push(
        pinpadRecord(
          pinpadId,
          Number(unit.hardware_owner_id),
          servicePoint.service_point_id,
          unit.hardware_id!,
          status,
        ),
      );
    }
  }

  for (let n = 0; n < WAREHOUSE_UNASSIGNED + WAREHOUSE_TERMINATED; n += 1) {
    const terminated = n >= WAREHOUSE_UNASSIGNED;
    const hardwareNumber = units.length + 1;
    addUnit({
      ...basics(hardwareNumber),
      name: `Warehouse-${String(hardwareNumber).padStart(5, '0')}`,
      service_point_id: null,
      pinpad_id: null,
      status: terminated ? HardwareStatus.Terminated : HardwareStatus.InWarehouse,
      is_terminated: terminated,
      removal_state: terminated ? RemovalState.Removed : RemovalState.NotRemoved,
      license_status: terminated
        ? LicenseBadge.Terminated
        : random.chance(0.5)
          ? LicenseBadge.Pending
          : LicenseBadge.Activated,
      last_sync_at: terminated ? timeAgo(random.int(30, 400) * DAY_MS) : null,
      battery_level: null,
    });
  }

  for (let n = 0; n < WAREHOUSE_PINPADS + TERMINATED_PINPADS; n += 1) {
    const pinpadId = pinpads.length + 1;
    const record = pinpadRecord(pinpadId, weighted(hardwareProviders, OWNER_WEIGHTS).id, null, null, 0);
    if (n >= WAREHOUSE_PINPADS) record.doc = { ...record.doc, is_terminated: true, status: HardwareStatus.Terminated };
    pinpads.push(record);
  }

  /** A PIN pad with every field of its form filled, at a service point (linked to a unit) or in the warehouse. */
  function pinpadRecord(
    pinpadId: number,
    owner: number,
    servicePointId: number | null,
    hardwareId: number | null,
    servicePointStatus: number,
  ): NewRecord {
    const synced = servicePointStatus >= 7;
    const doc: Pinpad & { is_terminated: boolean } = {
      pinpad_id: pinpadId,
      ble_chip_id: `BLE-${(0xa00000 + pinpadId).toString(16).toUpperCase()}`,
      status:
        servicePointId === null ? HardwareStatus.InWarehouse : synced ? HardwareStatus.Active : HardwareStatus.Assigned,
      is_terminated: false,
      hardware_model_id: random.pick(pinpadModels).hardware_model_id,
      hardware_owner_id: owner,
      service_point_id: servicePointId,
      hardware_id: hardwareId,
      alerts:
        synced && random.chance(0.2) ? [random.pick(['low_battery', 'sync_failed', 'no_heartbeat'] as const)] : [],
      last_sync_at: synced ? timeAgo(random.int(1, 900) * 60_000) : null,
      installation_sync_status: servicePointId === null ? 0 : synced ? 2 : 1,
      firmware_version: random.pick(['2.1.7', '2.2.0', '3.0.1']),
      comm_board: `CB-${random.int(1000, 9999)}`,
      battery_pack: random.pick(['LiSOCl2 19Ah', 'LiFePO4 12Ah']),
      order_number: `PO-${2025 + random.int(0, 1)}-${String(random.int(1, 999)).padStart(4, '0')}`,
      type_number: random.pick(['PP2-EU', 'PP3-BLE', 'PPL-1']),
      manufacturer: random.pick(['Nordic Keypads', 'Baltic Electronics']),
      foil: random.pick(['standard', 'standard', 'braille', 'high_contrast'] as const),
      language: random.pick(['en', 'da', 'nb', 'sv', 'fi', 'pl'] as const),
      features: random.chance(0.5) ? ['ble', 'backlight'] : ['ble', 'nfc', 'backlight', 'audio_guidance'],
      sim_iccid: `8945${String(random.int(100000000, 999999999))}${String(random.int(100000, 999999))}`,
      apn: random.pick(['iot.telenor.dk', 'm2m.telia.se', 'internet.plus.pl']),
      network: random.pick(['4g', 'lte_m', 'nb_iot'] as const),
      last_heartbeat_at: synced ? timeAgo(random.int(1, 120) * 60_000) : null,
    };
    return { key: String(pinpadId), partnerType: 'hardware_provider', partnerId: String(owner), doc: { ...doc } };
  }

  return { units, compartments, pinpads, pieces };
}
