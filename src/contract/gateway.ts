/**
 * One call to the webtool/ gateway as the app makes it (src/dataProvider/gateway-client.ts signs and
 * sends it); said once for the client, its typed surface (src/schema/ui/gateway-api.ts) and the pages.
 */

/** A query parameter's value; `undefined`, `null` and `''` are left out of the query. */
export type QueryValue = string | number | boolean | undefined | null;

export interface GatewayRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the API base, e.g. webtool/service_points. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Cancels the call: react-admin aborts a list's requests when the user leaves or changes a filter. */
  signal?: AbortSignal;
}

export interface CallOptions {
  /** Names the work in the last-resort '<context>: Oops server error' message. */
  context?: string;
  code313Message?: string;
}

/** A signed, error-mapped call: the answer's JSON body, or an HttpError with the translated message. */
export type GatewayCall = <T = unknown>(request: GatewayRequest, options?: CallOptions) => Promise<T>;
