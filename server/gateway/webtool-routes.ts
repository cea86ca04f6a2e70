import type { KeptCounts } from './kept-counts.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/adapter.ts';
import { authenticate, type IdentityVerifier } from './request-auth.ts';
import { badRequest, INVALID_JSON } from './http-error.ts';
import type { ResourceDefinition } from './resource-registry.ts';
import { resolveAccess, type CallerAccess, type RoleReader } from './caller-access.ts';
import type { ResourceRules } from './resource-rules.ts';
import type { FormValidator, RecordValidator } from './write-pipeline.ts';
import type { JobQueue } from './background-jobs.ts';
import { createHandlerContext, endpointOf } from './handlers/handler-context.ts';
import { getHandler } from './handlers/get.ts';
import { postHandler } from './handlers/post.ts';
import { patchHandler } from './handlers/patch.ts';
import { putHandler } from './handlers/put.ts';
import { deleteHandler } from './handlers/delete.ts';
import { optionsHandler } from './handlers/options.ts';
import { serialiseReply } from './json-text.ts';

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
  validateForm: FormValidator;
  rules?: Record<string, ResourceRules>;
  jobs: JobQueue;
  /** The callers' roles as the gateway keeps them (caller-access.ts, keptRoles); read from `db` when absent. */
  roles?: RoleReader;
  /** The lists' match counts as the gateway keeps them while nothing changes (kept-counts.ts); counted every time when absent. */
  counts?: KeptCounts;
  /** `'<METHOD> <path under webtool/>'` -> handler, for paths that are not schema resources. */
  special?: Record<string, SpecialRoute>;
}

export async function registerWebtool(app: FastifyInstance, deps: WebtoolDeps) {
  const handlers = createHandlerContext(deps);

  await app.register(
    async (scope) => {
      scope.decorateRequest('access', undefined);
      scope.setReplySerializer(serialiseReply);
      // After body parsing: the SigV4 signature covers the raw body.
      scope.addHook('preHandler', async (request, reply) => {
        request.caller = await authenticate(request, deps.identity);
        request.access = await resolveAccess(deps.db, request.caller, deps.roles);
        if (request.body === INVALID_JSON) throw badRequest('gateway.invalid_json');
        const special = deps.special?.[`${request.method} ${endpointOf(request)}`];
        if (special) {
          const result = await special({ request, reply, access: request.access, db: deps.db });
          if (!reply.sent) await reply.send(result);
        }
      });

      scope.get('/*', getHandler(handlers));
      scope.post('/*', postHandler(handlers));
      scope.patch('/*', patchHandler(handlers));
      scope.put('/*', putHandler(handlers));
      scope.delete('/*', deleteHandler(handlers));
      scope.options('/*', optionsHandler(handlers));
    },
    { prefix: '/webtool' },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    access?: CallerAccess;
  }
}
