import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { HttpError } from 'react-admin';
import type { ListResponse, RecordResponse } from '../contract/responses.ts';
import type { GatewayCall } from './gateway-client.ts';
import type { GatewayRequest, QueryValue } from './signed-fetch.ts';
import type { GatewayApi } from '../schema/ui/gateway-api.ts';
import type { LiveUpdates, RealtimeCallback } from './live-updates.ts';

export interface ResourceEndpoint {
  /** Path under webtool/, e.g. partners/carrier. */
  endpoint: string;
  /** Field holding the record id, e.g. carrier_id. */
  id: string;
  /** Sent with the id on a delete: request field -> record field (`x-resource.deleteSends`). */
  deleteSends?: Record<string, string>;
  /** The path users with only the scout level call instead (`x-resource.scoutEndpoint`). */
  scoutEndpoint?: string;
  /** The PATCH opname that changes many records in one call (`x-resource.bulkUpdate`). */
  bulkUpdate?: { opname: string; ids: string };
}

/** Ids one `ids=` list call may name: the gateway's largest page. */
export const IDS_PER_CALL = 1000;

export interface DataProviderOptions {
  resources: Record<string, ResourceEndpoint>;
  /** Told when a list call fails: the list shows empty and the user gets this message. */
  onListError?: (message: string) => void;
  /** Whether the signed-in user holds only the scout level of the resource's feature (spec 01 §6). */
  isScout?: (resource: string) => Promise<boolean>;
  /** The tab's live updates (live-updates.ts): `subscribe` / `unsubscribe` in react-admin's realtime shape. */
  live?: LiveUpdates;
}

/** Field errors of a 422 in the form react-admin puts under inputs, keeping the translation args. */
function formErrors(body: unknown): Record<string, string> | undefined {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  const result: Record<string, string> = {};
  for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
    result[field] =
      typeof value === 'string'
        ? value
        : `@@react-admin@@${JSON.stringify(value as { message: string; args?: object })}`;
  }
  return result;
}

function withFormErrors(error: unknown): never {
  if (error instanceof HttpError && error.status === 422) {
    const errors = formErrors(error.body);
    if (errors) throw new HttpError(error.message, error.status, { ...error.body, errors });
  }
  throw error;
}

/** Maps react-admin calls to webtool/ paths with the list query of spec 01 §7. */
export function createDataProvider(call: GatewayCall, options: DataProviderOptions) {
  const endpointOf = (resource: string) => {
    const found = options.resources[resource];
    if (!found) throw new Error(`Unknown resource: ${resource}`);
    return found;
  };
  /** Scout users call a resource's scout path (`service_points/scouts`), everyone else its endpoint. */
  const pathOf = async (resource: string) => {
    const { endpoint, scoutEndpoint } = endpointOf(resource);
    return `webtool/${scoutEndpoint && (await options.isScout?.(resource)) ? scoutEndpoint : endpoint}`;
  };
  const withId = (record: Record<string, unknown>, idField: string) =>
    ({ ...record, id: record[idField] as Identifier }) as RaRecord;
  const withoutId = (data: Record<string, unknown>) => {
    const { id: _id, ...rest } = data;
    return rest;
  };

  async function list(resource: string, params: Partial<GetListParams> & { signal?: AbortSignal }) {
    const { id } = endpointOf(resource);
    const page = params.pagination?.page ?? 1;
    const perPage = params.pagination?.perPage ?? 20;
    const { q, ...filters } = (params.filter ?? {}) as Record<string, QueryValue>;
    const response = await call<ListResponse>({
      method: 'GET',
      path: await pathOf(resource),
      query: {
        offset: (page - 1) * perPage,
        limit: perPage,
        search: q,
        order_by: params.sort?.field === 'id' ? id : params.sort?.field,
        order_by_dir: params.sort?.order?.toLowerCase(),
        ...filters,
      },
      signal: params.signal,
    });
    return { data: response.data.map((r) => withId(r, id)), total: response.total };
  }

  async function one(resource: string, value: Identifier, signal?: AbortSignal) {
    const { id } = endpointOf(resource);
    const { data } = await list(resource, { filter: { [id]: value }, pagination: { page: 1, perPage: 1 }, signal });
    if (!data.length) throw new HttpError('ra.notification.item_doesnt_exist', 404);
    return data[0];
  }

  async function write(resource: string, method: GatewayRequest['method'], body: Record<string, unknown>) {
    const { id } = endpointOf(resource);
    const response = await call<RecordResponse>({ method, path: await pathOf(resource), body }).catch(withFormErrors);
    return withId(response.data ?? body, id);
  }

  async function update(resource: string, recordId: Identifier, data: Partial<RaRecord>, previous?: RaRecord) {
    const { id } = endpointOf(resource);
    return write(resource, 'PATCH', {
      ...withoutId(data),
      [id]: recordId,
      version: previous?.version ?? data.version,
    });
  }

  async function remove(resource: string, recordId: Identifier, previous?: RaRecord) {
    const { id, deleteSends = {} } = endpointOf(resource);
    const named = Object.fromEntries(Object.entries(deleteSends).map(([name, field]) => [name, previous?.[field]]));
    await call({
      method: 'DELETE',
      path: await pathOf(resource),
      body: { ...named, [id]: recordId, version: previous?.version },
    });
    return previous ?? ({ id: recordId } as RaRecord);
  }

  const provider = {
    /** react-admin hands every read an AbortSignal, aborted when the page or its query is left. */
    supportAbortSignal: true,
    getList: async (resource: string, params: GetListParams) => {
      try {
        return await list(resource, params);
      } catch (error) {
        if (params.signal?.aborted || (error instanceof HttpError && error.status === 401)) throw error;
        options.onListError?.((error as Error).message);
        return { data: [], total: 0 };
      }
    },
    getOne: async (resource: string, params: { id: Identifier; signal?: AbortSignal }) => ({
      data: await one(resource, params.id, params.signal),
    }),
    /**
     * The records of a list of ids (a list page's references) in one `ids=` call per 1,000 ids, in
     * the order asked; ids the caller may not see, or that no longer exist, are left out.
     */
    getMany: async (resource: string, params: { ids: Identifier[]; signal?: AbortSignal }) => {
      const ids = [...new Set(params.ids.filter((value) => value !== undefined && value !== null && value !== ''))];
      const chunks: Identifier[][] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_CALL)
        chunks.push(ids.slice(start, start + IDS_PER_CALL));
      const pages = await Promise.all(
        chunks.map((chunk) =>
          list(resource, {
            filter: { ids: chunk.join(',') },
            pagination: { page: 1, perPage: chunk.length },
            signal: params.signal,
          }).catch((error: unknown) => {
            // A reference the caller may not read shows empty, as a record not found does.
            if (params.signal?.aborted || (error instanceof HttpError && error.status === 401)) throw error;
            return { data: [] as RaRecord[], total: 0 };
          }),
        ),
      );
      const byId = new Map(pages.flatMap((page) => page.data).map((record) => [String(record.id), record]));
      return { data: ids.map((value) => byId.get(String(value))).filter((r): r is RaRecord => r !== undefined) };
    },
    getManyReference: (
      resource: string,
      params: GetListParams & { target: string; id: Identifier; signal?: AbortSignal },
    ) => list(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }),
    create: async (resource: string, params: { data: Record<string, unknown> }) => ({
      data: await write(resource, 'POST', withoutId(params.data)),
    }),
    update: async (resource: string, params: { id: Identifier; data: Partial<RaRecord>; previousData?: RaRecord }) => ({
      data: await update(resource, params.id, params.data, params.previousData),
    }),
    /**
     * One `PATCH` with the resource's bulk opname (`x-resource.bulkUpdate`, a ticket's quick actions),
     * which writes all the records or none; a resource without one saves them one after another.
     */
    updateMany: async (resource: string, params: { ids: Identifier[]; data: Partial<RaRecord> }) => {
      const { bulkUpdate } = endpointOf(resource);
      if (bulkUpdate) {
        await call({
          method: 'PATCH',
          path: await pathOf(resource),
          body: { ...withoutId(params.data), opname: bulkUpdate.opname, [bulkUpdate.ids]: params.ids },
        }).catch(withFormErrors);
        return { data: params.ids };
      }
      for (const recordId of params.ids) await update(resource, recordId, params.data);
      return { data: params.ids };
    },
    delete: async (resource: string, params: { id: Identifier; previousData?: RaRecord }) => ({
      data: await remove(resource, params.id, params.previousData),
    }),
    deleteMany: async (resource: string, params: { ids: Identifier[] }) => {
      for (const recordId of params.ids) await remove(resource, recordId);
      return { data: params.ids };
    },
    /** `PUT webtool/<endpoint>`: an upload to one record, e.g. a carrier's logo; gives the updated record. */
    put: async (resource: string, params: { id: Identifier; data: Record<string, unknown> }) => {
      const { id } = endpointOf(resource);
      return { data: await write(resource, 'PUT', { ...params.data, [id]: params.id }) };
    },
    /** `DELETE webtool/<endpoint>` with an opname: removes a part of one record (spec: "DELETE logo"). */
    deleteOpname: async (resource: string, params: { id: Identifier; opname: string }) => {
      const { id } = endpointOf(resource);
      return { data: await write(resource, 'DELETE', { opname: params.opname, [id]: params.id }) };
    },
    /** An opname action, e.g. `action('carriers', 'PATCH', 'update_carrier_expiry_settings', {...})`. */
    action: async <T = unknown>(
      resource: string,
      method: GatewayRequest['method'],
      opname: string,
      body?: Record<string, unknown>,
      query?: Record<string, QueryValue>,
    ) => {
      const path = await pathOf(resource);
      return method === 'GET'
        ? call<T>({ method, path, query: { ...query, opname } })
        : call<T>({ method, path, query, body: { ...body, opname } });
    },
    /** A raw webtool/ call for paths that are not resources (nav_drawer, lists, ...). */
    call,
    /** Live updates of `resource/<name>` or `resource/<name>/<id>` (react-admin's realtime conventions). */
    subscribe: async (topic: string, callback: RealtimeCallback) => {
      options.live?.subscribe(topic, callback);
      return { data: null };
    },
    unsubscribe: async (topic: string, callback: RealtimeCallback) => {
      options.live?.unsubscribe(topic, callback);
      return { data: null };
    },
  };
  // `useGateway` (src/schema/ui/gateway-api.ts) types the calls as this provider makes them.
  return provider satisfies GatewayApi as typeof provider & DataProvider;
}
