import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  Admin,
  Form,
  Notification,
  RecordContextProvider,
  Resource,
  HttpError,
  TestMemoryRouter,
  type AuthProvider,
  type DataProvider,
} from 'react-admin';
import en from '../../locales/en-US.json';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { permissionSet } from '../../src/schema/permissions.ts';
import { modelOf } from '../../src/schema/ui/registry.ts';
import { cellContext, columnPlan } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaInput } from '../../src/schema/ui/schema-inputs.tsx';
import { InputKindsProvider, type InputKindProps } from '../../src/schema/ui/input-kinds.tsx';
import { RecordActionButtons } from '../../src/schema/ui/record-page-head.tsx';
import carriers from '../../src/resources/carriers/index.ts';
import carrierSchema from '../../schemas/carrier.schema.json';
import expirySettingsSchema from '../../schemas/carrier-expiry-settings.schema.json';
import couriers from '../../src/resources/couriers/index.ts';
import common from '../../schemas/common.schema.json';
import { englishI18nProvider as i18nProvider, renderInAdmin } from './support/admin.tsx';

const translate = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);

afterEach(cleanup);

const SLOW = { timeout: 30_000 };
const WAIT = { timeout: 15_000 };

describe('input kinds registered by a resource', () => {
  const field: FieldModel = {
    source: 'colour',
    type: 'string',
    required: false,
    readOnly: false,
    column: { type: 'text', hide: false, ignorexport: false, index: 0 },
    input: { kind: 'colour-wheel' },
  };
  const ColourWheel = ({ field: named, mode }: InputKindProps) => <p>{`wheel for ${named.source} (${mode})`}</p>;

  function renderInput(withKinds: boolean) {
    const input = <SchemaInput field={field} mode="edit" />;
    renderInAdmin(
      <Form record={{ colour: '#fff' }}>
        {withKinds ? <InputKindsProvider value={{ 'colour-wheel': ColourWheel }}>{input}</InputKindsProvider> : input}
      </Form>,
      { resource: 'carriers' },
    );
  }

  it('renders the widget registered under the field x-input.kind', () => {
    renderInput(true);
    expect(screen.getByText('wheel for colour (edit)')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('falls back to the input of the field type when no resource registered the kind', () => {
    renderInput(false);
    expect(screen.queryByText(/wheel for/)).toBeNull();
    expect(screen.getByRole('textbox')).toBeTruthy();
  });
});

describe('x-badge', () => {
  const status = modelOf('service-point').fields.find((field) => field.source === 'status')!;
  const cell = columnPlan(
    status,
    cellContext(translate, 'en-US', () => ''),
  );
  const badge = (record: Record<string, unknown>) => {
    render(<>{cell({ id: 1, ...record })}</>);
    return screen.queryByText(/./, { selector: '[data-badge-color]' });
  };

  it('names the value and colours it per value', () => {
    const shown = badge({ status: 7, is_terminated: false });
    expect(shown?.textContent).toBe('Active');
    expect(shown?.getAttribute('data-badge-color')).toBe('success');
  });

  it('applies a matching rule before the per-value colour', () => {
    const shown = badge({ status: 7, is_terminated: true });
    expect(shown?.textContent).toBe('Terminated');
    expect(shown?.getAttribute('data-badge-color')).toBe('error');
  });

  it('shows nothing for an empty value', () => {
    expect(badge({ status: null })).toBeNull();
  });

  it('refuses an unknown colour or a misspelt rule key when the schema is compiled', () => {
    const withBadge = (badgeHint: object) => () =>
      createSchemaRegistry([
        common,
        {
          $id: 'thing',
          type: 'object',
          properties: { state: { type: 'integer', 'x-badge': badgeHint } },
        },
      ]).validator('thing');
    expect(withBadge({ colors: { 1: 'success' } })).not.toThrow();
    expect(withBadge({ colors: { 1: 'pink' } })).toThrow(/x-badge/);
    expect(withBadge({ rules: [{ when: {}, label: 'x', colour: 'error' }] })).toThrow(/x-badge/);
  });
});

describe('x-record-actions (webtool users)', () => {
  const model = modelOf('webtool-user');
  const superAdmin = { partnerType: 'operator', superAdmin: true, permissions: permissionSet([], true) };

  function renderActions(
    record: Record<string, unknown>,
    call: ReturnType<typeof vi.fn>,
    profile: object = superAdmin,
  ) {
    const dataProvider = { call } as unknown as DataProvider;
    const authProvider = {
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => profile,
    } as unknown as AuthProvider;
    renderInAdmin(
      <>
        <RecordContextProvider value={{ id: record.username, ...record }}>
          <RecordActionButtons model={model} />
        </RecordContextProvider>
        <Notification />
      </>,
      { dataProvider, authProvider, resource: 'webtool-users' },
    );
  }

  it('offers the actions whose condition the record meets, and calls the gateway with the declared body', async () => {
    const call = vi.fn(async () => ({ success: true }));
    renderActions({ username: 'carrier2', enabled: true }, call);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable' }));
    expect(screen.queryByRole('button', { name: 'Enable' })).toBeNull();
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith({
        method: 'PUT',
        path: 'webtool/identity_access/users',
        body: { username: 'carrier2', action_type: 2 },
      }),
    );
    expect(await screen.findByText('The user is disabled.')).toBeTruthy();
  });

  it('asks its confirmation first, and calls nothing when the user cancels', async () => {
    const call = vi.fn(async () => ({ success: true }));
    renderActions({ username: 'carrier2', enabled: false }, call);
    expect(await screen.findByRole('button', { name: 'Enable' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password' });
    expect(within(dialog).getByText(en.users.confirm.reset_password)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(call).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(expect.objectContaining({ body: { username: 'carrier2', action_type: 3 } })),
    );
  });

  it('shows the gateway message when it refuses', async () => {
    const call = vi.fn(async () => {
      throw new Error('You cannot disable your own user.');
    });
    renderActions({ username: 'superadmin', enabled: true }, call);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('You cannot disable your own user.')).toBeTruthy();
  });

  it('shows no action to a user whose level may not edit the resource', async () => {
    const reader = {
      partnerType: 'carrier',
      superAdmin: false,
      permissions: permissionSet([{ feature_id: 205, has_permission: true, configurations: [] }], false),
    };
    const call = vi.fn();
    renderActions({ username: 'carrier2', enabled: true }, call, reader);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset password' })).toBeNull();
  });
});

describe("x-record-actions with a form: a carrier's expiry settings", () => {
  const model = modelOf('carrier');
  const superAdmin = { partnerType: 'operator', superAdmin: true, permissions: permissionSet([], true) };
  const nordPost = { id: 1, carrier_id: 1, name: 'NordPost', expiry_days: 7, reminder: false, version: 3 };
  const outOfRange = en.validation.max.replace('%{max}', '30');

  function renderCarrierActions(call: ReturnType<typeof vi.fn>) {
    const dataProvider = { call } as unknown as DataProvider;
    const authProvider = {
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => superAdmin,
    } as unknown as AuthProvider;
    renderInAdmin(
      <>
        <RecordContextProvider value={nordPost}>
          <RecordActionButtons model={model} />
        </RecordContextProvider>
        <Notification />
      </>,
      { dataProvider, authProvider, resource: 'carriers' },
    );
  }

  /** The form checks each change again; Save is disabled while it does. */
  async function saveWhenChecked(dialog: HTMLElement) {
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false), WAIT);
    fireEvent.click(save);
  }

  async function openDialog() {
    fireEvent.click(await screen.findByRole('button', { name: 'Expiry settings' }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Expiry settings' }, WAIT);
    return { dialog, days: within(dialog).getByRole('spinbutton', { name: 'Expiry (days)' }) as HTMLInputElement };
  }

  it('prefills the form from the carrier, refuses an out-of-range value, then sends the values', SLOW, async () => {
    const call = vi.fn(async () => ({ success: true }));
    renderCarrierActions(call);
    const { dialog, days } = await openDialog();
    expect(days.value).toBe('7');
    expect((within(dialog).getByLabelText('Reminder') as HTMLInputElement).checked).toBe(false);
    // The form's inputs only: nothing of the carrier the action does not change.
    expect(within(dialog).queryByRole('textbox', { name: 'Name' })).toBeNull();

    fireEvent.change(days, { target: { value: '31' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(outOfRange, {}, WAIT)).toBeTruthy();
    expect(days.value).toBe('31');
    expect(call).not.toHaveBeenCalled();

    fireEvent.change(days, { target: { value: '14' } });
    fireEvent.click(within(dialog).getByLabelText('Reminder'));
    await saveWhenChecked(dialog);
    await waitFor(
      () =>
        expect(call).toHaveBeenCalledWith({
          method: 'PATCH',
          path: 'webtool/partners/carrier',
          body: {
            carrier_id: 1,
            version: 3,
            expiry_days: 14,
            reminder: true,
            opname: 'update_carrier_expiry_settings',
          },
        }),
      WAIT,
    );
    expect(await screen.findByText('Expiry settings saved.', {}, WAIT)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
  });

  it('shows a gateway refusal in the dialog and keeps what was typed', SLOW, async () => {
    const call = vi
      .fn()
      .mockRejectedValueOnce(
        new HttpError('Save failed', 422, {
          success: false,
          message: 'Save failed, check the fields in error state',
          errors: { expiry_days: { message: 'validation.max', args: { max: 30 } } },
        }),
      )
      .mockRejectedValueOnce(new HttpError('This record was changed by someone else.', 409, {}));
    renderCarrierActions(call);
    const { dialog, days } = await openDialog();
    fireEvent.change(days, { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(outOfRange, {}, WAIT)).toBeTruthy();
    expect(within(dialog).getByText(en.http.save_failed)).toBeTruthy();
    expect(days.value).toBe('12');

    fireEvent.change(days, { target: { value: '13' } });
    await waitFor(() => expect(within(dialog).queryByText(outOfRange)).toBeNull(), WAIT);
    await saveWhenChecked(dialog);
    expect(await within(dialog).findByText('This record was changed by someone else.', {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Expiry settings' })).toBeTruthy();
    expect(days.value).toBe('13');
  });

  it("has a form whose fields keep the carrier schema's types and limits", () => {
    const carrierFields = carrierSchema.properties as Record<string, Record<string, unknown>>;
    for (const [field, rule] of Object.entries(expirySettingsSchema.properties)) {
      const { type, minimum, maximum } = carrierFields[field];
      expect({ field, ...rule }).toEqual({ field, type, ...(minimum !== undefined && { minimum, maximum }) });
    }
  });
});

describe('x-children: a carrier couriers in a tab of its edit page', () => {
  const nordPost = {
    id: 1,
    carrier_id: 1,
    name: 'NordPost',
    active: true,
    primary_country_code: 'NO',
    service_point_radius: 4,
    version: 1,
  };
  const ownCourier = { id: 11, courier_id: 11, carrier_id: 1, code: 'NP-ONE', active: true, box_inspection: false };

  function setup() {
    const getList = vi.fn(async (resource: string) =>
      resource === 'couriers' ? { data: [ownCourier], total: 1 } : { data: [nordPost], total: 1 },
    );
    const create = vi.fn(async (_resource: string, { data }: { data: object }) => ({ data: { id: 12, ...data } }));
    const update = vi.fn();
    const deleteOne = vi.fn(async () => ({ data: ownCourier }));
    const dataProvider = {
      getOne: async (resource: string) => ({ data: resource === 'couriers' ? ownCourier : nordPost }),
      getList,
      getMany: async () => ({ data: [nordPost] }),
      getManyReference: async () => ({ data: [], total: 0 }),
      create,
      update,
      delete: deleteOne,
    } as unknown as DataProvider;
    const authProvider: AuthProvider = {
      login: async () => undefined,
      logout: async () => undefined,
      checkAuth: async () => undefined,
      checkError: async () => undefined,
      getPermissions: async () => ({}),
      canAccess: async () => true,
    };
    const { model: _carrierModel, ...carrierResource } = carriers;
    const { model: _courierModel, ...courierResource } = couriers;
    render(
      <TestMemoryRouter initialEntries={['/carriers/1']}>
        <Admin dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider}>
          <Resource {...carrierResource} />
          <Resource {...courierResource} />
        </Admin>
      </TestMemoryRouter>,
    );
    return { getList, create, update, deleteOne };
  }

  it(
    'lists the couriers through their endpoint filtered by the carrier, creates and deletes there, never saving the carrier',
    SLOW,
    async () => {
      const { getList, create, update, deleteOne } = setup();
      expect(await screen.findByDisplayValue('NordPost', {}, WAIT)).toBeTruthy();
      // The carrier resource registered its own logo widget (loaded lazily); the engine rendered it by kind.
      expect(await screen.findByText('No file uploaded yet', {}, WAIT)).toBeTruthy();

      fireEvent.click(await screen.findByRole('tab', { name: 'Couriers' }, WAIT));
      expect(await screen.findByRole('cell', { name: 'NP-ONE' }, WAIT)).toBeTruthy();
      expect(getList).toHaveBeenCalledWith('couriers', expect.objectContaining({ filter: { carrier_id: 1 } }));

      fireEvent.click(screen.getByRole('button', { name: 'Add Courier' }));
      const dialog = await screen.findByRole('dialog', { name: 'New Courier' });
      const code = within(dialog).getByRole('textbox', { name: 'Courier code' });
      fireEvent.change(code, { target: { value: 'NP--2' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByText(en.validation.alphanumeric_hyphen)).toBeTruthy();
      expect(create).not.toHaveBeenCalled();

      fireEvent.change(code, { target: { value: 'NP-TWO' } });
      await waitFor(() => expect(within(dialog).queryByText(en.validation.alphanumeric_hyphen)).toBeNull(), WAIT);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(
        () =>
          expect(create).toHaveBeenCalledWith(
            'couriers',
            expect.objectContaining({ data: expect.objectContaining({ carrier_id: 1, code: 'NP-TWO' }) }),
          ),
        WAIT,
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);

      fireEvent.click(screen.getByRole('button', { name: 'Delete NP-ONE' }));
      const confirm = await screen.findByRole('dialog');
      fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
      await waitFor(
        () => expect(deleteOne).toHaveBeenCalledWith('couriers', expect.objectContaining({ id: 11 })),
        WAIT,
      );
      expect(update).not.toHaveBeenCalled();
    },
  );
});
