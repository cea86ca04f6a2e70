import type { SpecialRoute } from './webtool-routes.ts';
import type { Identity } from '../identity/index.ts';
import { features } from '../../src/schema/features.ts';
import { createContext } from './identity-access/context.ts';
import { partnerRoutes } from './identity-access/partners.ts';
import { permissionRoutes } from './identity-access/permissions.ts';
import { roleRoutes } from './identity-access/roles.ts';
import { userRoutes } from './identity-access/users.ts';

const COMMIT_VERSION = process.env.COMMIT_VERSION ?? 'local';

/**
 * GET webtool/identity_access/nav_drawer: what the shell needs to build the menu and check
 * access (spec 01 §3 "Navigation response").
 */
export const navDrawer: SpecialRoute = async ({ access, db }) => {
  const granted = access.superAdmin
    ? new Set(Object.values(features).flatMap((f) => Object.values(f) as number[]))
    : access.permissions.granted;
  const partnerName = await partnerNameOf(db, access.partnerType, access.partner);
  return {
    success: true,
    data: {
      features: [...granted].sort((a, b) => a - b).map((feature_id) => ({ feature_id })),
      permissions: access.role.permissions,
      partner_info: {
        partner_type: access.partnerType,
        partner_id: access.partner ?? null,
        partner_name: partnerName,
        is_super_admin: access.superAdmin,
      },
      role: {
        role_name: access.role.role_name,
        role_description: access.role.role_description ?? '',
        role_description_translations: access.role.role_description_translations ?? {},
      },
      commit_version: COMMIT_VERSION,
    },
  };
};

async function partnerNameOf(db: Parameters<SpecialRoute>[0]['db'], partnerType: string, partner: string | undefined) {
  if (!partner || partnerType === 'operator') return null;
  const found = await db.query<{ name: string }>(
    `SELECT doc->>'name' AS name FROM records WHERE resource = $1 AND key = $2`,
    [`partners/${partnerType}`, partner],
  );
  return found.rows[0]?.name ?? null;
}

/** The webtool/identity_access/* routes of spec 01 §7, keyed `'<METHOD> <path>'`. */
export function identityAccessRoutes(identity: Identity): Record<string, SpecialRoute> {
  const ctx = createContext(identity);
  return {
    'GET identity_access/nav_drawer': navDrawer,
    ...userRoutes(ctx),
    ...roleRoutes(ctx),
    ...permissionRoutes(ctx),
    ...partnerRoutes(ctx),
  };
}
