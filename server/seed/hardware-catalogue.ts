import type { HardwareBadge } from '../../src/types/generated/hardware-unit.ts';
import type { CompartmentSize, HardwareModel, LayoutColumn } from '../gateway/rules/shared/hardware-store.ts';

/**
 * Reference data of the physical network: the hardware models a unit or a PIN pad is built as, and
 * the names and colours of the hardware badges (`GET webtool/lists?type=badges`). Seeded, read by
 * the gateway from the database like every other lookup.
 */

const column = (...runs: [number, CompartmentSize][]): LayoutColumn => ({
  sizes: runs.flatMap(([count, size]) => Array<CompartmentSize>(count).fill(size)),
});

export const hardwareModels: HardwareModel[] = [
  {
    hardware_model_id: 1,
    name: 'Compact 2',
    hardware_type: 1,
    layout: [column([4, 'small'], [2, 'medium']), column([2, 'medium'], [1, 'large'])],
  },
  {
    hardware_model_id: 2,
    name: 'City 3',
    hardware_type: 1,
    layout: [
      column([5, 'small']),
      column([2, 'small'], [1, 'medium'], [1, 'large']),
      column([2, 'medium'], [1, 'large']),
    ],
  },
  {
    hardware_model_id: 3,
    name: 'Standard 4',
    hardware_type: 1,
    layout: [
      column([4, 'small'], [1, 'medium']),
      column([2, 'medium'], [2, 'large']),
      column([2, 'small'], [2, 'medium'], [1, 'large']),
      column([4, 'medium']),
    ],
  },
  {
    hardware_model_id: 4,
    name: 'Outdoor 5',
    hardware_type: 1,
    layout: [
      column([3, 'medium'], [1, 'large']),
      column([6, 'small']),
      column([2, 'small'], [1, 'medium'], [1, 'large']),
      column([6, 'small']),
      column([3, 'medium'], [1, 'large']),
    ],
  },
  {
    hardware_model_id: 5,
    name: 'Station XL 6',
    hardware_type: 1,
    layout: [
      column([3, 'large']),
      column([6, 'small'], [1, 'medium']),
      column([4, 'medium'], [1, 'large']),
      column([4, 'medium'], [1, 'large']),
      column([6, 'small'], [1, 'medium']),
      column([3, 'large']),
    ],
  },
  { hardware_model_id: 6, name: 'PinPad P2', hardware_type: 2, layout: [] },
  { hardware_model_id: 7, name: 'PinPad P3 BLE', hardware_type: 2, layout: [] },
  { hardware_model_id: 8, name: 'PinPad Lite', hardware_type: 2, layout: [] },
];

/**
 * Spec 02 §3's sixteen badges, their English names and colours: light tints that dark text reads
 * well on (as the app's status badges are), distinct enough to tell apart in one row.
 */
export const hardwareBadgeList: { column_id: HardwareBadge; column_name: string; color: string }[] = [
  { column_id: 'license_badge', column_name: 'License', color: '#e1bee7' },
  { column_id: 'is_terminated', column_name: 'Terminated', color: '#ef9a9a' },
  { column_id: 'low_battery', column_name: 'Low battery', color: '#ffcc80' },
  { column_id: 'comparment_fault', column_name: 'Compartment fault', color: '#ffab91' },
  { column_id: 'compartment_fault_count', column_name: 'Compartment faults', color: '#f48fb1' },
  { column_id: 'sync_alert', column_name: 'Sync alert', color: '#fff59d' },
  { column_id: 'activation_pending', column_name: 'Activation pending', color: '#b3e5fc' },
  { column_id: 'installation_open', column_name: 'Installation open', color: '#c5cae9' },
  { column_id: 'installation_pending', column_name: 'Installation pending', color: '#d1c4e9' },
  { column_id: 'inactive_hw', column_name: 'Inactive hardware', color: '#cfd8dc' },
  { column_id: 'uninstallation_pending', column_name: 'Uninstallation pending', color: '#ffe0b2' },
  { column_id: 'compartment_locked', column_name: 'Compartment locked', color: '#bcaaa4' },
  { column_id: 'all_ok', column_name: 'All OK', color: '#a5d6a7' },
  { column_id: 'unassigned', column_name: 'Unassigned', color: '#e0e0e0' },
  { column_id: 'assigned', column_name: 'Assigned', color: '#b2dfdb' },
  { column_id: 'active', column_name: 'Active', color: '#80deea' },
];
