import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/adapter.ts';
import { authenticate, type IdentityVerifier } from './request-auth.ts';
import { badRequest, HttpError, INVALID_JSON } from './http-error.ts';
import { listRecords, MAX_LIMIT, type Doc, type ListQuery } from './record-store.ts';
import { propertyType, withDefaults, writableFields, type ResourceDefinition } from './resource-registry.ts';
import { assertResourceAccess, resolveAccess, type CallerAccess } from './caller-access.ts';
import { ownedByCaller, scopeFor, visible } from './tenancy.ts';
import { deleteRecord, insertRecord, nextId, readRecord, updateRecord } from './record-writes.ts';
import type { OpnameContext, ResourceRules, RuleContext } from './resource-rules.ts';
import { recordHistory } from './record-history.ts';
import type { WriteAction } from '../../src/schema/resource-actions.ts';

export interface FieldError {
  message: string;
  args?: Record<string, unknown>;
}

export type RecordValidator = (
  resource: ResourceDefinition,
  doc: Doc,
  options: { partial: boolean },
) => { valid: boolean; data: Doc; errors: Record<string, FieldError> };

/** A route that is not a plain resource (nav_drawer, users, lists, ...). */
export type SpecialRoute = (ctx: {
  request: FastifyRequest;
  reply: FastifyReply;
  access: CallerAccess;
  db: Db;
}) => Promise<unknown>;

export interface WebtoolDeps {
  db: Db;
  identity: IdentityVerifier;
  resources: Map<string, ResourceDefinition>;
  validate: RecordValidator;
  rules?: Record<string, ResourceRules>;
  /** `'<METHOD> <path under webtool/>'` -> handler, for paths that are not schema resources. */
  special?: Record<string, SpecialRoute>;
}

const LIST_KEYS = new Set(['offset', 'limit', 'search', 'order_by', 'order_by_dir', 'opname']);

function single(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw badRequest('A query parameter was given more than once.');
  return String(value);
}

function nonNegativeInt(value: string | undefined, name: string, fallback: number) {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value)) throw badRequest(`${name} must be a whole number of 0 or more.`);
  return Number(value);
}

/** Turns a query-string value into the JSON value stored for that schema field. */
function typedValue(type: string | undefined, raw: string, field: string): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw badRequest(`${field} must be a number.`);
      return n;
    }
    case 'boolean':
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw badRequest(`${field} must be true or false.`);
    default:
      return raw;
  }
}

export function parseListQuery(resource: ResourceDefinition, query: Record<string, unknown>): ListQuery {
  const limit = nonNegativeInt(single(query.limit), 'limit', resource.pageSize);
  if (limit < 1 || limit > MAX_LIMIT) throw badRequest(`limit must be between 1 and ${MAX_LIMIT}.`);
  const dir = single(query.order_by_dir)?.toUpperCase();
  if (dir !== undefined && dir !== 'ASC' && dir !== 'DESC') throw badRequest('order_by_dir must be asc or desc.');
  const filters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (LIST_KEYS.has(key)) continue;
    const field = resource.fieldsBySource.get(key);
    if (!field) throw badRequest(`Unknown filter: ${key}`);
    const raw = single(value) ?? '';
    if (raw === '') continue;
    // An array field is filtered by one of its items (a service point's carriers_access by a carrier).
    filters[key] = typedValue(field.type === 'array' ? field.itemType : field.type, raw, key);
  }
  const search = single(query.search)?.trim();
  return {
    offset: nonNegativeInt(single(query.offset), 'offset', 0),
    limit,
    search: search ? search.slice(0, 200) : undefined,
    orderBy: single(query.order_by) || undefined,
    orderDir: dir as ListQuery['orderDir'],
    filters,
  };
}

/** A POST creates a record, a bulk_import opname imports rows, another opname changes a record. */
function postAction(body: unknown): WriteAction {
  const opname = body && typeof body === 'object' ? (body as Doc).opname : undefined;
  if (opname === undefined) return 'create';
  return opname === 'bulk_import' ? 'import' : 'edit';
}

function bodyOf(request: FastifyRequest): Doc {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The request body must be a JSON object.');
  return body as Doc;
}

export async function registerWebtool(app: FastifyInstance, deps: WebtoolDeps) {
  const { db, resources } = deps;

  const endpointOf = (request: FastifyRequest) => (request.params as { '*': string })['*'].replace(/\/+$/, '');
  const resourceFor = (request: FastifyRequest) => {
    const endpoint = endpointOf(request);
    const resource = resources.get(endpoint);
    if (!resource) throw new HttpError(404, `Unknown webtool path: ${endpoint}`);
    return resource;
  };

  function unvalidated(resource: ResourceDefinition, doc: Doc, partial: boolean) {
    const result = deps.validate(resource, doc, { partial });
    if (!result.valid) {
      throw new HttpError(422, 'Save failed, check the fields in error state', { errors: result.errors });
    }
    return result.data;
  }

  function keyFrom(resource: ResourceDefinition, source: Record<string, unknown>) {
    const raw = source[resource.id];
    if (raw === undefined || raw === null || raw === '') throw badRequest(`${resource.id} is required.`);
    if (typeof raw === 'object') throw badRequest(`${resource.id} must be a single value.`);
    return String(raw);
  }

  /** The record if it exists and the caller may see it; otherwise 404, so ids cannot be probed. */
  async function visibleRecord(tx: Db, access: CallerAccess, resource: ResourceDefinition, key: string) {
    const existing = await readRecord(tx, resource, key);
    if (!existing || !visible(scopeFor(access, resource), existing.doc)) throw new HttpError(404, 'Record not found.');
    return existing;
  }

  const opnameContext = (access: CallerAccess, resource: ResourceDefinition): OpnameContext => ({
    db,
    access,
    resource,
    resources,
    validate: (doc: Doc) => deps.validate(resource, doc, { partial: false }),
    rules: deps.rules?.[resource.endpoint] ?? {},
  });

  /** Query parameters of an opname call, each given once. */
  const singleValues = (query: Record<string, unknown>) => {
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(query)) values[key] = single(value) ?? '';
    return values;
  };

  const actorOf = (access: CallerAccess) => ({
    username: access.caller.username,
    partnerType: access.partnerType,
    partner: access.partner,
  });

  await app.register(
    async (scope) => {
      scope.decorateRequest('access', undefined);
      // After body parsing: the SigV4 signature covers the raw body.
      scope.addHook('preHandler', async (request, reply) => {
        request.caller = await authenticate(request, deps.identity);
        request.access = await resolveAccess(db, request.caller);
        if (request.body === INVALID_JSON) throw badRequest('The request body is not valid JSON.');
        const special = deps.special?.[`${request.method} ${endpointOf(request)}`];
        if (special) {
          const result = await special({ request, reply, access: request.access, db });
          if (!reply.sent) await reply.send(result);
        }
      });

      scope.get('/*', async (request) => {
        const access = request.access!;
        const resource = resourceFor(request);
        assertResourceAccess(access, resource, 'read');
        const query = request.query as Record<string, unknown>;
        const opname = single(query.opname);
        if (opname === 'history') {
          const key = keyFrom(resource, singleValues(query));
          await visibleRecord(db, access, resource, key);
          const limit = nonNegativeInt(single(query.limit), 'limit', 25);
          if (limit < 1 || limit > MAX_LIMIT) throw badRequest(`limit must be between 1 and ${MAX_LIMIT}.`);
          const offset = nonNegativeInt(single(query.offset), 'offset', 0);
          return { success: true, ...(await recordHistory(db, resource, key, { offset, limit })) };
        }
        if (opname) {
          const handler = deps.rules?.[resource.endpoint]?.queries?.[opname];
          if (!handler) throw badRequest(`Unknown opname: ${opname}`);
          return handler(opnameContext(access, resource), singleValues(query));
        }
        const scopeOfCaller = scopeFor(access, resource);
        if (scopeOfCaller === 'none') throw new HttpError(403, 'You have no permission for this request.');
        const listQuery = parseListQuery(resource, query);
        if (scopeOfCaller !== 'all') listQuery.scope = scopeOfCaller;
        const result = await listRecords(db, resource, listQuery);
        return { success: true, ...result };
      });

      scope.post('/*', async (request, reply) => {
        const access = request.access!;
        const resource = resourceFor(request);
        assertResourceAccess(access, resource, postAction(request.body));
        const body = bodyOf(request);
        if (body.opname !== undefined) {
          const opname = deps.rules?.[resource.endpoint]?.opnames?.[String(body.opname)];
          if (!opname) throw badRequest(`Unknown opname: ${String(body.opname)}`);
          return opname(opnameContext(access, resource), body);
        }
        const owned = ownedByCaller(
          scopeFor(access, resource),
          resource,
          withDefaults(resource, writableFields(resource, body)),
        );
        const data = await db.transaction(async (tx) => {
          const ctx: RuleContext = { tx, access, resource, resources };
          const idIsNumeric = propertyType(resource, resource.id) === 'integer';
          const candidate = unvalidated(resource, { ...owned, ...(idIsNumeric ? { [resource.id]: 1 } : {}) }, false);
          const checked =
            (await deps.rules?.[resource.endpoint]?.beforeWrite?.(ctx, candidate, undefined)) ?? candidate;
          const doc = idIsNumeric ? { ...checked, [resource.id]: await nextId(tx, resource) } : checked;
          return insertRecord(tx, resource, actorOf(access), keyFrom(resource, doc), doc);
        });
        return reply.status(201).send({ success: true, data });
      });

      scope.patch('/*', async (request) => {
        const access = request.access!;
        const resource = resourceFor(request);
        assertResourceAccess(access, resource, 'edit');
        const body = bodyOf(request);
        if (body.opname !== undefined) throw badRequest(`Unknown opname: ${String(body.opname)}`);
        const version = body.version;
        if (typeof version !== 'number' || !Number.isInteger(version)) {
          throw badRequest('version is required: send the version of the record you edited.');
        }
        const key = keyFrom(resource, body);
        const data = await db.transaction(async (tx) => {
          const existing = await visibleRecord(tx, access, resource, key);
          const changes = writableFields(resource, body);
          const merged = ownedByCaller(scopeFor(access, resource), resource, {
            ...existing.doc,
            ...changes,
            [resource.id]: existing.doc[resource.id],
          });
          const candidate = unvalidated(resource, merged, false);
          const ctx: RuleContext = { tx, access, resource, resources };
          const doc = (await deps.rules?.[resource.endpoint]?.beforeWrite?.(ctx, candidate, existing)) ?? candidate;
          return updateRecord(tx, resource, actorOf(access), existing, doc, version);
        });
        return { success: true, data };
      });

      scope.delete('/*', async (request) => {
        const access = request.access!;
        const resource = resourceFor(request);
        const source =
          request.body && typeof request.body === 'object' ? (request.body as Doc) : (request.query as Doc);
        // An opname removes a part of the record (a carrier's logo): a change, not a deletion.
        assertResourceAccess(access, resource, source.opname === undefined ? 'delete' : 'edit');
        if (source.opname !== undefined) {
          const removal = deps.rules?.[resource.endpoint]?.removals?.[String(source.opname)];
          if (!removal) throw badRequest(`Unknown opname: ${String(source.opname)}`);
          return removal(opnameContext(access, resource), source);
        }
        const key = keyFrom(resource, source);
        await db.transaction(async (tx) => {
          const existing = await visibleRecord(tx, access, resource, key);
          if (typeof source.version === 'number' && source.version !== existing.version) {
            throw new HttpError(409, 'This record was changed by someone else. Reload it to see the changes.', {
              code: 'STALE_VERSION',
              message_key: 'catalogue.stale_version',
            });
          }
          await deps.rules?.[resource.endpoint]?.beforeDelete?.({ tx, access, resource, resources }, existing);
          await deleteRecord(tx, resource, actorOf(access), existing);
        });
        return { success: true };
      });

      scope.put('/*', async (request) => {
        const access = request.access!;
        const resource = resourceFor(request);
        const put = deps.rules?.[resource.endpoint]?.put;
        if (!put) throw new HttpError(405, 'PUT is not supported here.');
        assertResourceAccess(access, resource, 'edit');
        return put(opnameContext(access, resource), bodyOf(request));
      });

      scope.options('/*', async (request) => {
        resourceFor(request);
        throw new HttpError(405, 'OPTIONS is not supported here.');
      });
    },
    { prefix: '/webtool' },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    access?: CallerAccess;
  }
}
