import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Admin, Resource, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import en from '../../locales/en-US.json';
import servicePoints from '../../src/resources/service-points/index.ts';
import { hintProblems } from '../../src/schema/ajv.ts';
import { fieldsHiddenByOptions, optionRequiredErrors, optionShowsField } from '../../src/schema/feature-options.ts';
import { permissionSet, type Policy } from '../../src/schema/permissions.ts';

const model = servicePoints.model;
const field = (source: string) => model.fields.find((candidate) => candidate.source === source)!;

/** A service point policy (feature 188, advance) configuring the given options. */
const policies = (options: Record<string, boolean>): Policy[] => [
  {
    feature_id: 188,
    has_permission: true,
    configurations: Object.entries(options).map(([type, show]) => ({ type, show })),
  },
];

describe('x-input.option and x-input.requiredOption (feature options of spec 01 §6)', () => {
  it('shows an input only when a granted policy of the feature configures its option shown', () => {
    const on = permissionSet(policies({ region: true }), false);
    const off = permissionSet(policies({ region: false }), false);
    const unset = permissionSet(policies({}), false);
    expect(optionShowsField(on, model, field('region_id'))).toBe(true);
    expect(optionShowsField(off, model, field('region_id'))).toBe(false);
    // No policy says: the fallback, off for region.
    expect(optionShowsField(unset, model, field('region_id'))).toBe(false);
    // A field without the hint always shows.
    expect(optionShowsField(off, model, field('city'))).toBe(true);
    expect(fieldsHiddenByOptions(unset, model).map((hidden) => hidden.source)).toEqual([
      'region_id',
      'sub_region_id',
      'delivery_methods',
    ]);
  });

  it('requires the municipality unless a policy turns municipality_required off (fallback on)', () => {
    const byDefault = permissionSet(policies({}), false);
    const off = permissionSet(policies({ municipality_required: false }), false);
    expect(optionRequiredErrors(byDefault, model, { city: 'Oslo', municipality: '  ' })).toEqual({
      municipality: { message: 'validation.required' },
    });
    expect(optionRequiredErrors(off, model, { city: 'Oslo' })).toEqual({});
    expect(optionRequiredErrors(byDefault, model, { municipality: 'Oslo' })).toEqual({});
    // An edit of a record that never had one is not blocked; clearing a stored one is refused.
    expect(optionRequiredErrors(byDefault, model, {}, { city: 'Oslo' })).toEqual({});
    expect(optionRequiredErrors(byDefault, model, {}, { municipality: 'Oslo' })).toEqual({
      municipality: { message: 'validation.required' },
    });
  });

  it('refuses a misshapen option hint when the schema is compiled', () => {
    const schema = {
      $id: 'thing',
      properties: {
        region: { type: 'integer', 'x-input': { option: { name: 'region' } } },
        zone: { type: 'integer', 'x-input': { requiredOption: { option: 'zone', fallback: 'yes' } } },
      },
    };
    expect(hintProblems(schema, 'thing.json')).toEqual([
      "thing.json /properties/region/x-input/option: must have required property 'option'",
      'thing.json /properties/region/x-input/option: unknown key "name"',
      'thing.json /properties/zone/x-input/requiredOption/fallback: must be boolean',
    ]);
  });
});

const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...en }), 'en-US');

const dataProvider = {
  getList: async () => ({ data: [], total: 0 }),
  getOne: async () => ({ data: { id: 1 } }),
  getMany: async () => ({ data: [] }),
  getManyReference: async () => ({ data: [], total: 0 }),
  call: async () => ({ data: [{ column_id: 1, column_name: 'North' }] }),
} as unknown as DataProvider;

function authProvider(options: Record<string, boolean>): AuthProvider {
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => ({
      partnerType: 'operator',
      superAdmin: false,
      permissions: permissionSet(policies(options), false),
    }),
    canAccess: async () => true,
  };
}

function renderCreate(options: Record<string, boolean>) {
  const { model: _model, ...resource } = servicePoints;
  return render(
    <TestMemoryRouter initialEntries={['/service-points/create']}>
      <Admin dataProvider={dataProvider} authProvider={authProvider(options)} i18nProvider={i18nProvider}>
        <Resource {...resource} />
      </Admin>
    </TestMemoryRouter>,
  );
}

afterEach(cleanup);

const SLOW = { timeout: 90_000 };
const WAIT = { timeout: 60_000 };

describe('the service point create form, per role policy', () => {
  it('shows Region and requires a municipality for a role with every option on', SLOW, async () => {
    renderCreate({ region: true, sub_region: true, delivery_method: true, municipality_required: true });
    expect(await screen.findByLabelText('Municipality', {}, WAIT)).toBeTruthy();
    expect(await screen.findByLabelText('Region', {}, WAIT)).toBeTruthy();
    expect(screen.getByLabelText('Sub-region')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Municipality'), { target: { value: 'Oslo' } });
    fireEvent.change(screen.getByLabelText('Municipality'), { target: { value: '' } });
    fireEvent.blur(screen.getByLabelText('Municipality'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('This field is required', {}, WAIT)).not.toHaveLength(0);
    expect(screen.getByLabelText('Municipality').getAttribute('aria-invalid')).toBe('true');
  });

  it('leaves Region, Sub-region and Delivery methods out for a role with those options off', SLOW, async () => {
    renderCreate({ region: false, sub_region: false, delivery_method: false, municipality_required: false });
    expect(await screen.findByLabelText('Municipality', {}, WAIT)).toBeTruthy();
    expect(screen.queryByLabelText('Region')).toBeNull();
    expect(screen.queryByLabelText('Sub-region')).toBeNull();
    expect(screen.queryByText('Delivery methods')).toBeNull();
  });
});
