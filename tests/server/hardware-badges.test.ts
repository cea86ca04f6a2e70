import { describe, expect, it } from 'vitest';
import {
  deriveHardwareFields,
  hardwareBadges,
  hardwareStatus,
  warrantyBadge,
  type CompartmentState,
  type UnitState,
} from '../../server/gateway/rules/hardware/hardware-badges.ts';
import type { HardwareBadge } from '../../src/types/generated/hardware-unit.ts';
import common from '../../schemas/common.schema.json';

const now = new Date('2026-06-15T12:00:00Z');
const recently = '2026-06-15T10:00:00Z';

/** A healthy unit, active at an active service point. */
const active: UnitState = {
  status: 4,
  is_terminated: false,
  service_point_id: 7,
  removal_state: 0,
  license_status: 1,
  last_sync_at: recently,
  battery_level: 80,
};
const fine: CompartmentState[] = [{}, {}, {}];
const at = (servicePointStatus: number) => ({ servicePointStatus, now });

const badgesOf = (unit: Partial<UnitState>, compartments = fine, servicePointStatus = 7) =>
  hardwareBadges({ ...active, ...unit }, compartments, at(servicePointStatus));

describe('the badges of a hardware unit', () => {
  it('gives an active unit without trouble "active" and "all_ok", and nothing else', () => {
    expect(badgesOf({})).toEqual(['active', 'all_ok']);
  });

  it('gives a terminated unit only "is_terminated", whatever else is wrong with it', () => {
    expect(badgesOf({ is_terminated: true, service_point_id: null, battery_level: 2 }, [{ is_faulty: true }])).toEqual([
      'is_terminated',
    ]);
  });

  it('marks a unit in the warehouse "unassigned"', () => {
    expect(badgesOf({ service_point_id: null, status: 1, last_sync_at: null, battery_level: null })).toEqual([
      'unassigned',
    ]);
  });

  it('marks a planned unit "assigned", with installation open or pending from its service point', () => {
    const planned = { status: 2 as const, last_sync_at: null, battery_level: null };
    expect(badgesOf(planned, fine, 5)).toEqual(['assigned', 'installation_open']);
    expect(badgesOf(planned, fine, 6)).toEqual(['assigned', 'installation_pending']);
  });

  it.each<[string, Partial<UnitState>, CompartmentState[], number, HardwareBadge]>([
    ['a pending licence', { license_status: 4 }, fine, 7, 'license_badge'],
    ['a terminated licence', { license_status: 3 }, fine, 7, 'license_badge'],
    ['a battery under 20 %', { battery_level: 19 }, fine, 7, 'low_battery'],
    ['one faulty compartment', {}, [{ is_faulty: true }, {}], 7, 'comparment_fault'],
    ['two faulty compartments', {}, [{ is_faulty: true }, { is_faulty: true }], 7, 'compartment_fault_count'],
    ['no sync for more than a day', { last_sync_at: '2026-06-14T11:00:00Z' }, fine, 7, 'sync_alert'],
    ['no sync ever', { last_sync_at: null }, fine, 7, 'sync_alert'],
    ['an installation waiting for activation', { status: 3, removal_state: 3 }, fine, 7, 'activation_pending'],
    ['an inactive service point', { status: 3 }, fine, 8, 'inactive_hw'],
    ['every compartment inactive', {}, [{ is_inactive_comp: true }, { is_inactive_comp: true }], 7, 'inactive_hw'],
    ['an uninstallation scheduled', { removal_state: 2 }, fine, 7, 'uninstallation_pending'],
    ['a locked compartment', {}, [{ is_locked: true }, {}], 7, 'compartment_locked'],
  ])('raises a badge for %s, and then the unit is no longer all_ok', (_case, unit, compartments, spStatus, badge) => {
    const badges = badgesOf(unit, compartments, spStatus);
    expect(badges).toContain(badge);
    expect(badges).not.toContain('all_ok');
  });

  it('raises no badge for what is fine: a charged battery, a sync within the day, a licence without fee', () => {
    expect(badgesOf({ battery_level: 20, last_sync_at: '2026-06-14T12:30:00Z', license_status: 2 })).toEqual([
      'active',
      'all_ok',
    ]);
  });

  it('covers every badge of the schema', () => {
    const seen = new Set<string>([
      ...badgesOf({}),
      ...badgesOf({ is_terminated: true }),
      ...badgesOf({ service_point_id: null }),
      ...badgesOf({ status: 2 }, fine, 5),
      ...badgesOf({ status: 2 }, fine, 6),
      ...badgesOf({ license_status: 4, battery_level: 1, last_sync_at: null, removal_state: 3, status: 3 }, fine, 8),
      ...badgesOf({ removal_state: 2 }, [{ is_faulty: true }, { is_locked: true }]),
      ...badgesOf({}, [{ is_faulty: true }, { is_faulty: true }]),
    ]);
    expect([...seen].sort()).toEqual([...common.$defs.hardwareBadge.enum].sort());
  });
});

describe('the derived fields of a hardware unit', () => {
  it('keeps a unit at a service point at the stage it reached, and puts one without in the warehouse', () => {
    expect(hardwareStatus({ ...active, status: 3 })).toBe(3);
    expect(hardwareStatus({ ...active, status: 1 })).toBe(2);
    expect(hardwareStatus({ ...active, service_point_id: null })).toBe(1);
    expect(hardwareStatus({ ...active, is_terminated: true })).toBe(5);
  });

  it('reads a warranty from its date: none, under warranty through the day itself, expired after', () => {
    expect(warrantyBadge(undefined, now)).toBe(1);
    expect(warrantyBadge('2026-06-15', now)).toBe(2);
    expect(warrantyBadge('2030-01-01', now)).toBe(2);
    expect(warrantyBadge('2026-06-14', now)).toBe(3);
  });

  it('counts compartments and faults and raises the alert for a fault', () => {
    const derived = deriveHardwareFields(
      { ...active, warranty_expiry_date: '2025-01-01', battery_warranty_expiry_date: '2027-01-01' },
      [{ is_faulty: true }, { is_faulty: true }, {}],
      at(7),
    );
    expect(derived).toEqual({
      status: 4,
      is_terminated: false,
      badges_v2: ['active', 'compartment_fault_count'],
      compartment_count: 3,
      compartment_fault_count: 2,
      alert: true,
      warranty_expiry_badge: 3,
      battery_warranty_badge: 2,
    });
    expect(deriveHardwareFields(active, fine, at(7)).alert).toBe(false);
  });
});
