import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, type DataProvider } from 'react-admin';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { SvgUploadInput } from '../../src/resources/carriers/svg-upload-input.tsx';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

const field: FieldModel = {
  source: 'logo_url',
  type: 'string',
  required: false,
  readOnly: true,
  column: { type: 'images', hide: true, ignorexport: true, index: 22 },
  input: { kind: 'svg-upload', tab: 'basic', removeOpname: 'logo' },
};

const hostile =
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="4" height="4"/></svg>';

function setup(record: Record<string, unknown>, locale = 'en-US') {
  const put = vi.fn(async () => ({ data: { ...record, version: 2 } }));
  const deleteOpname = vi.fn(async () => ({ data: { ...record, version: 2 } }));
  const getOne = vi.fn(async () => ({ data: record }));
  const dataProvider = { put, deleteOpname, getOne } as unknown as DataProvider;
  renderInAdmin(
    <Form record={record}>
      <SvgUploadInput field={field} />
    </Form>,
    { dataProvider, i18nProvider: i18nProviderIn(locale), resource: 'carriers', record },
  );
  return { put, deleteOpname };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const choose = (file: File) => fireEvent.change(fileInput(), { target: { files: [file] } });

afterEach(cleanup);

describe('the SVG upload input', () => {
  it('previews the sanitised file, then uploads the chosen bytes', async () => {
    const { put } = setup({ id: 7, carrier_id: 7 });
    expect(screen.getByText('No file uploaded yet')).toBeTruthy();
    choose(new File([hostile], 'brand.svg', { type: 'image/svg+xml' }));
    const preview = await screen.findByRole<HTMLImageElement>('img', { name: 'Preview of brand.svg' });
    const shown = decodeURIComponent(preview.src);
    expect(shown).toContain('<rect width="4" height="4"/>');
    expect(shown).not.toMatch(/script|alert|onload/);

    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith('carriers', {
      id: 7,
      data: { file_name: 'brand.svg', content_type: 'image/svg+xml', data: btoa(hostile) },
    });
  });

  it.each([
    ['a PNG', new File(['png'], 'brand.png', { type: 'image/png' }), 'Only SVG files (.svg) are allowed'],
    [
      'a file over 1 MB',
      new File([' '.repeat(1024 * 1024 + 1)], 'brand.svg', { type: 'image/svg+xml' }),
      'File is too large',
    ],
    [
      'malformed SVG',
      new File(['<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'], 'brand.svg', { type: 'image/svg+xml' }),
      'The file is not a valid SVG image',
    ],
  ])('refuses %s before sending anything', async (_what, file, message) => {
    const { put } = setup({ id: 7, carrier_id: 7 });
    choose(file);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(put).not.toHaveBeenCalled();
  });

  it('speaks French', async () => {
    setup({ id: 7, carrier_id: 7 }, 'fr-FR');
    choose(new File(['png'], 'brand.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Seuls les fichiers SVG (.svg) sont acceptés');
    expect(screen.getByText('Choisir un fichier SVG')).toBeTruthy();
  });

  it('shows the stored image and removes it with the opname of the schema', async () => {
    const { deleteOpname } = setup({ id: 7, carrier_id: 7, logo_url: '/uploads/abc.svg' });
    expect(screen.getByRole<HTMLImageElement>('img', { name: 'Current Logo' }).getAttribute('src')).toBe(
      '/uploads/abc.svg',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(deleteOpname).toHaveBeenCalledWith('carriers', { id: 7, opname: 'logo' }));
  });
});
