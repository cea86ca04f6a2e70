import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { AuthProvider } from 'react-admin';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { useReadableTabs } from '../../src/schema/ui/tab-panels.tsx';
import { createAjv } from '../../src/schema/ajv.ts';
import { renderInAdmin } from './support/admin.tsx';

afterEach(cleanup);

const WAIT = { timeout: 15_000 };

/** A user who may list only the resources named. */
const authProvider = (readable: string[]): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => ({}),
  canAccess: async ({ resource }) => readable.includes(resource),
});

function Tabs() {
  return <output data-testid="tabs">{useReadableTabs(modelOf('service-point')).join(',')}</output>;
}

const tabsFor = async (readable: string[]) => {
  renderInAdmin(<Tabs />, { authProvider: authProvider(readable) });
  const output = await screen.findByTestId('tabs');
  return output;
};

describe('x-resource.tabReads: a tab shown only to who may list the resource it shows', () => {
  it('names the Hardware units tab of a service point after the hardware resource', () => {
    expect(modelOf('service-point').tabReads).toEqual({ hardware_units: 'hardware' });
  });

  it('shows the Hardware units tab to a user who may list hardware', async () => {
    const tabs = await tabsFor(['service-points', 'hardware']);
    await expect.poll(() => tabs.textContent, WAIT).toBe('basic,hardware_units,carrier_settings,log,more');
  });

  it('hides it from a user who may not (a carrier), and keeps every other tab', async () => {
    const tabs = await tabsFor(['service-points']);
    await expect.poll(() => tabs.textContent, WAIT).toBe('basic,carrier_settings,log,more');
  });

  it('refuses a schema whose tabReads is not a map of tab to resource name', () => {
    const resource = { name: 'things', endpoint: 'things', id: 'thing_id', tabs: ['a'] };
    expect(() =>
      createAjv().compile({ type: 'object', 'x-resource': { ...resource, tabReads: { a: 'hardware' } } }),
    ).not.toThrow();
    expect(() => createAjv().compile({ type: 'object', 'x-resource': { ...resource, tabReads: { a: 1 } } })).toThrow(
      /x-resource/,
    );
    expect(() => createAjv().compile({ type: 'object', 'x-resource': { ...resource, tabReads: {} } })).toThrow(
      /x-resource/,
    );
  });
});
