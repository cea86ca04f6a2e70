import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AuthProvider, type DataProvider } from 'react-admin';
import { permissionSet } from '../../src/schema/permissions.ts';
import { HardwareUnitsPanel } from '../../src/resources/service-points/hardware-units-panel.tsx';
import { addUnitBlocker, installationAction } from '../../src/resources/service-points/service-point-hardware.ts';
import type { ServicePoint } from '../../src/types/generated/service-point.ts';
import { renderInAdmin } from './support/admin.tsx';

const WAIT = { timeout: 15_000 };

afterEach(cleanup);

describe('what the Hardware units tab offers before asking the gateway', () => {
  const ready: Parameters<typeof addUnitBlocker>[0] = {
    status: 6,
    parked: false,
    is_terminated: false,
    max_hardware_units: 3,
  };

  it('adds a unit only at Ready for installation, Pending units or Active, not on hold nor terminated', () => {
    for (const status of [5, 6, 7] as const) expect(addUnitBlocker({ ...ready, status }, 0)).toBeUndefined();
    for (const status of [0, 1, 2, 3, 4, 8, 9] as const) {
      expect(addUnitBlocker({ ...ready, status }, 0)).toEqual({ message: 'service_points.hardware.why_not_ready' });
    }
    expect(addUnitBlocker({ ...ready, parked: true }, 0)?.message).toBe('service_points.hardware.why_not_ready');
    expect(addUnitBlocker({ ...ready, is_terminated: true }, 0)?.message).toBe('service_points.hardware.why_not_ready');
  });

  it('stops at max hardware units, or at the spec maximum of 7 when it is not set', () => {
    expect(addUnitBlocker(ready, 2)).toBeUndefined();
    expect(addUnitBlocker(ready, 3)).toEqual({ message: 'service_points.hardware.why_limit', args: { max: 3 } });
    expect(addUnitBlocker({ ...ready, max_hardware_units: undefined }, 6)).toBeUndefined();
    expect(addUnitBlocker({ ...ready, max_hardware_units: undefined }, 7)?.args).toEqual({ max: 7 });
  });

  it('offers to open or close a planned unit for installation, and an installed one for uninstallation', () => {
    expect(installationAction({ status: 2, badges_v2: ['assigned', 'installation_pending'] }).opname).toBe(
      'mark_open_for_installation',
    );
    expect(installationAction({ status: 2, badges_v2: ['assigned', 'installation_open'] })).toEqual({
      opname: 'mark_close_for_installation',
      label: 'service_points.hardware.mark_close',
    });
    expect(installationAction({ status: 4, removal_state: 0 })).toEqual({
      opname: 'mark_close_for_installation',
      label: 'service_points.hardware.close_uninstall',
    });
    expect(installationAction({ status: 4, removal_state: 2 })).toEqual({
      opname: 'mark_open_for_installation',
      label: 'service_points.hardware.reopen',
    });
  });
});

describe('the Hardware units tab', () => {
  const servicePoint: ServicePoint = {
    service_point_id: 42,
    name: 'Harbour kiosk',
    country: 'DK',
    status: 7,
    max_hardware_units: 2,
    pinpad_id: 9,
    pinpad_model_id: 7,
    pinpad_status: 4,
    active_pinpad: true,
  };
  const units = [
    { hardware_id: 5, name: 'DK-1', model_name: 'L-24', status: 4, removal_state: 0, badges_v2: ['active', 'all_ok'] },
    { hardware_id: 6, name: 'DK-2', model_name: 'L-24', status: 2, badges_v2: ['assigned', 'installation_pending'] },
  ];

  function renderPanel({ edits, pinpad }: { edits: boolean; pinpad: boolean }) {
    const call = vi.fn(async (request: { method: string; query?: Record<string, string> }) => {
      if (request.method !== 'GET') return { success: true };
      if (request.query?.opname === 'hardware_units') return { data: units };
      if (request.query?.opname === 'get_compartments') return { data: [] };
      if (request.query?.type === 'badges') {
        return { data: [{ column_id: 'installation_pending', column_name: 'Installation pending', color: '#d1c4e9' }] };
      }
      return { data: [{ column_id: 7, column_name: 'PinPad P3 BLE' }] };
    });
    const policies = [
      { feature_id: 188, has_permission: true, configurations: [{ type: 'pinpad', show: pinpad }] },
      { feature_id: 191, has_permission: true },
    ];
    const authProvider: AuthProvider = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => ({ partnerType: 'operator', permissions: permissionSet(policies, false) }),
      canAccess: async ({ action }) => edits || ['list', 'show'].includes(action),
    };
    renderInAdmin(<HardwareUnitsPanel />, {
      dataProvider: { call } as unknown as DataProvider,
      authProvider,
      record: servicePoint,
    });
    return call;
  }

  it('shows each unit with its badges and link, the limit reached, and the PIN pad when the option is on', async () => {
    renderPanel({ edits: true, pinpad: true });
    const planned = await screen.findByRole('region', { name: 'DK-2' }, WAIT);
    expect(within(planned).getByRole('link', { name: 'Open unit DK-2' }).getAttribute('href')).toMatch(
      /\/hardware\/6$/,
    );
    expect(within(planned).getByText('Status: Assigned')).toBeTruthy();
    await waitFor(
      () =>
        expect(planned.querySelector('[data-badge="installation_pending"]')?.textContent).toBe('Installation pending'),
      WAIT,
    );
    expect(within(planned).getByRole('button', { name: 'Mark open for installation' })).toBeTruthy();
    const installed = screen.getByRole('region', { name: 'DK-1' });
    expect(within(installed).getByRole('button', { name: 'Close for uninstallation' })).toBeTruthy();
    expect(screen.getByText('2 of 2 hardware units')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add a hardware unit' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/^The allowed number of hardware units is reached \(2\)/)).toBeTruthy();
    const pinpad = screen.getByRole('region', { name: 'PIN pad' });
    await waitFor(() => expect(within(pinpad).getByText(/PinPad P3 BLE/)).toBeTruthy(), WAIT);
    expect(within(pinpad).getByText('Active')).toBeTruthy();
  });

  it('marks a unit with the service point, the unit and its version', async () => {
    const call = renderPanel({ edits: true, pinpad: false });
    const planned = await screen.findByRole('region', { name: 'DK-2' }, WAIT);
    fireEvent.click(within(planned).getByRole('button', { name: 'Mark open for installation' }));
    await waitFor(
      () =>
        expect(call).toHaveBeenCalledWith(
          expect.objectContaining({
            method: 'PATCH',
            path: 'webtool/service_points',
            body: { opname: 'mark_open_for_installation', service_point_id: 42, hardware_id: 6, version: undefined },
          }),
        ),
      WAIT,
    );
    expect(screen.queryByRole('region', { name: 'PIN pad' })).toBeNull();
  });

  it('shows a user who may not change hardware the units without any action', async () => {
    renderPanel({ edits: false, pinpad: false });
    const planned = await screen.findByRole('region', { name: 'DK-2' }, WAIT);
    expect(within(planned).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add a hardware unit' })).toBeNull();
    expect(within(planned).getByRole('link', { name: 'Open unit DK-2' }).getAttribute('href')).toMatch(
      /\/hardware\/6\/show$/,
    );
  });
});
