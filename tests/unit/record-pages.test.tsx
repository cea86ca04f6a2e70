import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Admin, Resource, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { useLocation } from 'react-router-dom';
import carriers from '../../src/resources/carriers/index.ts';
import { englishI18nProvider as i18nProvider } from './support/admin.tsx';

const fjordFrakt = {
  id: 7,
  carrier_id: 7,
  name: 'FjordFrakt',
  active: true,
  primary_country_code: 'NO',
  service_point_radius: 4,
  invoicing_email: 'billing@fjordfrakt.test',
  api_key: 'secret-key-7',
  version: 1,
};

const dataProvider = {
  getOne: async () => ({ data: fjordFrakt }),
  getList: async () => ({ data: [fjordFrakt], total: 1 }),
  getMany: async () => ({ data: [fjordFrakt] }),
  getManyReference: async () => ({ data: [], total: 0 }),
} as unknown as DataProvider;

/** A user who may read carriers and, when `edits`, change them (but never delete them when reading). */
function authProvider(edits: boolean): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => ({}),
    canAccess: async ({ action }) => edits || ['list', 'show', 'export'].includes(action),
  };
}

function Path() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderAt(path: string, edits: boolean) {
  const { model: _model, ...resource } = carriers;
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <Admin dataProvider={dataProvider} authProvider={authProvider(edits)} i18nProvider={i18nProvider}>
        <Resource {...resource} />
      </Admin>
      <Path />
    </TestMemoryRouter>,
  );
}

afterEach(cleanup);

/** The first render of a tabbed form in jsdom is slow on a shared machine. */
const SLOW = { timeout: 20_000 };
const WAIT = { timeout: 15_000 };

describe('/carriers/7/show (a resource without a show page of its own)', () => {
  it('opens the edit page for a user who may edit', SLOW, async () => {
    renderAt('/carriers/7/show', true);
    expect(await screen.findByDisplayValue('FjordFrakt', {}, WAIT)).toBeTruthy();
    expect(screen.getByTestId('path').textContent).toBe('/carriers/7');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('is a read-only view for a reader: labelled values, no input, no Save, no Delete, no secret', SLOW, async () => {
    renderAt('/carriers/7/show', false);
    expect(await screen.findByText('FjordFrakt', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('Name')).toBeTruthy();
    expect(screen.getByText('Primary country')).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByText('secret-key-7')).toBeNull();
    // Fields the record leaves empty read '-', as in the CSV export, not a blank under the label.
    expect(screen.getAllByText('-').length).toBeGreaterThan(0);
    // A yes/no reads in words under its label (the switch "Active": Active), not as a mark (issue 24.2).
    expect(screen.getAllByText('Active')).toHaveLength(2);
    expect(screen.queryByRole('img', { name: 'Active' })).toBeNull();
    expect(screen.getByTestId('path').textContent).toBe('/carriers/7/show');
  });

  it('sends a reader who opens the edit address to the read-only view', SLOW, async () => {
    renderAt('/carriers/7', false);
    expect(await screen.findByText('FjordFrakt', {}, WAIT)).toBeTruthy();
    expect(screen.getByTestId('path').textContent).toBe('/carriers/7/show');
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
  });
});
