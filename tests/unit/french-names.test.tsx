import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AdminContext, Form, ResourceContextProvider, type DataProvider } from 'react-admin';
import { useLookupChoices } from '../../src/schema/ui/lookup-choices.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { schemaColumn } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaInput } from '../../src/schema/ui/schema-inputs.tsx';
import { accessProfile } from '../../src/authProvider/access-profile.ts';
import { ProfilePage } from '../../src/custom/account/profile-page.tsx';
import { TranslatorProvider } from '../../src/custom/account/translation.tsx';
import { demoRoles } from '../../server/seed/demo-network.ts';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

afterEach(cleanup);

const i18nIn = i18nProviderIn;

/** The gateway's answer to webtool/lists?type=location_types: English names, as production gives. */
const gatewayLocationTypes = [
  { column_id: 1, column_name: 'Supermarket' },
  { column_id: 3, column_name: 'Fuel station' },
  { column_id: 99, column_name: 'Harbour kiosk' },
];

function LocationTypeNames() {
  const choices = useLookupChoices('webtool/lists?type=location_types');
  return (
    <ul>
      {choices.map((choice) => (
        <li key={choice.id}>{choice.name}</li>
      ))}
    </ul>
  );
}

function renderLocationTypes(locale: string) {
  const dataProvider = { call: async () => ({ data: gatewayLocationTypes }) } as unknown as DataProvider;
  renderInAdmin(<LocationTypeNames />, { dataProvider, i18nProvider: i18nIn(locale) });
}

describe('location types from webtool/lists', () => {
  it('read in French when the app is in French, in French alphabetical order', async () => {
    renderLocationTypes('fr-FR');
    await screen.findByText('Supermarché');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      // A type the locale does not know yet keeps the gateway's name.
      'Harbour kiosk',
      'Station-service',
      'Supermarché',
    ]);
  });

  it('read in English when the app is in English', async () => {
    renderLocationTypes('en-US');
    await screen.findByText('Supermarket');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Fuel station',
      'Harbour kiosk',
      'Supermarket',
    ]);
  });
});

const superAdminRole = demoRoles().find((role) => role.role_name === 'operator_infinity_superadmin')!;
const carrierRole = demoRoles().find((role) => role.role_name === 'carrier_1_admin')!;

function DescriptionCell() {
  const field = modelOf('role').fields.find((f) => f.source === 'role_description')!;
  return <>{schemaColumn(field)}</>;
}

function renderRolesListCell(locale: string) {
  renderInAdmin(<DescriptionCell />, {
    i18nProvider: i18nIn(locale),
    record: { id: carrierRole.role_name, ...carrierRole },
  });
}

describe('the demo roles’ descriptions', () => {
  it('read in French in the roles list when the app is in French', async () => {
    renderRolesListCell('fr-FR');
    expect(await screen.findByText('Administrateur de NordPost')).toBeTruthy();
  });

  it('read in English in the roles list when the app is in English', async () => {
    renderRolesListCell('en-US');
    expect(await screen.findByText('NordPost administrator')).toBeTruthy();
  });

  it('read in French on the profile page, and the super admin is still recognised', async () => {
    const profile = accessProfile([superAdminRole.role_name], {
      features: [],
      permissions: [],
      partner_info: { partner_type: 'operator', partner_id: null, partner_name: null },
      role: superAdminRole,
    })!;
    expect(profile.superAdmin).toBe(true);
    const authProvider = {
      login: async () => {},
      logout: async () => {},
      checkAuth: async () => {},
      checkError: async () => {},
      getPermissions: async () => profile,
      getIdentity: async () => ({ id: 'superadmin', fullName: 'superadmin' }),
    };
    const i18nProvider = i18nIn('fr-FR');
    // The password fields are the sign-in screens' own, read through the app's translator.
    render(
      <TranslatorProvider translator={{ ...i18nProvider, onLocaleChange: () => () => undefined }}>
        <AdminContext i18nProvider={i18nProvider} authProvider={authProvider}>
          <ProfilePage />
        </AdminContext>
      </TranslatorProvider>,
    );
    expect(
      await screen.findByText("Rôle : Super administrateur de l'opérateur du réseau (operator_infinity_superadmin)"),
    ).toBeTruthy();
  });

  it('are edited in each language in the role form', async () => {
    const field = modelOf('role').fields.find((f) => f.source === 'role_description_translations')!;
    render(
      <AdminContext i18nProvider={i18nIn('fr-FR')}>
        <ResourceContextProvider value="roles">
          <Form record={{ id: carrierRole.role_name, ...carrierRole }}>
            <SchemaInput field={field} mode="edit" />
          </Form>
        </ResourceContextProvider>
      </AdminContext>,
    );
    expect(await screen.findByRole('textbox', { name: 'Description par langue (Français)' })).toHaveProperty(
      'value',
      'Administrateur de NordPost',
    );
    // English is the description itself; an English version would be written here only to differ from it.
    expect(screen.getByRole('textbox', { name: 'Description par langue (English)' })).toHaveProperty('value', '');
  });
});
