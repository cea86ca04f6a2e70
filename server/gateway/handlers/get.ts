import type { FastifyRequest } from 'fastify';
import type { ListResponse } from '../../../src/contract/responses.ts';
import { assertResourceAccess } from '../caller-access.ts';
import { keyedError, noPermission } from '../http-error.ts';
import { nonNegativeInt, parseListQuery, single } from '../list-query.ts';
import { recordHistory } from '../record-history.ts';
import { JsonText } from '../json-text.ts';
import { listRecords, listRecordTexts, MAX_LIMIT } from '../record-store.ts';
import { readableDoc, readsWhole, scopeFor } from '../tenancy.ts';
import { recordKeyOf, visibleRecord } from '../write-pipeline.ts';
import { singleValues, type HandlerContext } from './handler-context.ts';

/** `GET webtool/<endpoint>`: a page of the list, a record's history, or a resource's query opname. */
export const getHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  const { deps } = ctx;
  const access = request.access!;
  const resource = ctx.resourceFor(request);
  assertResourceAccess(access, resource, 'read');
  const query = request.query as Record<string, unknown>;
  const opname = single(query.opname);
  if (opname === 'history') {
    const key = recordKeyOf(resource, singleValues(query));
    await visibleRecord(deps.db, access, resource, key);
    const limit = nonNegativeInt(single(query.limit), 'limit', 25);
    if (limit < 1 || limit > MAX_LIMIT) throw keyedError(400, 'gateway.limit_range', { max: MAX_LIMIT });
    const offset = nonNegativeInt(single(query.offset), 'offset', 0);
    return { success: true, ...(await recordHistory(deps.db, access, resource, key, { offset, limit })) };
  }
  if (opname) {
    const handler = deps.rules?.[resource.endpoint]?.queries?.[opname];
    if (!handler) throw keyedError(400, 'gateway.unknown_opname', { opname });
    return handler(ctx.opnameContext(access, resource), singleValues(query), request.headers);
  }
  const ownList = deps.rules?.[resource.endpoint]?.list;
  if (ownList) return ownList(ctx.opnameContext(access, resource), singleValues(query));
  const scopeOfCaller = scopeFor(access, resource);
  if (scopeOfCaller === 'none') throw noPermission();
  const listQuery = parseListQuery(resource, query);
  if (scopeOfCaller !== 'all') listQuery.scope = scopeOfCaller;
  const conditions = deps.rules?.[resource.endpoint]?.listConditions;
  if (conditions) listQuery.conditions = [...(listQuery.conditions ?? []), ...conditions(listQuery)];
  if (readsWhole(access, resource)) {
    // Nothing of a record to cut for this caller: the documents go out as the database wrote them.
    const { data, total } = await listRecordTexts(deps.db, resource, listQuery, deps.counts);
    return new JsonText(`{"success":true,"data":[${data.join(',')}],"total":${total}}`);
  }
  const { data, total } = await listRecords(deps.db, resource, listQuery, deps.counts);
  const page: ListResponse = { success: true, data: data.map((doc) => readableDoc(access, resource, doc)), total };
  return page;
};
