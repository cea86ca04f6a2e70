import type { FastifyRequest } from 'fastify';
import { assertResourceAccess } from '../caller-access.ts';
import { keyedError } from '../http-error.ts';
import { bodyOf, type HandlerContext } from './handler-context.ts';

/** `PUT webtool/<endpoint>`: only where the resource's rules take one (an upload). */
export const putHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  const put = ctx.deps.rules?.[resource.endpoint]?.put;
  if (!put) throw keyedError(405, 'gateway.method_not_supported', { method: 'PUT' });
  assertResourceAccess(access, resource, 'edit');
  return put(ctx.opnameContext(access, resource), bodyOf(request));
};
