import type { GatewayApi } from '../schema/ui/gateway-api.ts';
import type { SearchResponse } from '../contract/search.ts';

/** How many records of each kind the search box shows. */
export const SEARCH_LIMIT = 5;

/** The global search's gateway call (`GET webtool/search`, server/gateway/search.ts). */
export function searchApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    search: (q: string, country: string | undefined, signal?: AbortSignal) =>
      gateway.call<SearchResponse>({
        method: 'GET',
        path: 'webtool/search',
        query: { q, limit: SEARCH_LIMIT, country },
        signal,
      }),
  };
}
