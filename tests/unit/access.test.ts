import { describe, expect, it } from 'vitest';
import { isSuperAdmin, parseRole } from '../../src/schema/roles.ts';
import { accessLevel, featureOption, optionEnabled, permissionSet } from '../../src/schema/permissions.ts';
import { features } from '../../src/schema/features.ts';
import { accessProfile, canAccess, type NavigationData } from '../../src/authProvider/access-profile.ts';
import { canOpenPath } from '../../src/authProvider/route-access.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';

const grant = (...ids: number[]) => ids.map((feature_id) => ({ feature_id, has_permission: true }));

function navigation(roleDescription: string, ...ids: number[]): NavigationData {
  return {
    features: ids.map((feature_id) => ({ feature_id })),
    permissions: grant(...ids),
    partner_info: { partner_type: 'x', partner_id: null, partner_name: null },
    role: { role_name: 'r', role_description: roleDescription },
  };
}

describe('role parsing (spec 01 §6)', () => {
  it.each([
    [['carrier_1_admin'], 'carrier', '1'],
    [['maintenance_provider_3_admin'], 'maintenance_provider', '3'],
    [['location_owner_12_viewer', 'other_group'], 'location_owner', '12'],
    [['operator_infinity_superadmin'], 'operator', 'infinity'],
    [['carrier_1'], 'carrier', '1'],
    [['carrier'], 'carrier', undefined],
    [['a_b_c_d_e'], 'a_b_c', 'd'],
  ])('%j gives partner type %s and partner %s', (groups, partnerType, partner) => {
    expect(parseRole(groups)).toMatchObject({ roleName: groups[0], partnerType, partner });
  });

  it('has no role without a group', () => {
    expect(parseRole([])).toBeUndefined();
    expect(parseRole(undefined)).toBeUndefined();
    expect(parseRole(['  '])).toBeUndefined();
  });

  it('a super admin has "Super" in the description and the operator marker in the name', () => {
    expect(isSuperAdmin('operator_infinity_superadmin', 'Super admin of the network', 'operator')).toBe(true);
    expect(isSuperAdmin('operator_infinity_admin', 'Operator administrator', 'operator')).toBe(false);
    expect(isSuperAdmin('carrier_1_admin', 'Super carrier', 'operator')).toBe(false);
    expect(isSuperAdmin('operator_infinity_admin', undefined, 'operator')).toBe(false);
  });
});

describe('feature levels', () => {
  const servicePoints = features.servicepoints;
  it('advance beats scout beats basic; nothing without a permission', () => {
    expect(accessLevel(permissionSet(grant(187, 188, 240), false), servicePoints)).toBe('advance');
    expect(accessLevel(permissionSet(grant(187, 240), false), servicePoints)).toBe('scout');
    expect(accessLevel(permissionSet(grant(187), false), servicePoints)).toBe('basic');
    expect(accessLevel(permissionSet(grant(999), false), servicePoints)).toBeUndefined();
  });

  it('ignores policies whose permission is not held', () => {
    const set = permissionSet([{ feature_id: 188, has_permission: false }, ...grant(187)], false);
    expect(accessLevel(set, servicePoints)).toBe('basic');
  });

  it('a super admin passes every check', () => {
    expect(accessLevel(permissionSet([], true), servicePoints)).toBe('advance');
  });

  it('configurations are on only when shown', () => {
    const set = permissionSet(
      [
        {
          feature_id: 256,
          has_permission: true,
          configurations: [
            { type: 'uppercase_courier_code', show: true },
            { type: 'courier_phone', show: false },
          ],
        },
      ],
      false,
    );
    expect(optionEnabled(set, 256, 'uppercase_courier_code')).toBe(true);
    expect(optionEnabled(set, 256, 'courier_phone')).toBe(false);
    expect(optionEnabled(set, 194, 'uppercase_courier_code')).toBe(false);
  });

  it('reads a module option on any of its levels, and its fallback when no granted policy configures it', () => {
    const set = permissionSet(
      [
        { feature_id: 187, has_permission: true, configurations: [{ type: 'region', show: true }] },
        { feature_id: 188, has_permission: true, configurations: [{ type: 'municipality_required', show: false }] },
        { feature_id: 240, has_permission: false, configurations: [{ type: 'street_view', show: true }] },
      ],
      false,
    );
    expect(featureOption(set, features.servicepoints, 'region')).toBe(true);
    expect(featureOption(set, features.servicepoints, 'municipality_required', true)).toBe(false);
    expect(featureOption(set, features.servicepoints, 'street_view')).toBe(false);
    expect(featureOption(set, features.servicepoints, 'sub_region')).toBe(false);
    expect(featureOption(set, features.servicepoints, 'address_autocomplete', true)).toBe(true);
  });
});

describe('canAccess', () => {
  const rules = {
    couriers: { features: features.couriers, partnerTypes: ['operator', 'carrier'] },
    'service-points': { features: features.servicepoints, partnerTypes: 'All' as const },
  };

  it('needs the partner type and the module permission; writing needs advance', () => {
    const basicCarrier = accessProfile(['carrier_1_admin'], navigation('Carrier', 256))!;
    expect(canAccess(basicCarrier, rules, { resource: 'couriers', action: 'list' })).toBe(true);
    expect(canAccess(basicCarrier, rules, { resource: 'couriers', action: 'edit' })).toBe(false);
    const advanceCarrier = accessProfile(['carrier_1_admin'], navigation('Carrier', 256, 194))!;
    expect(canAccess(advanceCarrier, rules, { resource: 'couriers', action: 'create' })).toBe(true);
    const maintenance = accessProfile(['maintenance_provider_1_admin'], navigation('MP', 256, 194, 187))!;
    expect(canAccess(maintenance, rules, { resource: 'couriers', action: 'list' })).toBe(false);
    expect(canAccess(maintenance, rules, { resource: 'service-points', action: 'list' })).toBe(true);
  });

  describe('per action, level and partner type, from the schemas (x-resource.actions)', () => {
    const schemaRules = Object.fromEntries(
      ['service-point', 'carrier', 'courier'].map((id) => {
        const model = modelOf(id);
        return [model.name, { features: model.features, partnerTypes: model.partnerTypes, actions: model.actions }];
      }),
    );
    const may = (groups: string, ids: number[], resource: string, action: string, description = 'Admin') =>
      canAccess(accessProfile([groups], navigation(description, ...ids))!, schemaRules, { resource, action });
    const sp = features.servicepoints;

    it.each([
      ['carrier_1_admin', [sp.basic!, sp.parent!]],
      ['carrier_1_admin', [sp.basic!, sp.advance!, sp.parent!]],
      ['maintenance_provider_1_admin', [sp.basic!, sp.advance!]],
      ['location_owner_1_admin', [sp.basic!, sp.advance!]],
      ['support_provider_1_admin', [sp.basic!]],
      ['hardware_provider_1_admin', [sp.basic!, sp.advance!]],
    ])('%s with %j reads service points but never creates, edits, deletes or imports them', (groups, ids) => {
      for (const action of ['list', 'show', 'export']) expect(may(groups, ids, 'service-points', action)).toBe(true);
      for (const action of ['create', 'edit', 'delete', 'import', 'clone']) {
        expect(may(groups, ids, 'service-points', action), action).toBe(false);
      }
    });

    it('the operator company changes service points with the advance level; scouts propose and edit; basic reads', () => {
      for (const action of ['create', 'edit', 'delete', 'import']) {
        expect(may('operator_infinity_admin', [sp.advance!], 'service-points', action)).toBe(true);
        expect(may('operator_infinity_admin', [sp.basic!], 'service-points', action)).toBe(false);
        expect(may('operator_infinity_scout', [sp.scout!], 'service-points', action)).toBe(
          action === 'create' || action === 'edit',
        );
      }
      expect(may('operator_infinity_scout', [sp.scout!], 'service-points', 'list')).toBe(true);
      expect(may('operator_infinity_superadmin', [], 'service-points', 'delete', 'Super admin')).toBe(true);
    });

    it('a carrier edits its own carrier record but neither creates nor deletes carriers', () => {
      const advance = [features.carriers.basic, features.carriers.advance];
      expect(may('carrier_1_admin', advance, 'carriers', 'edit')).toBe(true);
      expect(may('carrier_1_admin', advance, 'carriers', 'create')).toBe(false);
      expect(may('carrier_1_admin', advance, 'carriers', 'delete')).toBe(false);
      expect(may('carrier_1_admin', [features.carriers.basic], 'carriers', 'edit')).toBe(false);
      expect(may('operator_infinity_admin', advance, 'carriers', 'delete')).toBe(true);
    });

    it('an action the schema leaves out takes the default: the advance level of an allowed partner type', () => {
      const couriers = [features.couriers.basic, features.couriers.advance];
      for (const action of ['create', 'edit', 'delete', 'import']) {
        expect(may('carrier_1_admin', couriers, 'couriers', action)).toBe(true);
        expect(may('carrier_1_admin', [features.couriers.basic], 'couriers', action)).toBe(false);
        expect(may('maintenance_provider_1_admin', couriers, 'couriers', action)).toBe(false);
      }
    });
  });

  it('a super admin reaches everything; nobody without a profile', () => {
    const superAdmin = accessProfile(['operator_infinity_superadmin'], navigation('Super admin'))!;
    expect(superAdmin.superAdmin).toBe(true);
    expect(canAccess(superAdmin, rules, { resource: 'couriers', action: 'delete' })).toBe(true);
    expect(canAccess(undefined, rules, { resource: 'couriers', action: 'list' })).toBe(false);
  });

  it('route prefixes follow the partner-type table, longest prefix first, case-insensitively', () => {
    const carrier = accessProfile(['carrier_1_admin'], navigation('Carrier', 187, 255, 212, 256))!;
    expect(canOpenPath(carrier, '/service-points')).toBe(true);
    expect(canOpenPath(carrier, '/Service-Points/Group')).toBe(false);
    expect(canOpenPath(carrier, '/couriers/create')).toBe(true);
    expect(canOpenPath(carrier, '/hardware')).toBe(false);
    const operator = accessProfile(['operator_infinity_admin'], navigation('Operator', 255))!;
    expect(canOpenPath(operator, '/service-points/group')).toBe(true);
    expect(canOpenPath(operator, '/hardware-orders')).toBe(false);
  });

  it('production orders and licences have their own rules: operators with the module, never a hardware owner', () => {
    const orders = accessProfile(['operator_infinity_admin'], navigation('Operator', 239))!;
    expect(canOpenPath(orders, '/production-orders')).toBe(true);
    expect(canOpenPath(orders, '/production-orders/12/show')).toBe(true);
    expect(canOpenPath(orders, '/license')).toBe(false);
    const licences = accessProfile(['operator_infinity_admin'], navigation('Operator', 241))!;
    expect(canOpenPath(licences, '/license')).toBe(true);
    expect(canOpenPath(licences, '/production-orders')).toBe(false);
    const owner = accessProfile(['hardware_provider_1_admin'], navigation('Hardware owner', 239, 241, 190))!;
    expect(canOpenPath(owner, '/production-orders')).toBe(false);
    expect(canOpenPath(owner, '/license')).toBe(false);
    expect(canOpenPath(owner, '/hardware')).toBe(true);
  });
});
