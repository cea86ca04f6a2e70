import type { FastifyRequest } from 'fastify';
import { assertResourceAccess } from '../caller-access.ts';
import { badRequest } from '../http-error.ts';
import type { Doc } from '../record-store.ts';
import { recordKeyOf } from '../write-pipeline.ts';
import type { HandlerContext } from './handler-context.ts';

/** `DELETE webtool/<endpoint>`: the record, or with an opname a part of it (a carrier's logo). */
export const deleteHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  const source = request.body && typeof request.body === 'object' ? (request.body as Doc) : (request.query as Doc);
  // An opname removes a part of the record: a change, not a deletion.
  assertResourceAccess(access, resource, source.opname === undefined ? 'delete' : 'edit');
  if (source.opname !== undefined) {
    const removal = ctx.deps.rules?.[resource.endpoint]?.removals?.[String(source.opname)];
    if (!removal) throw badRequest('gateway.unknown_opname', { opname: String(source.opname) });
    return removal(ctx.opnameContext(access, resource), source);
  }
  const ownRemove = ctx.deps.rules?.[resource.endpoint]?.remove;
  if (ownRemove) return ownRemove(ctx.opnameContext(access, resource), source);
  const basedOnVersion = typeof source.version === 'number' ? source.version : undefined;
  await ctx.writesOf(access, resource).remove(recordKeyOf(resource, source), basedOnVersion, source);
  return { success: true };
};
