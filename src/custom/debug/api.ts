import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { DebugInfo } from '../../contract/debug-info.ts';

/** The debug page's react-query keys. */
export const debugKeys = {
  info: () => ['debug'] as const,
};

/** The debug page's gateway call: `GET webtool/debug`, what the gateway knows of the caller and itself. */
export function debugApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    info: async () => (await gateway.call<{ data: DebugInfo }>({ method: 'GET', path: 'webtool/debug' })).data,
  };
}
