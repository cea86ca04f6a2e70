import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/adapter.ts';
import type { Identity } from '../../identity/index.ts';
import { createSchemaRegistry } from '../../../src/schema/ajv.ts';
import { validateRecord } from '../../../src/schema/validate.ts';
import { features } from '../../../src/schema/features.ts';
import { isSuperAdmin, operatorRoleMarker } from '../../../src/schema/roles.ts';
import { assertResourceAccess, type CallerAccess, type RoleDoc, type Verb } from '../caller-access.ts';
import { badRequest, HttpError, keyedError, type MessageKey, noPermission } from '../http-error.ts';
import type { Doc } from '../record-store.ts';
import { readRecord, type StoredRecord } from '../record-writes.ts';
import { loadResources, loadSchemas, type ResourceDefinition } from '../resource-registry.ts';
import { SAVE_FAILED, type FieldErrors } from '../../../src/contract/errors.ts';

/** The identity refusals, by locale key: `forbidden()` alone is the catalogue's no-permission message. */
export const forbidden = (key?: MessageKey) => (key ? keyedError(403, key) : noPermission());
export const refuseLastSuperAdmin = () => keyedError(409, 'catalogue.last_super_admin');
export const refuseEmailRegistered = () => keyedError(409, 'catalogue.email_registered');
export const refuseRoleInUse = () => keyedError(409, 'gateway.role_in_use');
export const unprocessable = (errors: FieldErrors) => new HttpError(422, SAVE_FAILED, { errors });

/** What the identity-access routes share: the identity, both resources and their validation. */
export interface IdentityAccessContext {
  identity: Identity;
  users: ResourceDefinition;
  roles: ResourceDefinition;
  /** The schema's errors of `doc`, one per field; empty when valid. */
  errorsOf(resource: ResourceDefinition, doc: Doc, partial: boolean): { data: Doc; errors: FieldErrors };
  /** The normalised document, or a 422 with the field errors. */
  validated<T extends Doc = Doc>(resource: ResourceDefinition, doc: Doc, partial?: boolean): T;
}

export function createContext(identity: Identity): IdentityAccessContext {
  const schemas = loadSchemas();
  const registry = createSchemaRegistry(schemas);
  const resources = loadResources(schemas);
  const resource = (endpoint: string) => {
    const found = resources.get(endpoint);
    if (!found) throw new Error(`No schema declares the endpoint ${endpoint}`);
    return found;
  };
  const errorsOf = (target: ResourceDefinition, doc: Doc, partial: boolean) =>
    validateRecord(registry, target.schemaId, doc, { partial });
  return {
    identity,
    users: resource('identity_access/users'),
    roles: resource('identity_access/roles'),
    errorsOf,
    validated<T extends Doc = Doc>(target: ResourceDefinition, doc: Doc, partial = false) {
      const result = errorsOf(target, doc, partial);
      if (!result.valid) throw unprocessable(result.errors);
      return result.data as T;
    },
  };
}

export function bodyOf(request: FastifyRequest): Doc {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('gateway.body_not_object');
  }
  return body as Doc;
}

/** DELETE sends its key in the body or, from some clients, in the query string. */
export function deleteSourceOf(request: FastifyRequest): Doc {
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as Doc;
  if (body !== undefined) throw badRequest('gateway.body_not_object');
  return request.query as Doc;
}

/** A key field of a control body (username, role_name): a non-empty string. */
export function keyOf(source: Doc, field: string): string {
  const value = source[field];
  if (value === undefined || value === null || value === '')
    throw badRequest('gateway.param_required', { name: field });
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('gateway.non_empty_text', { name: field });
  return value;
}

/** The listed fields that are present in `doc`. */
export function pick(doc: Doc, fields: readonly string[]): Doc {
  return Object.fromEntries(fields.filter((field) => doc[field] !== undefined).map((field) => [field, doc[field]]));
}

/** Partner ids are numbers in partner records and strings in roles: a whole number is taken as its text. */
export function withPartnerText(doc: Doc): Doc {
  return typeof doc.partner === 'number' && Number.isInteger(doc.partner)
    ? { ...doc, partner: String(doc.partner) }
    : doc;
}

/** Any webtool_users level reads; writing needs the advance level (or super admin). */
export function assertAllowed(ctx: IdentityAccessContext, access: CallerAccess, verb: Verb) {
  assertResourceAccess(access, ctx.users, verb);
}

/** A partner (not the operator company) manages only its own users and roles. */
export function ownsPartner(access: CallerAccess, partnerType: unknown, partner: unknown): boolean {
  return access.seesAll || (partnerType === access.partnerType && partner === access.partner);
}

/** Location-owner users need the advance location-owner permission (spec 01 §6). */
export function canCreateLocationOwners(access: CallerAccess): boolean {
  return access.superAdmin || access.permissions.granted.has(features.location_owner.advance);
}

export function isSuperAdminRole(role: Pick<RoleDoc, 'role_name' | 'role_description'>): boolean {
  return isSuperAdmin(role.role_name, role.role_description, operatorRoleMarker);
}

export async function readRole(db: Db, ctx: IdentityAccessContext, roleName: string) {
  const found = await readRecord(db, ctx.roles, roleName);
  return found as (StoredRecord & { doc: RoleDoc & Doc }) | undefined;
}

export async function allRoles(db: Db): Promise<RoleDoc[]> {
  const { rows } = await db.query<{ doc: RoleDoc }>('SELECT doc FROM records WHERE resource = $1', [
    'identity_access/roles',
  ]);
  return rows.map((row) => row.doc);
}

/** Whether a partner of that type and id exists; the operator company is the operator's own partner. */
export async function partnerExists(db: Db, access: CallerAccess, partnerType: string, partner: string) {
  if (partnerType === 'operator') return access.partnerType === 'operator' && partner === access.partner;
  const { rows } = await db.query('SELECT 1 FROM records WHERE resource = $1 AND key = $2', [
    `partners/${partnerType}`,
    partner,
  ]);
  return rows.length > 0;
}

export const knownFeatureIds: ReadonlySet<number> = new Set(
  Object.values(features).flatMap((ids) => Object.values(ids) as number[]),
);
