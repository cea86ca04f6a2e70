import type { Db } from '../../db/adapter.ts';
import type { IdentityUser } from '../../identity/index.ts';
import { parseRole } from '../../../src/schema/roles.ts';
import type { RoleDoc } from '../caller-access.ts';
import { isSuperAdminRole } from './context.ts';

/** A webtool user as the webtool-user schema describes it: an identity user whose first group is its role. */
export type WebtoolUser = {
  username: string;
  name: string;
  email: string;
  partner_type?: string;
  partner?: string;
  /** Filled in by the list: the partner's name. */
  partner_name?: string;
  role_name?: string;
  enabled: boolean;
  status: string;
};

type IdentityFields = Pick<IdentityUser, 'username' | 'email' | 'familyName' | 'groups' | 'enabled' | 'status'>;

export function webtoolUser(user: IdentityFields): WebtoolUser {
  const role = parseRole(user.groups);
  return {
    username: user.username,
    name: user.familyName,
    email: user.email,
    partner_type: role?.partnerType,
    partner: role?.partner,
    role_name: role?.roleName,
    enabled: user.enabled,
    status: user.status,
  };
}

/**
 * Every identity user. The identity stand-in has no list call, so the users are read from its
 * table; there are few enough of them to filter, sort and page in memory.
 */
export async function allUsers(db: Db): Promise<WebtoolUser[]> {
  const { rows } = await db.query<{
    username: string;
    email: string;
    family_name: string;
    groups: string[];
    enabled: boolean;
    status: IdentityUser['status'];
  }>('SELECT username, email, family_name, groups, enabled, status FROM identity_users ORDER BY username');
  return rows.map((row) => webtoolUser({ ...row, familyName: row.family_name }));
}

/** Same rule as the user pool: an email belongs to one user, whatever its case. */
export async function emailRegistered(db: Db, email: string, exceptUsername?: string): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM identity_users WHERE lower(email) = lower($1) AND username IS DISTINCT FROM $2',
    [email, exceptUsername ?? null],
  );
  return rows.length > 0;
}

export async function roleInUse(db: Db, roleName: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM identity_users WHERE groups @> $1::jsonb LIMIT 1', [
    JSON.stringify([roleName]),
  ]);
  return rows.length > 0;
}

/** A username from the email's local part, made unique with a number. */
export async function freeUsername(db: Db, email: string): Promise<string> {
  const base =
    email
      .split('@')[0]
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '')
      .slice(0, 40) || 'user';
  const { rows } = await db.query<{ username: string }>(
    `SELECT username FROM identity_users WHERE username = $1 OR username LIKE $2`,
    [base, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`],
  );
  const taken = new Set(rows.map((row) => row.username));
  let candidate = base;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${base}${n}`;
  return candidate;
}

/**
 * The invariant "there must be one Super Admin": an enabled user whose role is a super admin
 * role. `after` describes the change; it is refused when it would take the last one away.
 */
export function leavesNoSuperAdmin(
  users: readonly WebtoolUser[],
  roles: readonly RoleDoc[],
  after: (user: WebtoolUser) => WebtoolUser | undefined,
  rolesAfter: readonly RoleDoc[] = roles,
): boolean {
  const count = (list: readonly (WebtoolUser | undefined)[], roleList: readonly RoleDoc[]) => {
    const superRoles = new Set(roleList.filter(isSuperAdminRole).map((role) => role.role_name));
    return list.filter((user) => user?.enabled && user.role_name && superRoles.has(user.role_name)).length;
  };
  return count(users, roles) > 0 && count(users.map(after), rolesAfter) === 0;
}
