import type { FastifyRequest } from 'fastify';
import { applySettings, type Db } from '../../db/adapter.ts';
import type { CallerAccess } from '../caller-access.ts';
import { keyedError, noPermission } from '../http-error.ts';
import { accessLevel } from '../../../src/schema/permissions.ts';
import { single } from '../list-query.ts';
import type { Doc } from '../record-store.ts';
import type { ResourceDefinition } from '../resource-registry.ts';
import type { OpnameContext } from '../resource-rules.ts';
import { createWritePipeline, type WritesOf } from '../write-pipeline.ts';
import type { WebtoolDeps } from '../webtool-routes.ts';

/** What every verb's handler shares: the gateway's dependencies and the write pipeline. */
export interface HandlerContext {
  deps: WebtoolDeps;
  writesOf: WritesOf;
  resourceFor(request: FastifyRequest): ResourceDefinition;
  opnameContext(access: CallerAccess, resource: ResourceDefinition): OpnameContext;
}

export const endpointOf = (request: FastifyRequest) => (request.params as { '*': string })['*'].replace(/\/+$/, '');

/**
 * Users holding only the scout level of a resource's feature use its scout path (spec 01 §6: service
 * points with a /scouts suffix), which serves the same records; everyone else its plain endpoint.
 */
function assertScoutPath(request: FastifyRequest, resource: ResourceDefinition, viaScoutPath: boolean) {
  const access = request.access;
  if (!resource.scoutEndpoint || !access) return;
  const scout = !access.superAdmin && accessLevel(access.permissions, resource.features) === 'scout';
  if (scout !== viaScoutPath) throw noPermission();
  // A scout lists, reads a record's log, looks addresses up, creates and edits: no other opname is theirs.
  const opname = opnameOf(request);
  if (scout && opname !== undefined && !(request.method === 'GET' && SCOUT_QUERIES.has(opname))) {
    throw noPermission();
  }
}

const SCOUT_QUERIES = new Set(['history', 'address']);

function opnameOf(request: FastifyRequest): string | undefined {
  const body = request.body && typeof request.body === 'object' ? (request.body as Doc) : {};
  const value = body.opname ?? single((request.query as Record<string, unknown>).opname);
  return value === undefined ? undefined : String(value);
}

export function createHandlerContext(deps: WebtoolDeps): HandlerContext {
  const writesOf = createWritePipeline(deps);
  const byScoutPath = new Map(
    [...deps.resources.values()].flatMap((resource) =>
      resource.scoutEndpoint ? [[resource.scoutEndpoint, resource] as const] : [],
    ),
  );
  return {
    deps,
    writesOf,
    resourceFor(request) {
      const endpoint = endpointOf(request);
      const resource = deps.resources.get(endpoint) ?? byScoutPath.get(endpoint);
      if (!resource) throw keyedError(404, 'gateway.unknown_path', { path: endpoint });
      assertScoutPath(request, resource, endpoint === resource.scoutEndpoint);
      return resource;
    },
    opnameContext: (access, resource) => ({
      db: deps.db,
      access,
      resource,
      resources: deps.resources,
      validate: (doc: Doc) => deps.validate(resource, doc, { partial: false }),
      validateForm: deps.validateForm,
      rules: deps.rules?.[resource.endpoint] ?? {},
      writes: writesOf(access, resource),
      writesIn: (tx, other) => createWritePipeline({ ...deps, db: joined(tx) })(access, other),
      writesFor(endpoint: string) {
        const other = deps.resources.get(endpoint);
        if (!other) throw keyedError(404, 'gateway.unknown_path', { path: endpoint });
        return writesOf(access, other);
      },
      jobs: deps.jobs,
    }),
  };
}

/**
 * An open transaction as a database whose transactions join it: several pipelines' writes commit together. Their
 * handle has no `commitWith`: the transaction is the opener's to commit.
 */
function joined(tx: Db): Db {
  const within: Db = {
    query: (sql, params, options) => tx.query(sql, params, options),
    transaction: () => Promise.reject(new Error('nested transactions are not supported')),
    close: () => tx.close(),
  };
  return {
    ...within,
    transaction: async (fn, options) => {
      await applySettings(tx, options?.settings);
      const opening = options?.opening;
      return fn(within, opening ? (await tx.query(opening.sql, opening.params)).rows : undefined);
    },
  };
}

export function bodyOf(request: FastifyRequest): Doc {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw keyedError(400, 'gateway.body_not_object');
  return body as Doc;
}

/** Query parameters of an opname call, each given once. */
export function singleValues(query: Record<string, unknown>) {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) values[key] = single(value) ?? '';
  return values;
}
