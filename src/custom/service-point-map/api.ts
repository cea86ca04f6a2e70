import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { MapPoint } from '../../contract/service-point-map.ts';

/** The network map's react-query keys: the points of the list's filters. */
export const servicePointMapKeys = {
  points: (query: Record<string, string>) => ['service-point-map', query] as const,
};

/** The network map's gateway call: `GET webtool/service_points?opname=map_points` with the list's filters. */
export function servicePointMapApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    points: async (query: Record<string, string>) =>
      (
        await gateway.call<{ data: MapPoint[] }>({
          method: 'GET',
          path: 'webtool/service_points',
          query: { opname: 'map_points', ...query },
        })
      ).data,
  };
}
