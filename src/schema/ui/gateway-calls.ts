import { useDataProvider } from 'react-admin';

/** A query parameter's value, as the dataProvider sends it. */
export type QueryValue = string | number | boolean | undefined | null;

/**
 * The dataProvider's opname call beyond react-admin's own methods (`src/dataProvider`'s `action`):
 * `GET` sends the opname and the query as parameters, the other methods the opname in the body.
 */
export interface GatewayCalls {
  action<T = unknown>(
    resource: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    opname: string,
    body?: Record<string, unknown>,
    query?: Record<string, QueryValue>,
  ): Promise<T>;
}

/** The app's dataProvider with its opname call, for widgets that call the gateway's opnames. */
export function useGatewayCalls(): GatewayCalls {
  return useDataProvider() as unknown as GatewayCalls;
}
