import type { GatewayApi } from '../../schema/ui/gateway-api.ts';
import type { DashboardWidget, WidgetData } from '../../schema/dashboard.ts';
import { widgetQuery, type DashboardView } from './dashboard-filters.ts';

/** An item of `GET webtool/lists?type=…` (carriers, area values). */
export type ListItem = { column_id: number | string; column_name: string };

/** The dashboard's react-query keys (spec 02 §2), for its components and whoever refreshes them. */
export const dashboardKeys = {
  lookup: (type: string | undefined) => ['dashboard-lookup', type] as const,
  widget: (name: DashboardWidget, view: DashboardView) => ['dashboard', name, view] as const,
};

/** The dashboard's gateway calls: the filters' lists and one widget of a view. */
export function dashboardApi(gateway: Pick<GatewayApi, 'call'>) {
  return {
    lookup: async (type: string | undefined) =>
      (await gateway.call<{ data: ListItem[] }>({ method: 'GET', path: 'webtool/lists', query: { type } })).data,
    widget: async (name: DashboardWidget, view: DashboardView, signal?: AbortSignal) =>
      (
        await gateway.call<{ data: WidgetData }>({
          method: 'GET',
          path: 'webtool/dashboard/widget',
          query: widgetQuery(name, view),
          signal,
        })
      ).data,
  };
}
