import { describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { renderHook } from '@testing-library/react';
import { CoreAdminContext } from 'react-admin';
import { createDataProvider } from '../../src/dataProvider/data-provider.ts';
import type { GatewayRequest } from '../../src/contract/gateway.ts';
import { useGateway, type Gateway } from '../../src/schema/ui/gateway-api.ts';
import { dashboardApi, dashboardKeys } from '../../src/custom/dashboard/api.ts';
import { logKeys, logsApi } from '../../src/custom/logs/api.ts';
import { searchApi } from '../../src/app/search-api.ts';
import { generatorKeys } from '../../src/custom/location-generator/generator-api.ts';
import { invoicingApi } from '../../src/custom/invoicing/api.ts';
import { shipmentKeys } from '../../src/resources/shipments/piece-detail.ts';
import { compartmentKeys } from '../../src/schema/ui/compartment-grid.tsx';

/** A dataProvider over a recording call: what each typed method sends to the gateway. */
function recorded(answer: unknown = { data: [] }) {
  const sent: GatewayRequest[] = [];
  const call = vi.fn(async (request: GatewayRequest) => {
    sent.push(request);
    return answer;
  }) as unknown as Gateway['call'];
  const live = { subscribe: vi.fn(), unsubscribe: vi.fn() };
  const provider = createDataProvider(call, {
    resources: { carriers: { endpoint: 'partners/carrier', id: 'carrier_id' } },
    live: live as never,
  });
  return { provider, sent, live };
}

describe('the typed gateway client', () => {
  it("is the app's dataProvider: useGateway's calls reach the provider of the context", async () => {
    const { provider, sent } = recorded();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <CoreAdminContext dataProvider={provider}>{children}</CoreAdminContext>
    );
    const { result } = renderHook(() => useGateway(), { wrapper });
    await result.current.call({ method: 'GET', path: 'webtool/debug' });
    await result.current.action('carriers', 'GET', 'expiry_settings');
    expect(sent).toEqual([
      { method: 'GET', path: 'webtool/debug' },
      { method: 'GET', path: 'webtool/partners/carrier', query: { opname: 'expiry_settings' } },
    ]);
  });

  it('sends an opname GET as parameters and the other methods in the body, on the resource path', async () => {
    const { provider, sent } = recorded();
    const gateway: Gateway = provider;
    await gateway.action('carriers', 'GET', 'expiry_settings', undefined, { carrier_id: 4 });
    await gateway.action('carriers', 'PATCH', 'update_carrier_expiry_settings', { carrier_id: 4, days: 9 });
    await gateway.action('carriers', 'DELETE', 'logo', { carrier_id: 4 });
    expect(sent).toEqual([
      { method: 'GET', path: 'webtool/partners/carrier', query: { carrier_id: 4, opname: 'expiry_settings' } },
      {
        method: 'PATCH',
        path: 'webtool/partners/carrier',
        query: undefined,
        body: { carrier_id: 4, days: 9, opname: 'update_carrier_expiry_settings' },
      },
      { method: 'DELETE', path: 'webtool/partners/carrier', query: undefined, body: { carrier_id: 4, opname: 'logo' } },
    ]);
  });

  it('uploads with PUT and removes a part with DELETE and an opname, naming the record by its id field', async () => {
    const { provider, sent } = recorded({ data: { carrier_id: 4, version: 2 } });
    const put = await provider.put('carriers', { id: 4, data: { logo: 'data:image/svg+xml;base64,PHN2Zy8+' } });
    const removed = await provider.deleteOpname('carriers', { id: 4, opname: 'delete_logo' });
    expect(sent.map(({ method, body }) => [method, body])).toEqual([
      ['PUT', { logo: 'data:image/svg+xml;base64,PHN2Zy8+', carrier_id: 4 }],
      ['DELETE', { opname: 'delete_logo', carrier_id: 4 }],
    ]);
    expect(put.data).toMatchObject({ id: 4, version: 2 });
    expect(removed.data).toMatchObject({ id: 4 });
  });

  it('hands live subscriptions to the tab stream', async () => {
    const { provider, live } = recorded();
    const callback = vi.fn();
    await provider.subscribe('resource/carriers', callback);
    await provider.unsubscribe('resource/carriers', callback);
    expect(live.subscribe).toHaveBeenCalledWith('resource/carriers', callback);
    expect(live.unsubscribe).toHaveBeenCalledWith('resource/carriers', callback);
  });
});

describe("the areas' api.ts", () => {
  it('call the gateway paths the pages called before, and answer the data', async () => {
    const { provider, sent } = recorded({ data: [{ column_id: 1, column_name: 'Nordic Post' }] });
    const controller = new AbortController();
    expect(await dashboardApi(provider).lookup('carrier_list')).toEqual([{ column_id: 1, column_name: 'Nordic Post' }]);
    await logsApi(provider).entry('ptr-1');
    await logsApi(provider).search({ group: 'webtool' });
    await searchApi(provider).search('oslo', 'NO', controller.signal);
    await invoicingApi(provider).download({ file_name: 'INV-7' }, 'pdf', 'fr-FR');
    expect(sent).toEqual([
      { method: 'GET', path: 'webtool/lists', query: { type: 'carrier_list' } },
      { method: 'GET', path: 'webtool/logs', query: { opname: 'log', ptr: 'ptr-1' } },
      { method: 'POST', path: 'webtool/logs', body: { opname: 'query', group: 'webtool' } },
      {
        method: 'GET',
        path: 'webtool/search',
        query: { q: 'oslo', limit: 5, country: 'NO' },
        signal: controller.signal,
      },
      {
        method: 'GET',
        path: 'webtool/invoicing',
        query: { opname: 'download', file_name: 'INV-7.pdf', lang: 'fr-FR' },
      },
    ]);
  });

  it('build keys whose prefixes are what other components refresh', () => {
    const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
      prefix.every((part, index) => key[index] === part);
    expect(startsWith(generatorKeys.reportList(true), generatorKeys.reports())).toBe(true);
    expect(startsWith(generatorKeys.locations('7'), generatorKeys.all())).toBe(true);
    expect(startsWith(generatorKeys.areas(), generatorKeys.all())).toBe(true);
    expect(startsWith(shipmentKeys.logs({ piece_id: '1' }), shipmentKeys.all())).toBe(true);
    expect(startsWith(shipmentKeys.part('send', '1'), shipmentKeys.all())).toBe(true);
    expect(startsWith(compartmentKeys.of({ hardware_id: 3 }), compartmentKeys.all())).toBe(true);
    expect(logKeys.entry('p')).not.toEqual(logKeys.groups());
    expect(dashboardKeys.lookup('carrier_list')).not.toEqual(dashboardKeys.lookup('area'));
  });
});
