import type { FastifyRequest } from 'fastify';
import { assertResourceAccess } from '../caller-access.ts';
import { HttpError } from '../http-error.ts';
import { bodyOf, type HandlerContext } from './handler-context.ts';

/** `PUT webtool/<endpoint>`: only where the resource's rules take one (an upload). */
export const putHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  const put = ctx.deps.rules?.[resource.endpoint]?.put;
  if (!put) throw new HttpError(405, 'PUT is not supported here.');
  assertResourceAccess(access, resource, 'edit');
  return put(ctx.opnameContext(access, resource), bodyOf(request));
};
