import type { Db } from '../db/adapter.ts';
import { isSuperAdmin, operatorRoleMarker, parseRole } from '../../src/schema/roles.ts';
import { accessLevel, permissionSet, type PermissionSet, type Policy } from '../../src/schema/permissions.ts';
import { mayDo, type WriteAction } from '../../src/schema/resource-actions.ts';
import type { Caller } from './request-auth.ts';
import { noPermission } from './http-error.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import type { ChangeFeed } from './live/change-feed.ts';

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

/** A role document by its name, or undefined when there is none. */
export type RoleReader = (roleName: string) => Promise<RoleDoc | undefined>;

async function readRole(db: Db, roleName: string): Promise<RoleDoc | undefined> {
  const found = await db.query<{ doc: RoleDoc }>('SELECT doc FROM records WHERE resource = $1 AND key = $2', [
    ROLES_ENDPOINT,
    roleName,
  ]);
  return found.rows[0]?.doc;
}

/** A kept role is read again after this long even if no change was heard (a safety net, not the rule). */
const ROLE_KEPT_MS = 60_000;
const ROLES_KEPT = 1_000;

/**
 * The callers' roles, kept per process: every call needs its caller's role, and roles change seldom (issue 32: the
 * read was one of the few database round trips of a read call). A role is dropped as soon as the change feed hears
 * it change, in any process (the records' triggers publish every committed change, SQL included), and all are
 * dropped when the feed may have missed changes. While the feed does not hear (its connection is lost), roles are
 * read on every call. A read that a change overtook is not kept (`generation`).
 */
export function keptRoles(db: Db, feed: ChangeFeed): RoleReader {
  const kept = new Map<string, { doc: RoleDoc; at: number }>();
  let generation = 0;
  feed.subscribe({
    change(notice) {
      if (notice.resource !== ROLES_ENDPOINT) return;
      generation += 1;
      if (notice.key === undefined) kept.clear();
      else kept.delete(notice.key);
    },
    resumed() {
      generation += 1;
      kept.clear();
    },
  });
  return async (roleName) => {
    if (!feed.hearing()) return readRole(db, roleName);
    const found = kept.get(roleName);
    if (found && Date.now() - found.at < ROLE_KEPT_MS) return found.doc;
    const before = generation;
    const doc = await readRole(db, roleName);
    if (doc && generation === before && feed.hearing()) {
      if (kept.size >= ROLES_KEPT) kept.clear();
      kept.set(roleName, { doc, at: Date.now() });
    }
    return doc;
  };
}

/**
 * Resolves the caller's role, partner and permissions from the first group (spec 01 §6); `roles` reads the role
 * (the gateway's kept roles), else it is read from `db`.
 */
export async function resolveAccess(db: Db, caller: Caller, roles?: RoleReader): Promise<CallerAccess> {
  const parsed = parseRole(caller.groups);
  if (!parsed) throw noPermission();
  const role = await (roles ? roles(parsed.roleName) : readRole(db, parsed.roleName));
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
