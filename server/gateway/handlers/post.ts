import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RecordResponse } from '../../../src/contract/responses.ts';
import type { WriteAction } from '../../../src/schema/resource-actions.ts';
import { assertResourceAccess } from '../caller-access.ts';
import { badRequest } from '../http-error.ts';
import type { Doc } from '../record-store.ts';
import { bodyOf, type HandlerContext } from './handler-context.ts';

/** A POST creates a record, a bulk_import opname imports rows, another opname changes a record. */
function postAction(body: unknown): WriteAction {
  const opname = body && typeof body === 'object' ? (body as Doc).opname : undefined;
  if (opname === undefined) return 'create';
  return opname === 'bulk_import' ? 'import' : 'edit';
}

/** `POST webtool/<endpoint>`: a new record (201), or the resource's opname named in the body. */
export const postHandler = (ctx: HandlerContext) => async (request: FastifyRequest, reply: FastifyReply) => {
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  assertResourceAccess(access, resource, postAction(request.body));
  const body = bodyOf(request);
  if (body.opname !== undefined) {
    const opname = ctx.deps.rules?.[resource.endpoint]?.opnames?.[String(body.opname)];
    if (!opname) throw badRequest('gateway.unknown_opname', { opname: String(body.opname) });
    return opname(ctx.opnameContext(access, resource), body);
  }
  const created: RecordResponse = { success: true, data: await ctx.writesOf(access, resource).create(body) };
  return reply.status(201).send(created);
};
