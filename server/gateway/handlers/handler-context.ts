import type { FastifyRequest } from 'fastify';
import type { CallerAccess } from '../caller-access.ts';
import { badRequest, HttpError } from '../http-error.ts';
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

export function createHandlerContext(deps: WebtoolDeps): HandlerContext {
  const writesOf = createWritePipeline(deps);
  return {
    deps,
    writesOf,
    resourceFor(request) {
      const endpoint = endpointOf(request);
      const resource = deps.resources.get(endpoint);
      if (!resource) throw new HttpError(404, `Unknown webtool path: ${endpoint}`);
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
      jobs: deps.jobs,
    }),
  };
}

export function bodyOf(request: FastifyRequest): Doc {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The request body must be a JSON object.');
  return body as Doc;
}

/** Query parameters of an opname call, each given once. */
export function singleValues(query: Record<string, unknown>) {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) values[key] = single(value) ?? '';
  return values;
}
