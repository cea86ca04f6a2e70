import type { FastifyRequest } from 'fastify';
import type { RecordResponse } from '../../../src/contract/responses.ts';
import { assertResourceAccess } from '../caller-access.ts';
import { badRequest } from '../http-error.ts';
import { recordKeyOf } from '../write-pipeline.ts';
import { bodyOf, type HandlerContext } from './handler-context.ts';

/**
 * `PATCH webtool/<endpoint>`: changes of a record, based on the version the client edited; with an
 * opname, the resource's own change of a part of it (`patchOpnames`).
 */
export const patchHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  assertResourceAccess(access, resource, 'edit');
  const body = bodyOf(request);
  if (body.opname !== undefined) {
    const opname = ctx.deps.rules?.[resource.endpoint]?.patchOpnames?.[String(body.opname)];
    if (!opname) throw badRequest('gateway.unknown_opname', { opname: String(body.opname) });
    return opname(ctx.opnameContext(access, resource), body);
  }
  const version = body.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw badRequest('gateway.version_required');
  }
  const updated: RecordResponse = {
    success: true,
    data: await ctx.writesOf(access, resource).update(recordKeyOf(resource, body), body, version),
  };
  return updated;
};
