import type { Db } from '../../db/adapter.ts';
import { features } from '../../../src/schema/features.ts';
import { accessLevel, permissionSet } from '../../../src/schema/permissions.ts';
import { isSuperAdmin, operatorRoleMarker, parseRole } from '../../../src/schema/roles.ts';
import { ROLES_ENDPOINT, type CallerAccess, type RoleDoc } from '../caller-access.ts';

/** A user a service point may name as its scout contact (spec 01 §3: by e-mail or user_id). */
export interface ScoutUser {
  user_id: number;
  username: string;
  email: string;
  superAdmin: boolean;
  partnerType: string;
  partner: string | undefined;
}

/**
 * Every enabled user holding the scout level of service points (feature 240 without the advance
 * level), and every super admin user, with their numeric user id.
 */
async function scoutCandidates(db: Db): Promise<ScoutUser[]> {
  const [users, roles] = await Promise.all([
    db.query<{ user_id: number; username: string; email: string; groups: string[] }>(
      'SELECT user_id, username, email, groups FROM identity_users WHERE enabled ORDER BY user_id',
    ),
    db.query<{ doc: RoleDoc }>('SELECT doc FROM records WHERE resource = $1', [ROLES_ENDPOINT]),
  ]);
  const byName = new Map(roles.rows.map((row) => [row.doc.role_name, row.doc]));
  return users.rows.flatMap((user) => {
    const parsed = parseRole(user.groups);
    const role = parsed && byName.get(parsed.roleName);
    if (!parsed || !role) return [];
    const superAdmin = isSuperAdmin(role.role_name, role.role_description, operatorRoleMarker);
    const scout = accessLevel(permissionSet(role.permissions ?? [], superAdmin), features.servicepoints) === 'scout';
    if (!scout && !superAdmin) return [];
    return [
      {
        user_id: user.user_id,
        username: user.username,
        email: user.email,
        superAdmin,
        partnerType: parsed.partnerType,
        partner: parsed.partner,
      },
    ];
  });
}

/**
 * The scouts the caller may name (spec 01 §6, "Scout search for a provider returns provider users; a
 * super admin also gets super admin users"): the scout-level users of the caller's own provider (its
 * partner type and partner), and for a super admin the super admin users too.
 */
export async function scoutsFor(db: Db, access: CallerAccess): Promise<ScoutUser[]> {
  return (await scoutCandidates(db)).filter((user) =>
    user.superAdmin ? access.superAdmin : user.partnerType === access.partnerType && user.partner === access.partner,
  );
}

/** The scout a contact names, by user id (digits) or e-mail (any case), among the caller's scouts. */
export function scoutNamed(scouts: readonly ScoutUser[], contact: string): ScoutUser | undefined {
  const value = contact.trim();
  if (/^\d+$/.test(value)) return scouts.find((user) => user.user_id === Number(value));
  return scouts.find((user) => user.email.toLowerCase() === value.toLowerCase());
}

/** The e-mail of a user id, whoever the user is: a service point's scout_email follows its contact. */
export async function emailOfUserId(db: Db, userId: number): Promise<string | undefined> {
  if (!Number.isSafeInteger(userId) || userId < 1 || userId > 2_147_483_647) return undefined;
  const found = await db.query<{ email: string }>('SELECT email FROM identity_users WHERE user_id = $1', [userId]);
  return found.rows[0]?.email;
}
