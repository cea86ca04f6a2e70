import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { LogEntry, LogGroupColumn, LogResult } from '../../contract/logs.ts';

const PATH = 'webtool/logs';

/** The webtool logs' react-query keys. */
export const logKeys = {
  all: () => ['webtool-logs'] as const,
  groups: () => ['webtool-logs', 'groups'] as const,
  entry: (ptr: string | undefined) => ['webtool-logs', 'log', ptr] as const,
};

/** The webtool logs' gateway calls (`webtool/logs`): the groups, a search and one entry. */
export function logsApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    groups: async () =>
      (
        await gateway.call<{ data: LogGroupColumn[] }>({
          method: 'GET',
          path: PATH,
          query: { opname: 'log_group_list' },
        })
      ).data,
    entry: async (ptr: string | undefined) =>
      (await gateway.call<{ data: LogEntry }>({ method: 'GET', path: PATH, query: { opname: 'log', ptr } })).data,
    search: (body: Record<string, unknown>) =>
      gateway.call<LogResult>({ method: 'POST', path: PATH, body: { opname: 'query', ...body } }),
  };
}
