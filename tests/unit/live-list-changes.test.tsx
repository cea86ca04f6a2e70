import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { ListBase, type DataProvider, type GetListParams } from 'react-admin';
import en from '../../locales/en-US.json';
import type { RealtimeCallback, RealtimeEvent } from '../../src/contract/live.ts';
import { LiveListChanges } from '../../src/schema/ui/live-updates.tsx';
import { renderInAdmin } from './support/admin.tsx';

afterEach(cleanup);

const WAIT = { timeout: 10_000 };

interface Ticket {
  id: number;
  status: string;
  sp_name: string;
}

/**
 * A gateway stand-in for one list: its records, filtered as the gateway's list filters them (equality on
 * each filter, `q` in the name, `ids=` a comma-separated list), and a stream whose events the test sends.
 */
function fakeGateway(records: Ticket[]) {
  const callbacks = new Map<string, Set<RealtimeCallback>>();
  const checks: string[] = [];
  const matches = (record: Ticket, filter: Record<string, unknown>) =>
    Object.entries(filter).every(([field, value]) => {
      if (field === 'ids') return String(value).split(',').includes(String(record.id));
      if (field === 'q') return record.sp_name.toLowerCase().includes(String(value).toLowerCase());
      return String(record[field as keyof Ticket]) === String(value);
    });
  const dataProvider = {
    getList: async (_resource: string, params: GetListParams) => {
      const filter = (params.filter ?? {}) as Record<string, unknown>;
      if (filter.ids !== undefined) checks.push(String(filter.ids));
      const found = records.filter((record) => matches(record, filter));
      const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
      return { data: found.slice((page - 1) * perPage, page * perPage), total: found.length };
    },
    subscribe: async (topic: string, callback: RealtimeCallback) => {
      callbacks.set(topic, new Set([...(callbacks.get(topic) ?? []), callback]));
      return { data: null };
    },
    unsubscribe: async (topic: string, callback: RealtimeCallback) => {
      callbacks.get(topic)?.delete(callback);
      return { data: null };
    },
  } as unknown as DataProvider;
  /** One flush of the stream: its events delivered together, as src/dataProvider/live-updates.ts does. */
  const send = (...events: Omit<RealtimeEvent, 'topic'>[]) =>
    act(() => {
      for (const event of events) {
        for (const callback of callbacks.get('resource/tickets') ?? [])
          callback({ topic: 'resource/tickets', ...event });
      }
    });
  return { dataProvider, checks, send, records, subscribed: () => (callbacks.get('resource/tickets')?.size ?? 0) > 0 };
}

function renderList(gateway: ReturnType<typeof fakeGateway>, filter: Record<string, unknown>) {
  renderInAdmin(
    <ListBase resource="tickets" filterDefaultValues={filter} perPage={2} disableSyncWithLocation>
      <LiveListChanges />
    </ListBase>,
    { dataProvider: gateway.dataProvider },
  );
}

const banner = () => screen.queryByRole('status')?.textContent ?? '';
/** Lets the list's check of a burst (gathered for a few ms) go out and come back. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 120)));

describe('the live list banner counts only the changes the list would show (issue 31.2)', () => {
  it('asks the gateway once per burst which changed records match the filter, and counts only those', async () => {
    const gateway = fakeGateway([
      { id: 1, status: 'open', sp_name: 'Kiosk Wola' },
      { id: 2, status: 'closed', sp_name: 'Kiosk Mokotow' },
      { id: 3, status: 'open', sp_name: 'Kiosk Praga' },
      { id: 4, status: 'open', sp_name: 'Kiosk Ursus' },
    ]);
    renderList(gateway, { status: 'open' });
    await expect.poll(gateway.subscribed, WAIT).toBe(true);
    await settle();

    // A closed ticket changed: outside the filter, no banner.
    gateway.records[1] = { ...gateway.records[1], sp_name: 'Kiosk Mokotow 2' };
    await gateway.send({ type: 'updated', payload: { ids: [2] } });
    await settle();
    expect(gateway.checks).toEqual(['2']);
    expect(banner()).toBe('');

    // An open ticket off the page (page size 2) changed: the list shows it, counted.
    await gateway.send({ type: 'updated', payload: { ids: [4] } });
    await expect.poll(banner, WAIT).toContain('1 new or changed record');

    // One flush with a new closed ticket and a new open one: ONE request, one more counted.
    gateway.records.push(
      { id: 5, status: 'closed', sp_name: 'Kiosk Bemowo' },
      { id: 6, status: 'open', sp_name: 'Kiosk Ochota' },
    );
    await gateway.send({ type: 'created', payload: { ids: [5] } }, { type: 'created', payload: { ids: [6] } });
    await expect.poll(banner, WAIT).toContain('2 new or changed records');
    expect(gateway.checks).toEqual(['2', '4', '5,6']);

    // A ticket on the page counts without asking (it changed, or left the filter); one deleted off the page does not.
    await gateway.send({ type: 'updated', payload: { ids: [1] } }, { type: 'deleted', payload: { ids: [9] } });
    await expect.poll(banner, WAIT).toContain('3 new or changed records');
    await settle();
    expect(gateway.checks).toHaveLength(3);
    expect(banner()).toContain('3 new or changed records');
  });

  it('applies the search box as the list does', async () => {
    const gateway = fakeGateway([
      { id: 1, status: 'open', sp_name: 'Kiosk Wola' },
      { id: 2, status: 'open', sp_name: 'Parcel shop Praga' },
    ]);
    renderList(gateway, { q: 'kiosk' });
    await expect.poll(gateway.subscribed, WAIT).toBe(true);
    await settle();
    gateway.records.push({ id: 3, status: 'open', sp_name: 'Parcel shop Wola' });
    await gateway.send({ type: 'created', payload: { ids: [2, 3] } });
    await settle();
    expect(gateway.checks).toEqual(['2,3']);
    expect(banner()).toBe('');
    gateway.records.push({ id: 4, status: 'closed', sp_name: 'Kiosk Ursus' });
    await gateway.send({ type: 'created', payload: { ids: [4] } });
    await expect.poll(banner, WAIT).toContain('1 new or changed record');
  });

  it('still says "Records changed" when the gateway cannot say which', async () => {
    const gateway = fakeGateway([{ id: 1, status: 'open', sp_name: 'Kiosk Wola' }]);
    renderList(gateway, { status: 'open' });
    await expect.poll(gateway.subscribed, WAIT).toBe(true);
    await gateway.send({ type: 'updated', payload: { ids: [] }, meta: { all: true } });
    await expect.poll(banner, WAIT).toBe(`${en.live.list_changed}${en.live.show}`);
  });
});
