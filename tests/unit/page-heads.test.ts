import { describe, expect, it } from 'vitest';
import { accessProfile, type NavigationData } from '../../src/authProvider/access-profile.ts';
import { isBuiltArea } from '../../src/app/coming-areas.ts';
import { landingPath } from '../../src/app/landing.ts';
import { fitActions } from '../../src/schema/ui/record-page-head.tsx';

function navigation(roleDescription: string, ...ids: number[]): NavigationData {
  return {
    features: ids.map((feature_id) => ({ feature_id })),
    permissions: ids.map((feature_id) => ({ feature_id, has_permission: true })),
    partner_info: { partner_type: 'x', partner_id: null, partner_name: null },
    role: { role_name: 'r', role_description: roleDescription },
  };
}

describe('the record actions of a page head (fitActions)', () => {
  it('keeps every action inline when they all fit, or nothing is measured yet', () => {
    expect(fitActions([100, 120, 80], 400, 70)).toBe(3);
    expect(fitActions([100, 120, 80], 0, 70)).toBe(3);
  });

  it('keeps as many as fit beside the More button, in priority order, never overlapping', () => {
    // 100 + 120 + 80 (+ gaps) do not fit in 260; beside "More" (70) only the first fits.
    expect(fitActions([100, 120, 80], 260, 70)).toBe(1);
    expect(fitActions([100, 120, 80], 310, 70)).toBe(2);
    // A phone: not even the first beside More.
    expect(fitActions([180, 120], 200, 70)).toBe(0);
  });
});

describe('where a day starts (landingPath)', () => {
  const options = { shipmentReports: false, isBuilt: isBuiltArea };

  it('sends a user with the dashboard permission (177) to the dashboard, one without it to the shipments (179)', () => {
    const superAdmin = accessProfile(['operator_infinity_superadmin'], navigation('Super admin'))!;
    expect(landingPath(superAdmin, options)).toBe('/dashboard');
    const operator = accessProfile(['operator_infinity_admin'], navigation('Admin', 177, 186, 187))!;
    expect(landingPath(operator, options)).toBe('/dashboard');
    const analyst = accessProfile(['operator_infinity_analyst'], navigation('Analyst', 179, 180, 186, 187))!;
    expect(landingPath(analyst, options)).toBe('/shipments');
  });

  it('keeps the home rule for partner types it sends to the service points', () => {
    const owner = accessProfile(['location_owner_1_admin'], navigation('Admin', 186, 187))!;
    expect(landingPath(owner, options)).toBe('/service-points');
  });

  it('falls back to the first built menu area the user may open, never a "not available" page', () => {
    // Webtool users only: the rule's service points are closed to this user.
    const usersOnly = accessProfile(['operator_infinity_admin'], navigation('Admin', 204, 205))!;
    expect(landingPath(usersOnly, options)).toBe('/webtool-users');
    expect(isBuiltArea('/dashboard')).toBe(true);
    expect(isBuiltArea('/debug')).toBe(true);
    // Issues 26-28 built the partner setups, the licence search and the notifications: no area is to come.
    expect(isBuiltArea('/location-owners')).toBe(true);
    expect(isBuiltArea('/license')).toBe(true);
    expect(isBuiltArea('/notifications')).toBe(true);
    // Issue 29 built the location generator.
    expect(isBuiltArea('/location-generator')).toBe(true);
    expect(isBuiltArea('/tickets')).toBe(true);
  });
});
