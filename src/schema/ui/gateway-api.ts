import { useDataProvider, type DataProvider, type Identifier, type RaRecord } from 'react-admin';
import type { GatewayCall, GatewayRequest, QueryValue } from '../../contract/gateway.ts';
import type { RealtimeCallback } from '../../contract/live.ts';

export type { GatewayCall, GatewayRequest, QueryValue };

/** The methods of an opname call (spec 01 §7). */
export type OpnameMethod = GatewayRequest['method'];

/**
 * The app's calls to the gateway beyond react-admin's own methods (list, one, many, create, update,
 * delete), as `createDataProvider` (src/dataProvider/data-provider.ts) makes them. Every widget and page
 * calls the gateway through `useGateway()`: the one place where the dataProvider is typed.
 */
export interface GatewayApi {
  /** A raw webtool/ call for paths that are not resources (nav_drawer, lists, reports, search, ...). */
  call: GatewayCall;
  /**
   * An opname of a resource's endpoint: `GET` sends the opname and the query as parameters, the other
   * methods the opname in the body, e.g. `action('carriers', 'PATCH', 'update_carrier_expiry_settings', {...})`.
   */
  action<T = unknown>(
    resource: string,
    method: OpnameMethod,
    opname: string,
    body?: Record<string, unknown>,
    query?: Record<string, QueryValue>,
  ): Promise<T>;
  /** `PUT webtool/<endpoint>`: an upload to one record (a carrier's logo, a photo); gives the updated record. */
  put(resource: string, params: { id: Identifier; data: Record<string, unknown> }): Promise<{ data: RaRecord }>;
  /** `DELETE webtool/<endpoint>` with an opname: removes a part of one record (a logo). */
  deleteOpname(resource: string, params: { id: Identifier; opname: string }): Promise<{ data: RaRecord }>;
  /** Live updates of `resource/<name>` or `resource/<name>/<id>` (react-admin's realtime conventions). */
  subscribe(topic: string, callback: RealtimeCallback): Promise<{ data: null }>;
  unsubscribe(topic: string, callback: RealtimeCallback): Promise<{ data: null }>;
}

/** The app's dataProvider: react-admin's methods and the gateway's own. */
export type Gateway = DataProvider & GatewayApi;

/** The app's dataProvider, typed with its gateway calls (no cast: react-admin's hook takes the type). */
export function useGateway(): Gateway {
  return useDataProvider<Gateway>();
}
