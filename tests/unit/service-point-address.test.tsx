import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, type DataProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import type { AddressSuggestion } from '../../src/contract/addresses.ts';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { toFieldErrors, validateRecord } from '../../src/schema/validate.ts';
import { loadValidators, schemaRegistry } from '../../src/schema/ui/registry.ts';
import { timeAfterMessage } from '../../src/schema/validators/time-after.ts';
import { AddressInput, ValidatedAddressIdInput } from '../../src/schema/ui/address/address-input.tsx';
import { OpeningHoursInput, OpeningHoursValue } from '../../src/resources/service-points/opening-hours-input.tsx';
import { copiedToAllDays, HALF_HOURS } from '../../src/resources/service-points/opening-hours.ts';
import { TYPE_AHEAD_MS } from '../../src/schema/ui/address/address-lookup.ts';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

const addressField: FieldModel = {
  source: 'address',
  type: 'string',
  required: false,
  readOnly: false,
  column: { type: 'text', hide: false, ignorexport: false, index: 5 },
  input: { kind: 'address', tab: 'basic' },
};

const hoursField: FieldModel = {
  ...addressField,
  source: 'opening_hours',
  type: 'object',
  input: { kind: 'opening-hours', tab: 'basic' },
};

const aarhus: AddressSuggestion = {
  address_id: 202012,
  label: 'Nørregade 12, 8000 Aarhus',
  street: 'Nørregade',
  house_number: '12',
  address: 'Nørregade 12',
  postal_code: '8000',
  city: 'Aarhus',
  municipality_id: 2,
  municipality_name: 'Aarhus',
  region_id: null,
  country: 'DK',
  latitude: 56.1673,
  longitude: 10.2039,
};

/** What the form holds, shown so that the test reads it as a user would not, but a save would. */
function FormValues() {
  const values = useWatch();
  return <pre data-testid="values">{JSON.stringify(values)}</pre>;
}
const formValues = () => JSON.parse(screen.getByTestId('values').textContent ?? '{}') as Record<string, unknown>;

/** The service point form's own validator: the schema's, as the edit page runs it. */
const schemaValidator = (values: Record<string, unknown>) =>
  toFieldErrors(validateRecord(schemaRegistry, 'service-point', values));

function setup(children: React.ReactNode, record: Record<string, unknown>, locale = 'en-US') {
  const action = vi.fn(async (..._args: unknown[]) => ({ data: [aarhus] }));
  const dataProvider = { action } as unknown as DataProvider;
  renderInAdmin(
    <Form record={record} validate={schemaValidator} mode="onChange">
      {children}
      <FormValues />
    </Form>,
    { dataProvider, i18nProvider: i18nProviderIn(locale), resource: 'service-points', record },
  );
  return { action };
}

/** Leaflet needs a real layout; a button stands for a click on the map at one place. */
vi.mock('../../src/schema/ui/address/coordinate-map.tsx', () => ({
  default: ({ onPick }: { onPick(latitude: number, longitude: number): void }) => (
    <button type="button" onClick={() => onPick(56.16750001, 10.20409999)}>
      Pick 56.1675, 10.2041
    </button>
  ),
}));

afterEach(cleanup);

// The browser's validators load on demand (src/schema/ui/registry.ts): the forms below validate with them.
beforeAll(() => loadValidators());

describe('the validated address (issue 24.2)', () => {
  const idField = { source: 'address_id' } as FieldModel;

  it('reads as the address in words, not as its id; the id is still saved', () => {
    setup(<ValidatedAddressIdInput field={idField} mode="edit" />, {
      id: 1,
      address: 'Nørregade 12',
      zip: '8000',
      city: 'Aarhus',
      address_id: 401027,
    });
    expect(screen.getByText('Validated address')).toBeTruthy();
    expect(screen.getByText('Nørregade 12, 8000 Aarhus')).toBeTruthy();
    expect(screen.queryByText('401027')).toBeNull();
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(formValues().address_id).toBe(401027);
  });

  it('says so when the address is not validated', () => {
    setup(<ValidatedAddressIdInput field={idField} mode="edit" />, {
      id: 1,
      address: 'Nørregade 12',
      address_id: null,
    });
    expect(screen.getByText('Not validated: choose a suggestion or the place on the map')).toBeTruthy();
  });
});

describe('the address type-ahead', () => {
  it('asks once, 300 ms after the last key, within the country, and fills the form from the pick', async () => {
    const { action } = setup(<AddressInput field={addressField} mode="edit" />, { id: 1, country: 'DK' });
    const input = screen.getByRole('combobox', { name: 'Address' });
    for (const text of ['n', 'no', 'nor']) fireEvent.change(input, { target: { value: text } });
    await new Promise((resolve) => setTimeout(resolve, TYPE_AHEAD_MS - 150));
    expect(action).not.toHaveBeenCalled();
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    expect(action).toHaveBeenCalledWith('service-points', 'GET', 'address', undefined, { text: 'nor', boundary: 'DK' });
    expect(screen.getByText('Not validated: choose a suggestion or the place on the map')).toBeTruthy();

    fireEvent.click(await screen.findByRole('option', { name: 'Nørregade 12, 8000 Aarhus' }));
    await waitFor(() => expect(formValues().address_id).toBe(202012));
    expect(formValues()).toMatchObject({
      address: 'Nørregade 12',
      zip: '8000',
      city: 'Aarhus',
      municipality: 'Aarhus',
      latitude: 56.1673,
      longitude: 10.2039,
    });
    expect(screen.getByText('Address validated')).toBeTruthy();

    // Typing over the picked address makes it unvalidated again.
    fireEvent.change(input, { target: { value: 'Nørregade 13' } });
    await waitFor(() => expect(formValues().address_id).toBeNull());
    expect(screen.getByText('Not validated: choose a suggestion or the place on the map')).toBeTruthy();
  }, 20_000);

  it('says in French that an address is validated', () => {
    setup(
      <AddressInput field={addressField} mode="edit" />,
      { id: 1, country: 'DK', address: 'Nørregade 12', address_id: 202012 },
      'fr-FR',
    );
    expect(screen.getByRole('combobox', { name: 'Adresse' })).toHaveProperty('value', 'Nørregade 12');
    expect(screen.getByText('Adresse validée')).toBeTruthy();
  });
});

describe('opening hours', () => {
  it('offers the 48 half hours of the day', () => {
    expect(HALF_HOURS).toHaveLength(48);
    expect([HALF_HOURS[0], HALF_HOURS[1], HALF_HOURS[47]]).toEqual(['00:00', '00:30', '23:30']);
  });

  it('copies one day to every day, each its own copy', () => {
    const week = copiedToAllDays({ friday: { closed: false, open: '09:00', close: '17:00' } }, 'friday');
    expect(Object.keys(week)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(week.sunday).toEqual({ closed: false, open: '09:00', close: '17:00' });
    expect(week.sunday).not.toBe(week.friday);
  });

  it('sets a day, copies it to all days, closes Sunday, and refuses closing before opening', async () => {
    setup(<OpeningHoursInput field={hoursField} mode="edit" />, { id: 1 });
    fireEvent.change(screen.getByLabelText('Monday Opens'), { target: { value: '08:00' } });
    fireEvent.change(screen.getByLabelText('Monday Closes'), { target: { value: '07:30' } });
    expect(formValues().opening_hours).toEqual({ monday: { closed: false, open: '08:00', close: '07:30' } });
    expect(await screen.findByText('Must be later than the opening time')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Monday Closes'), { target: { value: '17:00' } });
    await waitFor(() => expect(screen.queryByText('Must be later than the opening time')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Copy Monday to all days' }));
    await waitFor(() => expect(screen.getByLabelText('Saturday Closes')).toHaveProperty('value', '17:00'));
    fireEvent.click(screen.getByLabelText('Sunday Closed'));
    const week = formValues().opening_hours as Record<string, unknown>;
    expect(week.wednesday).toEqual({ closed: false, open: '08:00', close: '17:00' });
    expect(week.sunday).toEqual({ closed: true });
    expect(screen.getByLabelText('Sunday Opens')).toHaveProperty('disabled', true);
  }, 20_000);

  it('shows a week as a table in the read-only view', () => {
    const record = {
      id: 1,
      opening_hours: { monday: { closed: false, open: '08:00', close: '17:00' }, sunday: { closed: true } },
    };
    setup(<OpeningHoursValue field={hoursField} source="opening_hours" />, record, 'fr-FR');
    const rows = screen.getAllByRole('row').map((row) => row.textContent);
    expect(rows).toEqual([
      'Lundi08:00 – 17:00',
      'MardiNon renseigné',
      'MercrediNon renseigné',
      'JeudiNon renseigné',
      'VendrediNon renseigné',
      'SamediNon renseigné',
      'DimancheFermé',
    ]);
  });

  it('refuses a closing time at or before the opening time, on that day, in both languages', () => {
    expect(timeAfterMessage('09:00', 'open', { open: '09:00' })).toBe('validation.time_after');
    expect(timeAfterMessage('09:30', 'open', { open: '09:00' })).toBeUndefined();
    expect(timeAfterMessage('09:30', 'open', {})).toBeUndefined();
    const errors = toFieldErrors(
      validateRecord(schemaRegistry, 'service-point', {
        name: 'Kiosk',
        country: 'DK',
        status: 1,
        opening_hours: { tuesday: { closed: false, open: '10:00', close: '08:00' } },
      }),
    );
    expect(errors).toEqual({ opening_hours: { tuesday: { close: { message: 'validation.time_after', args: {} } } } });
    expect(en.validation.time_after).toBe('Must be later than the opening time');
    expect(fr.validation.time_after).toBe("Doit être postérieure à l'heure d'ouverture");
  });
});

describe('the map picker without address autocomplete', () => {
  it('sets the coordinates where the map is clicked and validates with one of the nearest addresses', async () => {
    const { MapPickerInput } = await import('../../src/schema/ui/address/map-picker-input.tsx');
    const latitudeField: FieldModel = {
      ...addressField,
      source: 'latitude',
      type: 'number',
      input: { kind: 'map-picker' },
    };
    const policies = [
      { feature_id: 188, has_permission: true, configurations: [{ type: 'address_autocomplete', show: false }] },
    ];
    const authProvider = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => ({ permissions: { superAdmin: false, granted: new Set([188]), policies } }),
    };
    const action = vi.fn(async (..._args: unknown[]) => ({ data: [aarhus] }));
    renderInAdmin(
      <Form record={{ id: 1, country: 'DK' }}>
        <MapPickerInput field={latitudeField} mode="edit" />
        <FormValues />
      </Form>,
      { dataProvider: { action } as unknown as DataProvider, authProvider, resource: 'service-points' },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Pick 56.1675, 10.2041' }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    const [, , opname, , query] = action.mock.calls[0] as [string, string, string, undefined, Record<string, string>];
    expect(opname).toBe('address');
    expect(query.text).toBe('');
    expect(query.boundary.split(',').map(Number)).toEqual([56.1635, 10.1961, 56.1715, 10.2121]);
    expect(formValues()).toMatchObject({ latitude: 56.1675, longitude: 10.2041 });

    fireEvent.click(await screen.findByRole('button', { name: 'Nørregade 12, 8000 Aarhus' }));
    await waitFor(() => expect(formValues().address_id).toBe(202012));
    // The clicked place stays the service point's; the address names it.
    expect(formValues()).toMatchObject({ address: 'Nørregade 12', zip: '8000', latitude: 56.1675, longitude: 10.2041 });
  }, 20_000);
});
