import type { Db } from '../../db/adapter.ts';
import { CognitoError } from '../../identity/index.ts';
import type { CallerAccess, RoleDoc } from '../caller-access.ts';
import { badRequest, keyedError, notFound } from '../http-error.ts';
import { searchText, type Doc } from '../record-store.ts';
import { audit, diff } from '../record-writes.ts';
import { parseListQuery } from '../list-query.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { actorOf } from '../write-pipeline.ts';
import {
  allRoles,
  assertAllowed,
  bodyOf,
  canCreateLocationOwners,
  deleteSourceOf,
  forbidden,
  isSuperAdminRole,
  keyOf,
  ownsPartner,
  pick,
  readRole,
  refuseEmailRegistered,
  refuseLastSuperAdmin,
  type IdentityAccessContext,
  unprocessable,
  withPartnerText,
} from './context.ts';
import { partnerNames } from './partners.ts';
import {
  allUsers,
  emailRegistered,
  freeUsername,
  leavesNoSuperAdmin,
  webtoolUser,
  type WebtoolUser,
} from './user-directory.ts';

const USER_FIELDS = ['name', 'email', 'partner_type', 'partner', 'role_name'] as const;

/** PUT identity_access/users action_type (spec 01 §4). */
const ACTIONS = { 1: 'enable', 2: 'disable', 3: 'reset_password' } as const;

const emailTaken = refuseEmailRegistered;
const roleNotAllowed = () => unprocessable({ role_name: { message: 'validation.choice' } });

function compareBy(field: string, direction: 'ASC' | 'DESC') {
  const sign = direction === 'DESC' ? -1 : 1;
  return (a: WebtoolUser, b: WebtoolUser) => {
    const x = (a as Doc)[field];
    const y = (b as Doc)[field];
    if (x === y) return a.username.localeCompare(b.username) * sign;
    // Missing values last, as the record lists do.
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    const order = typeof x === 'string' ? x.localeCompare(String(y)) : Number(x) - Number(y);
    return order * sign;
  };
}

export function userRoutes(ctx: IdentityAccessContext): Record<string, SpecialRoute> {
  const { identity } = ctx;
  const auditUser = (db: Db, access: CallerAccess, username: string, action: string, changes: object) =>
    audit(db, actorOf(access), ctx.users, username, action, changes);

  /** The user with its groups, if the caller may see it; otherwise 404, so usernames cannot be probed. */
  async function visibleUser(access: CallerAccess, username: string) {
    const found = await identity.getUser(username);
    if (!found) throw notFound();
    const user = webtoolUser(found);
    if (!ownsPartner(access, user.partner_type, user.partner)) throw notFound();
    return { user, groups: found.groups };
  }

  async function shapedUser(username: string) {
    const found = await identity.getUser(username);
    if (!found) throw notFound();
    return webtoolUser(found);
  }

  /**
   * A role the caller may give a user: it exists, belongs to the requested partner type and
   * partner (when named) and to the caller's own partner unless the caller is the operator.
   * Only a super admin hands out super admin roles.
   */
  async function assignableRole(db: Db, access: CallerAccess, roleName: string, requested: Doc): Promise<RoleDoc> {
    const role = (await readRole(db, ctx, roleName))?.doc;
    if (role?.partner_type === 'location_owner' && !canCreateLocationOwners(access)) {
      throw forbidden('catalogue.location_owner_rights');
    }
    if (
      !role ||
      (requested.partner_type !== undefined && requested.partner_type !== role.partner_type) ||
      (requested.partner !== undefined && requested.partner !== role.partner) ||
      !ownsPartner(access, role.partner_type, role.partner)
    ) {
      throw roleNotAllowed();
    }
    if (isSuperAdminRole(role) && !access.superAdmin) throw forbidden();
    return role;
  }

  async function assertKeepsSuperAdmin(db: Db, after: (user: WebtoolUser) => WebtoolUser | undefined) {
    const [users, roles] = await Promise.all([allUsers(db), allRoles(db)]);
    if (leavesNoSuperAdmin(users, roles, after)) throw refuseLastSuperAdmin();
  }

  const list: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'read');
    const raw = { ...(request.query as Doc) };
    if (raw.partner_id !== undefined) {
      raw.partner ??= raw.partner_id;
      delete raw.partner_id;
    }
    const query = parseListQuery(ctx.users, raw);
    const orderBy = query.orderBy ?? ctx.users.sort.field;
    if (!ctx.users.fieldsBySource.has(orderBy)) throw badRequest('gateway.unknown_field', { field: orderBy });
    const search = query.search?.toLowerCase();
    const nameOf = await partnerNames(db);
    const matching = (await allUsers(db))
      .filter((user) => ownsPartner(access, user.partner_type, user.partner))
      .map((user) => ({ ...user, partner_name: nameOf(user.partner_type, user.partner) }))
      .filter((user) => Object.entries(query.filters).every(([field, value]) => (user as Doc)[field] === value))
      .filter((user) => !search || searchText(ctx.users, user).includes(search))
      .sort(compareBy(orderBy, query.orderDir ?? ctx.users.sort.order));
    return {
      success: true,
      data: matching.slice(query.offset, query.offset + query.limit),
      total: matching.length,
    };
  };

  const create: SpecialRoute = async ({ request, reply, access, db }) => {
    assertAllowed(ctx, access, 'create');
    const data = ctx.validated(ctx.users, pick(withPartnerText(bodyOf(request)), USER_FIELDS));
    const samePartner =
      (data.partner_type === undefined || data.partner_type === access.partnerType) &&
      (data.partner === undefined || data.partner === access.partner);
    if (!access.seesAll && !samePartner) throw forbidden();
    if (data.partner_type === 'location_owner' && !canCreateLocationOwners(access)) {
      throw forbidden('catalogue.location_owner_rights');
    }
    const role = await assignableRole(db, access, String(data.role_name), data);
    const email = String(data.email);
    if (await emailRegistered(db, email)) throw emailTaken();
    const username = await freeUsername(db, email);
    const input = { username, email, familyName: String(data.name), groups: [role.role_name] };
    // The identity user and its audit row commit together: a user nobody can trace is never left behind.
    await db.transaction(async (tx) => {
      try {
        await identity.createUser(input, { tx });
      } catch (error) {
        if (error instanceof CognitoError && error.type === 'AliasExistsException') throw emailTaken();
        throw error;
      }
      const created = webtoolUser({ ...input, enabled: true, status: 'FORCE_CHANGE_PASSWORD' });
      await auditUser(tx, access, username, 'create', diff({}, created));
    });
    const user = await shapedUser(username);
    reply.status(201);
    return { success: true, data: user };
  };

  const act: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'edit');
    const body = bodyOf(request);
    const username = keyOf(body, 'username');
    const rawAction = body.action_type;
    if (rawAction === undefined || rawAction === null || rawAction === '')
      throw badRequest('gateway.param_required', { name: 'action_type' });
    const action = ACTIONS[Number(rawAction) as keyof typeof ACTIONS];
    if (!action || (typeof rawAction !== 'number' && typeof rawAction !== 'string')) {
      throw badRequest('gateway.unknown_value', { name: 'action_type', value: JSON.stringify(rawAction) });
    }
    const { user } = await visibleUser(access, username);
    if (action === 'disable') {
      if (username === access.caller.username) throw forbidden('gateway.own_user_disable');
      await assertKeepsSuperAdmin(db, (u) => (u.username === username ? { ...u, enabled: false } : u));
    }
    if (action === 'reset_password') await identity.resetPassword(username);
    else await identity.setEnabled(username, action === 'enable');
    const after = await shapedUser(username);
    await auditUser(db, access, username, action, diff(user, after));
    return { success: true, data: after };
  };

  async function updateProfile(access: CallerAccess, db: Db, body: Doc) {
    if (body.name === undefined) throw unprocessable({ name: { message: 'validation.required' } });
    const { name } = ctx.validated(ctx.users, { name: body.name }, true);
    const username = access.caller.username;
    const before = await shapedUser(username);
    await identity.updateUser(username, { familyName: String(name) });
    const after = await shapedUser(username);
    await auditUser(db, access, username, 'update_profile', diff(before, after));
    return { success: true, data: after };
  }

  const update: SpecialRoute = async ({ request, access, db }) => {
    const body = bodyOf(request);
    if (body.opname === 'update_profile') return updateProfile(access, db, body);
    if (body.opname !== undefined) throw badRequest('gateway.unknown_opname', { opname: String(body.opname) });
    assertAllowed(ctx, access, 'edit');
    const username = keyOf(body, 'username');
    const data = ctx.validated(ctx.users, pick(withPartnerText(body), USER_FIELDS), true);
    const { user: before, groups } = await visibleUser(access, username);
    const roleName = (data.role_name as string | undefined) ?? before.role_name;
    const requested = { partner_type: data.partner_type, partner: data.partner };
    let newGroups: string[] | undefined;
    if (roleName !== before.role_name) {
      const role = await assignableRole(db, access, String(roleName), requested);
      await assertKeepsSuperAdmin(db, (u) => (u.username === username ? { ...u, role_name: role.role_name } : u));
      newGroups = [role.role_name, ...groups.slice(1)];
    } else if (
      (requested.partner_type !== undefined && requested.partner_type !== before.partner_type) ||
      (requested.partner !== undefined && requested.partner !== before.partner)
    ) {
      throw roleNotAllowed();
    }
    const email = data.email as string | undefined;
    if (email !== undefined && (await emailRegistered(db, email, username))) throw emailTaken();
    try {
      await identity.updateUser(username, { familyName: data.name as string | undefined, email, groups: newGroups });
    } catch (error) {
      if (error instanceof CognitoError && error.type === 'AliasExistsException') throw emailTaken();
      throw error;
    }
    const after = await shapedUser(username);
    await auditUser(db, access, username, 'update', diff(before, after));
    return { success: true, data: after };
  };

  const remove: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'delete');
    const username = keyOf(deleteSourceOf(request), 'username');
    const { user } = await visibleUser(access, username);
    if (username === access.caller.username) throw forbidden('gateway.own_user_delete');
    await assertKeepsSuperAdmin(db, (u) => (u.username === username ? undefined : u));
    await identity.deleteUser(username);
    await auditUser(db, access, username, 'delete', diff(user, {}));
    return { success: true };
  };

  /**
   * The `end_user` resource (spec 01 §7): the webtool users as the shell reads them by role. GET takes the
   * users list's query with `role_name` (a role that exists), POST and PATCH a user's body (refused when there
   * is none), DELETE names the user and the role it holds, so that a stale screen cannot delete a user whose
   * role was changed meanwhile. The users' rules apply to each (who may manage whom, the last super admin).
   */
  const endUserPayload = (request: Parameters<SpecialRoute>[0]['request']) => {
    const body = request.body;
    if (body === undefined || body === null || body === '' || (typeof body === 'object' && !Object.keys(body).length)) {
      throw badRequest('gateway.payload_required', { resource: 'end_user' });
    }
    return bodyOf(request);
  };
  const endUserRoutes: Record<string, SpecialRoute> = {
    'GET identity_access/end_user': async (input) => {
      assertAllowed(ctx, input.access, 'read');
      const roleName = (input.request.query as Doc).role_name;
      if (typeof roleName === 'string' && roleName !== '' && !(await readRole(input.db, ctx, roleName))) {
        throw badRequest('gateway.unknown_role', { role_name: roleName.slice(0, 80) });
      }
      return list(input);
    },
    'POST identity_access/end_user': async (input) => {
      assertAllowed(ctx, input.access, 'create');
      endUserPayload(input.request);
      return create(input);
    },
    'PATCH identity_access/end_user': async (input) => {
      assertAllowed(ctx, input.access, 'edit');
      const body = endUserPayload(input.request);
      if (body.opname !== undefined) throw badRequest('gateway.unknown_opname', { opname: String(body.opname) });
      return update(input);
    },
    'DELETE identity_access/end_user': async (input) => {
      assertAllowed(ctx, input.access, 'delete');
      const source = deleteSourceOf(input.request);
      const username = keyOf(source, 'username');
      const roleName = keyOf(source, 'role_name');
      const { user } = await visibleUser(input.access, username);
      if (user.role_name !== roleName) {
        throw keyedError(409, 'gateway.end_user_role_changed', { username, role_name: roleName });
      }
      return remove(input);
    },
  };

  return {
    ...endUserRoutes,
    'GET identity_access/users': list,
    'POST identity_access/users': create,
    'PUT identity_access/users': act,
    'PATCH identity_access/users': update,
    'DELETE identity_access/users': remove,
  };
}
