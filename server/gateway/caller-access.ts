import type { Db } from '../db/adapter.ts';
import { isSuperAdmin, operatorRoleMarker, parseRole } from '../../src/schema/roles.ts';
import { accessLevel, permissionSet, type PermissionSet, type Policy } from '../../src/schema/permissions.ts';
import { mayDo, type WriteAction } from '../../src/schema/resource-actions.ts';
import type { Caller } from './request-auth.ts';
import { noPermission } from './http-error.ts';
import type { ResourceDefinition } from './resource-registry.ts';

export interface RoleDoc {
  role_name: string;
  role_description?: string;
  role_description_translations?: Record<string, string>;
  partner_type: string;
  partner: string;
  permissions: Policy[];
}

export interface CallerAccess {
  caller: Caller;
  role: RoleDoc;
  partnerType: string;
  partner: string | undefined;
  superAdmin: boolean;
  /** The operator company (super admins included) sees every partner's data. */
  seesAll: boolean;
  permissions: PermissionSet;
}

export const ROLES_ENDPOINT = 'identity_access/roles';

/** Resolves the caller's role, partner and permissions from the first group (spec 01 §6). */
export async function resolveAccess(db: Db, caller: Caller): Promise<CallerAccess> {
  const parsed = parseRole(caller.groups);
  if (!parsed) throw noPermission();
  const found = await db.query<{ doc: RoleDoc }>('SELECT doc FROM records WHERE resource = $1 AND key = $2', [
    ROLES_ENDPOINT,
    parsed.roleName,
  ]);
  const role = found.rows[0]?.doc;
  if (!role) throw noPermission();
  const superAdmin = isSuperAdmin(role.role_name, role.role_description, operatorRoleMarker);
  return {
    caller,
    role,
    partnerType: parsed.partnerType,
    partner: parsed.partner,
    superAdmin,
    seesAll: superAdmin || parsed.partnerType === 'operator',
    permissions: permissionSet(role.permissions ?? [], superAdmin),
  };
}

export type Verb = 'read' | WriteAction;

/**
 * The gateway refuses what the app hides, by the same rule (src/schema/resource-actions.ts): the
 * partner type allowed for the resource and the module permission held, and for a write action the
 * level and partner type the schema's `x-resource.actions` names (the advance level by default).
 */
export function assertResourceAccess(access: CallerAccess, resource: ResourceDefinition, verb: Verb) {
  const actor = {
    partnerType: access.partnerType,
    superAdmin: access.superAdmin,
    level: accessLevel(access.permissions, resource.features),
  };
  if (!mayDo(actor, resource, verb)) throw noPermission();
}

/**
 * A tab guarded by `x-resource.tabReads` (a service point's Hardware units) is hidden from users who may
 * not list the resource it names; the calls that fill it refuse them too (403), so what the app hides
 * cannot be read around it.
 */
export function assertTabReadable(
  access: CallerAccess,
  resources: ReadonlyMap<string, ResourceDefinition>,
  resource: ResourceDefinition,
  tab: string,
) {
  const needs = Object.hasOwn(resource.tabReads, tab) ? resource.tabReads[tab] : undefined;
  if (needs === undefined) return;
  const shown = [...resources.values()].find((candidate) => candidate.name === needs);
  if (!shown) throw new Error(`x-resource.tabReads of ${resource.name} names no resource: ${needs}`);
  assertResourceAccess(access, shown, 'read');
}
