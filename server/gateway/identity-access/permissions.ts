import { features, type FeatureIds } from '../../../src/schema/features.ts';
import { hasPermission } from '../../../src/schema/permissions.ts';
import type { RoleDoc } from '../caller-access.ts';
import { CognitoError } from '../../identity/errors.ts';
import { keyedError } from '../http-error.ts';

import type { Doc } from '../record-store.ts';
import type { FieldErrors } from '../../../src/contract/errors.ts';
import { partnerPageTypes } from '../../../src/contract/partner-types.ts';
import { audit, diff } from '../record-writes.ts';
import type { SpecialRoute } from '../webtool-routes.ts';
import { actorOf, commitChange } from '../write-pipeline.ts';
import {
  assertAllowed,
  bodyOf,
  canCreateLocationOwners,
  forbidden,
  ownsPartner,
  partnerExists,
  pick,
  readRole,
  refuseEmailRegistered,
  type IdentityAccessContext,
  unprocessable,
  withPartnerText,
} from './context.ts';
import { assertGrantable } from './roles.ts';
import { emailRegistered, freeUsername, webtoolUser } from './user-directory.ts';
import { partnerAdminPolicies, partnerIdFields } from './partner-admin-role.ts';

/**
 * A partner page's "Create administrator" (schemas/partner-admin.schema.json) sends the partner by its
 * record's id field (`location_owner_id: 3`) and no permissions: the partner is that id, and the role,
 * when the partner has none yet, holds what the partner type's admin holds (./partner-admin-role.ts).
 */
function partnerPageBody(body: Doc): Doc {
  const type = body.partner_type;
  if (typeof type !== 'string' || !Object.hasOwn(partnerIdFields, type)) return body;
  const partnerType = type as keyof typeof partnerIdFields;
  const idField = partnerIdFields[partnerType];
  const filled = { ...body };
  if (filled.partner === undefined && filled[idField] !== undefined) filled.partner = filled[idField];
  delete filled[idField];
  if (filled.permissions === undefined) filled.permissions = partnerAdminPolicies(partnerType);
  return filled;
}

const LEVELS = ['basic', 'advance', 'scout'] as const;

interface PermissionNode {
  feature_name: string;
  parent_id: number | null;
  /** The UI shows these as radio items, exclusive among siblings. */
  options: { level: (typeof LEVELS)[number]; feature_id: number }[];
}

export function permissionRoutes(ctx: IdentityAccessContext): Record<string, SpecialRoute> {
  /** One node per feature, with the levels the caller holds itself and so may grant. */
  const tree: SpecialRoute = async ({ access }) => {
    assertAllowed(ctx, access, 'read');
    const nodes: PermissionNode[] = Object.entries(features as Record<string, FeatureIds>)
      .map(([name, ids]) => ({
        feature_name: name,
        parent_id: ids.parent ?? null,
        options: LEVELS.flatMap((level) => {
          const featureId = ids[level];
          return featureId !== undefined && hasPermission(access.permissions, featureId)
            ? [{ level, feature_id: featureId }]
            : [];
        }),
      }))
      .filter((node) => node.options.length > 0);
    return { success: true, data: nodes };
  };

  /**
   * POST identity_access/permissions: a partner page creates the partner's admin role (when
   * missing) and an admin webtool user, who receives the login email.
   */
  const createPartnerAdmin: SpecialRoute = async ({ request, reply, access, db }) => {
    assertAllowed(ctx, access, 'create');
    const body = withPartnerText(partnerPageBody(bodyOf(request)));
    const partnerType = body.partner_type;
    const partner = body.partner;
    const roleName = `${String(partnerType)}_${String(partner)}_admin`;
    const user = pick({ ...body, role_name: roleName }, ['name', 'email', 'partner_type', 'partner', 'role_name']);
    const role = pick({ ...body, role_name: roleName }, ['role_name', 'partner_type', 'partner', 'permissions']);
    const roleCheck = ctx.errorsOf(ctx.roles, role, false);
    const userCheck = ctx.errorsOf(ctx.users, user, false);
    // role_name is derived from partner_type and partner: their own errors say what is wrong.
    const errors: FieldErrors = { ...roleCheck.errors, ...userCheck.errors };
    delete errors.role_name;
    if (!errors.partner_type && !(partnerPageTypes as readonly unknown[]).includes(partnerType)) {
      errors.partner_type = { message: 'validation.choice' };
    }
    if (Object.keys(errors).length) throw unprocessable(errors);

    const type = String(partnerType);
    const id = String(partner);
    if (!ownsPartner(access, type, id)) throw forbidden();
    if (type === 'location_owner' && !canCreateLocationOwners(access)) {
      throw forbidden('catalogue.location_owner_rights');
    }
    if (!(await partnerExists(db, access, type, id)))
      throw unprocessable({ partner: { message: 'validation.choice' } });
    const existingRole = (await readRole(db, ctx, roleName))?.doc;
    const permissions = roleCheck.data.permissions as RoleDoc['permissions'];
    if (!existingRole) assertGrantable(access, permissions);
    const email = String(userCheck.data.email);
    if (await emailRegistered(db, email)) throw refuseEmailRegistered();

    const actor = actorOf(access);
    let createdRole: Doc | undefined;
    if (!existingRole) {
      const partnerName = await db.query<{ name: string | null }>(
        `SELECT doc->>'name' AS name FROM records WHERE resource = $1 AND key = $2`,
        [`partners/${type}`, id],
      );
      const name = partnerName.rows[0]?.name ?? id;
      const doc = {
        role_name: roleName,
        role_description: `${name} administrator`,
        role_description_translations: { 'fr-FR': `Administrateur de ${name}` },
        partner_type: type,
        partner: id,
        permissions,
      };
      createdRole = await db.transaction((tx) =>
        commitChange(tx, actor, ctx.roles, { action: 'create', key: roleName, doc }),
      );
    }
    const username = await freeUsername(db, email);
    try {
      await ctx.identity.createUser({
        username,
        email,
        familyName: String(userCheck.data.name),
        groups: [roleName],
      });
    } catch (error) {
      // The admin role was made for this user: without the user it goes again.
      if (createdRole) {
        const { version, ...doc } = createdRole;
        await db.transaction((tx) =>
          commitChange(tx, actor, ctx.roles, {
            action: 'delete',
            existing: { key: roleName, doc, version: Number(version) },
          }),
        );
      }
      // The identity refused (a race on the e-mail, a name it cannot take): the catalogue's message, nothing kept.
      if (error instanceof CognitoError) {
        throw error.type === 'AliasExistsException'
          ? refuseEmailRegistered()
          : keyedError(409, 'catalogue.partner_admin_failed');
      }
      throw error;
    }
    const created = webtoolUser((await ctx.identity.getUser(username))!);
    await audit(db, actor, ctx.users, username, 'create', diff({}, created));
    reply.status(201);
    return {
      success: true,
      data: { user: created, role: createdRole ?? existingRole, role_created: createdRole !== undefined },
    };
  };

  return {
    'GET identity_access/permissions': tree,
    'POST identity_access/permissions': createPartnerAdmin,
  };
}
