import type { Db } from '../../db/adapter.ts';
import { parseRole } from '../../../src/schema/roles.ts';
import type { Policy } from '../../../src/schema/permissions.ts';
import type { CallerAccess, RoleDoc } from '../caller-access.ts';
import { badRequest, keyedError, notFound } from '../http-error.ts';
import { listRecords, type Doc } from '../record-store.ts';
import type { FieldErrors } from '../../../src/contract/errors.ts';
import { parseListQuery } from '../list-query.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { actorOf, commitChange } from '../write-pipeline.ts';
import {
  allRoles,
  assertAllowed,
  bodyOf,
  deleteSourceOf,
  forbidden,
  isSuperAdminRole,
  keyOf,
  knownFeatureIds,
  ownsPartner,
  partnerExists,
  pick,
  readRole,
  refuseLastSuperAdmin,
  refuseRoleInUse,
  type IdentityAccessContext,
  unprocessable,
  withPartnerText,
} from './context.ts';
import { allUsers, leavesNoSuperAdmin, roleInUse } from './user-directory.ts';

const ROLE_FIELDS = [
  'role_name',
  'role_description',
  'role_description_translations',
  'partner_type',
  'partner',
  'permissions',
] as const;

/**
 * The role name starts with its partner type and partner and ends with one more segment, so
 * that parsing it (spec 01 §6) gives back the same partner type and partner.
 */
function roleNameFits(role: Pick<RoleDoc, 'role_name' | 'partner_type' | 'partner'>): boolean {
  const prefix = `${role.partner_type}_${role.partner}_`;
  const parsed = parseRole([role.role_name]);
  return (
    role.role_name.startsWith(prefix) &&
    /^[a-z0-9]+$/.test(role.role_name.slice(prefix.length)) &&
    parsed?.partnerType === role.partner_type &&
    parsed.partner === role.partner
  );
}

/**
 * Checks the policies a caller writes: every feature id is known (422 otherwise), and a caller
 * who is not super admin grants only permissions it holds itself (403), so that no partner can
 * raise its own rights. Policies already granted before are left alone.
 */
export function assertGrantable(access: CallerAccess, permissions: Policy[], before: Policy[] = []) {
  const errors: FieldErrors = {};
  permissions.forEach((policy, index) => {
    if (!knownFeatureIds.has(policy.feature_id)) {
      errors[`permissions.${index}.feature_id`] = { message: 'validation.choice' };
    }
  });
  if (Object.keys(errors).length) throw unprocessable(errors);
  if (access.superAdmin) return;
  const held = new Set(before.filter((p) => p.has_permission).map((p) => p.feature_id));
  const raised = permissions.filter(
    (p) => p.has_permission && !held.has(p.feature_id) && !access.permissions.granted.has(p.feature_id),
  );
  if (raised.length) throw forbidden();
}

export function roleRoutes(ctx: IdentityAccessContext): Record<string, SpecialRoute> {
  /** The role if the caller may see it (its own partner's, or any for the operator); otherwise 404. */
  async function visibleRole(tx: Db, access: CallerAccess, roleName: string) {
    const found = await readRole(tx, ctx, roleName);
    if (!found || !ownsPartner(access, found.doc.partner_type, found.doc.partner)) throw notFound();
    return found;
  }

  const list: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'read');
    const raw = { ...(request.query as Doc) };
    if (raw.type !== undefined) {
      raw.partner_type ??= raw.type;
      delete raw.type;
    }
    const query = parseListQuery(ctx.roles, raw);
    if (!access.seesAll) {
      const own = { partner_type: access.partnerType, partner: access.partner };
      for (const [field, value] of Object.entries(own)) {
        const asked = query.filters[field];
        if (value === undefined || (asked !== undefined && asked !== value))
          return { success: true, data: [], total: 0 };
        query.filters[field] = value;
      }
    }
    return { success: true, ...(await listRecords(db, ctx.roles, query)) };
  };

  const create: SpecialRoute = async ({ request, reply, access, db }) => {
    assertAllowed(ctx, access, 'create');
    const candidate = pick(withPartnerText(bodyOf(request)), ROLE_FIELDS);
    if (!access.seesAll) {
      if (!ownsPartner(access, candidate.partner_type ?? access.partnerType, candidate.partner ?? access.partner)) {
        throw forbidden();
      }
      candidate.partner_type ??= access.partnerType;
      candidate.partner ??= access.partner;
    }
    const role = ctx.validated<RoleDoc & Doc>(ctx.roles, candidate);
    if (!roleNameFits(role)) throw unprocessable({ role_name: { message: 'validation.format' } });
    if (!(await partnerExists(db, access, role.partner_type, role.partner))) {
      throw unprocessable({ partner: { message: 'validation.choice' } });
    }
    assertGrantable(access, role.permissions);
    if (isSuperAdminRole(role) && !access.superAdmin) throw forbidden();
    const doc = { ...role, role_description: role.role_description ?? '' };
    const data = await db.transaction((tx) =>
      commitChange(tx, actorOf(access), ctx.roles, { action: 'create', key: role.role_name, doc }),
    );
    reply.status(201);
    return { success: true, data };
  };

  const update: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'edit');
    const body = bodyOf(request);
    if (body.opname !== undefined) throw badRequest('gateway.unknown_opname', { opname: String(body.opname) });
    const roleName = keyOf(body, 'role_name');
    const version = body.version;
    if (typeof version !== 'number' || !Number.isInteger(version)) {
      throw badRequest('gateway.version_required');
    }
    const changes = pick(body, ['role_description', 'role_description_translations', 'permissions']);
    const data = await db.transaction(async (tx) => {
      const existing = await visibleRole(tx, access, roleName);
      // The name, partner type and partner are the role's identity: they stay as stored.
      const role = ctx.validated<RoleDoc & Doc>(ctx.roles, pick({ ...existing.doc, ...changes }, ROLE_FIELDS));
      assertGrantable(access, role.permissions, existing.doc.permissions);
      const wasSuper = isSuperAdminRole(existing.doc);
      if ((wasSuper || isSuperAdminRole(role)) && !access.superAdmin) throw forbidden();
      if (wasSuper && !isSuperAdminRole(role)) {
        const roles = await allRoles(tx);
        const rolesAfter = roles.map((r) => (r.role_name === roleName ? role : r));
        if (leavesNoSuperAdmin(await allUsers(tx), roles, (u) => u, rolesAfter)) {
          throw refuseLastSuperAdmin();
        }
      }
      return commitChange(tx, actorOf(access), ctx.roles, {
        action: 'update',
        existing,
        doc: role,
        basedOnVersion: version,
      });
    });
    return { success: true, data };
  };

  const remove: SpecialRoute = async ({ request, access, db }) => {
    assertAllowed(ctx, access, 'delete');
    const source = deleteSourceOf(request);
    const roleName = keyOf(source, 'role_name');
    await db.transaction(async (tx) => {
      const existing = await visibleRole(tx, access, roleName);
      if (source.version !== undefined && Number(source.version) !== existing.version) {
        throw keyedError(409, 'catalogue.stale_version', undefined, {
          code: 'STALE_VERSION',
        });
      }
      if (isSuperAdminRole(existing.doc) && !access.superAdmin) throw forbidden();
      if (await roleInUse(tx, roleName)) throw refuseRoleInUse();
      await commitChange(tx, actorOf(access), ctx.roles, { action: 'delete', existing });
    });
    return { success: true };
  };

  return {
    'GET identity_access/roles': list,
    'POST identity_access/roles': create,
    'PATCH identity_access/roles': update,
    'DELETE identity_access/roles': remove,
  };
}
