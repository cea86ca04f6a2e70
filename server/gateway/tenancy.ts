import type { CallerAccess } from './caller-access.ts';
import type { Doc } from './record-store.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { noPermission } from './http-error.ts';
import { accessLevel } from '../../src/schema/permissions.ts';

export type Scope = { field: string; value: string } | 'all' | 'none';

/** The derived field holding the e-mail of a record's scout contact (a service point's `scout_email`). */
export const SCOUT_SCOPE_FIELD = 'scout_email';

/** Which records of a resource the caller may see (spec: the operator company sees all). */
export function scopeFor(access: CallerAccess, resource: ResourceDefinition): Scope {
  // A scout follows the locations they proposed: the records whose scout contact resolves to them.
  if (resource.scoutEndpoint && !access.superAdmin && accessLevel(access.permissions, resource.features) === 'scout') {
    return access.caller.email ? { field: SCOUT_SCOPE_FIELD, value: access.caller.email.toLowerCase() } : 'none';
  }
  if (access.seesAll) return 'all';
  // `x-resource.tenancy`: partner type -> the field naming a record's owner, or '*' for all.
  if (!Object.keys(resource.tenancy).length) return 'all';
  const field = resource.tenancy[access.partnerType];
  if (field === '*') return 'all';
  if (!field || access.partner === undefined) return 'none';
  return { field, value: access.partner };
}

export function visible(scope: Scope, doc: Doc): boolean {
  if (scope === 'all') return true;
  if (scope === 'none') return false;
  return String(doc[scope.field] ?? '') === scope.value;
}

/**
 * A partner writes only its own records: the owner field is filled in with its partner, and a
 * different owner is refused.
 */
export function ownedByCaller(scope: Scope, resource: ResourceDefinition, doc: Doc): Doc {
  if (scope === 'all') return doc;
  if (scope === 'none') throw noPermission();
  const current = doc[scope.field];
  // The record is the partner itself (e.g. a carrier's own carrier record): a partner may edit it
  // but never create one, because a new record gets a fresh id and so another owner.
  if (scope.field === resource.id && (current === undefined || current === null)) {
    throw noPermission();
  }
  if (current !== undefined && current !== null && String(current) !== scope.value) {
    throw noPermission();
  }
  const type = resource.fieldsBySource.get(scope.field)?.type;
  return { ...doc, [scope.field]: type === 'integer' || type === 'number' ? Number(scope.value) : scope.value };
}

/**
 * `x-resource.partnerItems` (`{ "<field>": { "<partner type>": "<item field>" } }`): an array field whose
 * items each belong to one partner (a service point's per-carrier settings). A caller who does not see every
 * partner's data reads only the items naming its own partner, and a partner type the field does not name reads
 * none, so that a carrier reading a service point never sees another carrier's settings.
 */
export function ownItems(access: CallerAccess, resource: ResourceDefinition, field: string, value: unknown): unknown {
  if (access.seesAll || !Array.isArray(value)) return value;
  const itemField = resource.partnerItems[field]?.[access.partnerType];
  if (!itemField || access.partner === undefined) return [];
  return value.filter(
    (item) => item && typeof item === 'object' && String((item as Doc)[itemField] ?? '') === access.partner,
  );
}

/** Whether `readableDoc` leaves every record of the resource whole for the caller. */
export function readsWhole(access: CallerAccess, resource: ResourceDefinition): boolean {
  return access.seesAll || !Object.keys(resource.partnerItems).length;
}

/** A record as the caller may read it: `x-resource.partnerItems` fields cut down to the caller's own items. */
export function readableDoc<T extends Doc>(access: CallerAccess, resource: ResourceDefinition, doc: T): T {
  if (readsWhole(access, resource)) return doc;
  const fields = Object.keys(resource.partnerItems).filter((field) => doc[field] !== undefined);
  if (!fields.length) return doc;
  const readable: Doc = { ...doc };
  for (const field of fields) readable[field] = ownItems(access, resource, field, doc[field]);
  return readable as T;
}
