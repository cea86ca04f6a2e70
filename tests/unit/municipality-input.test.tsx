import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, type DataProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { MunicipalityInput } from '../../src/resources/service-points/municipality-input.tsx';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

const field: FieldModel = {
  source: 'municipality',
  type: 'string',
  required: false,
  readOnly: false,
  column: { type: 'text', hide: true, ignorexport: false, index: 0 },
  input: { kind: 'municipality', tab: 'basic' },
};

/** The address index's municipalities by country, as `lists?type=municipality&country_iso=` answers. */
const LISTS: Record<string, string[]> = { DK: ['Aarhus', 'Odense', 'København'], NO: ['Oslo', 'Bergen'] };

function FormValues() {
  const values = useWatch();
  return <pre data-testid="values">{JSON.stringify(values)}</pre>;
}
const formValues = () => JSON.parse(screen.getByTestId('values').textContent ?? '{}') as Record<string, unknown>;

function setup(record: Record<string, unknown>, locale = 'en-US') {
  const call = vi.fn(async ({ query }: { query: Record<string, string> }) => ({
    data: (LISTS[query.country_iso ?? ''] ?? []).map((name, index) => ({ column_id: index + 1, column_name: name })),
  }));
  const save = vi.fn();
  renderInAdmin(
    <Form record={record} onSubmit={save} mode="onChange">
      <MunicipalityInput field={field} mode={record.id ? 'edit' : 'create'} />
      <FormValues />
      <button type="submit">Send</button>
    </Form>,
    {
      dataProvider: { call } as unknown as DataProvider,
      i18nProvider: i18nProviderIn(locale),
      resource: 'service-points',
      record,
    },
  );
  return { call, save };
}

afterEach(cleanup);

describe('the service point municipality, chosen from the list of the form country', () => {
  it('offers the municipalities of the country, picks one, and refuses a name outside the list', async () => {
    const { call, save } = setup({ country: 'DK' });
    const input = screen.getByLabelText('Municipality');
    fireEvent.change(input, { target: { value: 'od' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Odense' }));
    expect(formValues().municipality).toBe('Odense');
    expect(call).toHaveBeenCalledWith(
      expect.objectContaining({ path: 'webtool/lists', query: { type: 'municipality', country_iso: 'DK' } }),
    );
    // Oslo is Norway's: refused in the form with the gateway's message, nothing sent.
    fireEvent.change(input, { target: { value: 'Oslo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Choose a municipality of the list for this country')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    // A name typed out in full, in another case, becomes the list's name.
    fireEvent.change(input, { target: { value: 'aarhus' } });
    fireEvent.blur(input);
    await waitFor(() => expect(formValues().municipality).toBe('Aarhus'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(save).toHaveBeenCalled());
  });

  it('keeps a stored name that the list does not hold, shown as is with a hint (in French too)', async () => {
    const { save } = setup({ id: 7, country: 'NO', municipality: 'Gamlebyen' }, 'fr-FR');
    const input = screen.getByLabelText('Commune') as HTMLInputElement;
    expect(input.value).toBe('Gamlebyen');
    expect(await screen.findByText(/« Gamlebyen » n'est pas dans la liste de ce pays/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(formValues().municipality).toBe('Gamlebyen');
  });
});
