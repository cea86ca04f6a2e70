import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type DataProvider } from 'react-admin';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';
import type { FieldModel } from '../../src/schema/resource-model.ts';
import { PHOTO_MAX_BYTES, PHOTO_MESSAGES, safePhotoFileName } from '../../src/schema/photo-upload.ts';
import {
  checkPhotoFile,
  outputSize,
  photoFileName,
  rotate,
  rotatedSize,
  savedType,
} from '../../src/schema/ui/photos/photo-files.ts';
import { PhotoGalleryInput } from '../../src/schema/ui/photos/photo-gallery-input.tsx';
import proposalSchema from '../../schemas/location-proposal.schema.json';
import { cameraProblem, WebcamCaptureDialog } from '../../src/schema/ui/photos/webcam-capture-dialog.tsx';
import { i18nProviderIn, renderInAdmin } from './support/admin.tsx';

const JPEG_START = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01];
const PNG_START = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
const bytes = (start: number[], length = 64) => {
  const all = new Uint8Array(length);
  all.set(start);
  return all;
};

afterEach(cleanup);

describe('the photo checks made before sending (the gateway makes the same)', () => {
  it('accepts a JPEG and a PNG by their bytes, whatever the name or declared type say', async () => {
    expect(await checkPhotoFile(new File([bytes(JPEG_START)], 'a.jpg', { type: 'image/jpeg' }), 0)).toEqual({
      contentType: 'image/jpeg',
    });
    expect(await checkPhotoFile(new File([bytes(PNG_START)], 'a.jpg', { type: 'image/jpeg' }), 4)).toEqual({
      contentType: 'image/png',
    });
  });

  it('refuses a text file renamed .jpg as an invalid photo format', async () => {
    const text = new File(['Opening hours: 8-22'], 'hours.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(text, 0)).toEqual({ problem: PHOTO_MESSAGES.invalidFormat });
  });

  it('refuses a file over 5 MB, and accepts one of exactly 5 MB', async () => {
    const over = new File([bytes(JPEG_START, PHOTO_MAX_BYTES + 1)], 'big.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(over, 0)).toEqual({ problem: 'catalogue.file_too_large' });
    const limit = new File([bytes(JPEG_START, PHOTO_MAX_BYTES)], 'big.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(limit, 0)).toEqual({ contentType: 'image/jpeg' });
  });

  it('refuses a sixth photo, but lets a fifth be replaced by its edited copy', async () => {
    const photo = new File([bytes(JPEG_START)], 'a.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(photo, 5)).toEqual({ problem: PHOTO_MESSAGES.tooMany });
    expect(await checkPhotoFile(photo, 5, true)).toEqual({ contentType: 'image/jpeg' });
  });

  it("refuses a proposal's picture over 1 MB and a sixth one with 'Image too large or too many', as its schema says", async () => {
    const limits = proposalSchema.properties.photos['x-input'];
    expect(limits).toMatchObject({ maxBytes: 1024 * 1024, refusal: 'catalogue.image_too_large_or_many' });
    const over = new File([bytes(JPEG_START, 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(over, 0, false, limits)).toEqual({ problem: 'catalogue.image_too_large_or_many' });
    const photo = new File([bytes(JPEG_START, 1024 * 1024)], 'a.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(photo, 4, false, limits)).toEqual({ contentType: 'image/jpeg' });
    expect(await checkPhotoFile(photo, 5, false, limits)).toEqual({ problem: 'catalogue.image_too_large_or_many' });
    const text = new File(['a note'], 'note.jpg', { type: 'image/jpeg' });
    expect(await checkPhotoFile(text, 0, false, limits)).toEqual({ problem: PHOTO_MESSAGES.invalidFormat });
    expect(en.catalogue.image_too_large_or_many).toBe('Image too large or too many');
    expect(fr.catalogue.image_too_large_or_many).not.toBe(en.catalogue.image_too_large_or_many);
  });

  it.each([
    ['en-US', en, 'The amount of uploaded pictures has been exceeded', 'Invalid photo format', 'File is too large'],
    [
      'fr-FR',
      fr,
      'Le nombre de photos téléversées a été dépassé',
      'Format de photo non valide',
      'Le fichier est trop volumineux',
    ],
  ])('has the catalogue messages in %s', (_locale, messages, tooMany, invalid, tooLarge) => {
    expect(messages.service_point_photos.too_many).toBe(tooMany);
    expect(messages.service_point_photos.invalid_format).toBe(invalid);
    expect(messages.catalogue.file_too_large).toBe(tooLarge);
  });
});

describe('photo file names', () => {
  it('drops folders and control characters, and keeps a long name’s end', () => {
    expect(safePhotoFileName('../../etc/passwd.jpg')).toBe('passwd.jpg');
    expect(safePhotoFileName('C:\\photos\\front.jpg')).toBe('front.jpg');
    expect(safePhotoFileName('a\u0000b\u001f.png')).toBe('ab.png');
    expect(safePhotoFileName('..')).toBeUndefined();
    expect(safePhotoFileName(`${'x'.repeat(300)}.jpg`)).toHaveLength(255);
    expect(safePhotoFileName(`${'x'.repeat(300)}.jpg`)?.endsWith('.jpg')).toBe(true);
  });

  it('takes the extension of the real format', () => {
    expect(photoFileName('shop sign.jpg', 'image/png')).toBe('shop sign.png');
    expect(photoFileName('../x/front.JPEG', 'image/jpeg')).toBe('front.jpg');
    expect(photoFileName('', 'image/webp')).toBe('photo.webp');
  });
});

describe('the editor’s geometry', () => {
  it('turns by quarter turns both ways, swapping width and height', () => {
    expect(rotate(0, 90)).toBe(90);
    expect(rotate(0, -90)).toBe(270);
    expect(rotate(270, 90)).toBe(0);
    expect(rotatedSize(240, 160, 90)).toEqual({ width: 160, height: 240 });
    expect(rotatedSize(240, 160, 180)).toEqual({ width: 240, height: 160 });
  });

  it('scales the crop by 0.5x, 1x and 2x, never below one pixel', () => {
    const crop = { width: 161, height: 100 };
    expect(outputSize(crop, 0.5)).toEqual({ width: 81, height: 50 });
    expect(outputSize(crop, 1)).toEqual({ width: 161, height: 100 });
    expect(outputSize(crop, 2)).toEqual({ width: 322, height: 200 });
    expect(outputSize({ width: 1, height: 1 }, 0.5)).toEqual({ width: 1, height: 1 });
  });

  it('saves a GIF as PNG, which a canvas can write, and keeps the other formats', () => {
    expect(savedType('image/gif')).toBe('image/png');
    expect(savedType('image/jpeg')).toBe('image/jpeg');
    expect(savedType('image/webp')).toBe('image/webp');
  });
});

describe('the camera', () => {
  it.each([
    ['NotAllowedError', 'service_point_photos.camera.denied'],
    ['NotFoundError', 'service_point_photos.camera.no_camera'],
    ['OverconstrainedError', 'service_point_photos.camera.no_camera'],
    ['NotReadableError', 'service_point_photos.camera.failed'],
  ])('explains a %s', (name, key) => {
    expect(cameraProblem(new DOMException('x', name))).toBe(key);
  });
});

function renderCamera(getUserMedia: (() => Promise<MediaStream>) | undefined, locale = 'en-US') {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: getUserMedia ? { getUserMedia } : undefined,
  });
  const onClose = vi.fn();
  const view = renderInAdmin(<WebcamCaptureDialog onCapture={vi.fn()} onClose={onClose} />, {
    i18nProvider: i18nProviderIn(locale),
  });
  return { ...view, onClose };
}

describe('the webcam dialog', () => {
  afterEach(() => Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined }));

  it('says so when the browser has no camera', async () => {
    renderCamera(undefined);
    expect((await screen.findByRole('alert')).textContent).toBe('No camera was found on this device');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Capture' }).disabled).toBe(true);
  });

  it('says so, in French too, when the user refuses the camera', async () => {
    renderCamera(() => Promise.reject(new DOMException('denied', 'NotAllowedError')), 'fr-FR');
    expect((await screen.findByRole('alert')).textContent).toBe(
      "L'accès à la caméra a été refusé. Autorisez la caméra dans le navigateur pour prendre une photo.",
    );
  });

  it('stops the camera when the dialog closes', async () => {
    const stop = vi.fn();
    const stream = { getTracks: () => [{ stop }] } as unknown as MediaStream;
    const getUserMedia = vi.fn(() => Promise.resolve(stream));
    const { unmount } = renderCamera(getUserMedia);
    await waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(1));
    expect(await screen.findByLabelText('Live camera preview')).toBeTruthy();
    expect(stop).not.toHaveBeenCalled();
    unmount();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});

const field: FieldModel = {
  source: 'photos',
  type: 'array',
  required: false,
  readOnly: true,
  column: { type: 'images', hide: true, ignorexport: true, index: 0 },
  input: { kind: 'photo-gallery', tab: 'more' },
};

const stored = (index: number) => ({
  photo_id: `p${index}`,
  url: `/uploads/p${index}.jpg`,
  file_name: `front-${index}.jpg`,
  content_type: 'image/jpeg',
  size: 100,
});

function setup(photos: ReturnType<typeof stored>[], locale = 'en-US') {
  const record = { id: 47, service_point_id: 47, version: 3, photos };
  const put = vi.fn(async () => ({ data: { ...record, version: 4 } }));
  const action = vi.fn(async () => ({ success: true, data: { ...record, version: 4, photos: photos.slice(1) } }));
  const dataProvider = { put, action, getOne: vi.fn(async () => ({ data: record })) } as unknown as DataProvider;
  renderInAdmin(<PhotoGalleryInput field={field} />, {
    dataProvider,
    i18nProvider: i18nProviderIn(locale),
    resource: 'service-points',
    record,
  });
  return { put, action };
}

const choose = (file: File) =>
  fireEvent.change(document.querySelector<HTMLInputElement>('input[type="file"]')!, { target: { files: [file] } });

describe('the photo gallery', () => {
  it('shows the count, an empty state and the photos with their alt texts', async () => {
    setup([]);
    expect(screen.getByText('No photos yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Photos (0/5)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photos (0/5)' });
    expect(within(dialog).getByText('No photos yet.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Choose a photo' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Take a photo' })).toBeTruthy();
  });

  it('refuses a sixth photo before sending, with the catalogue message, in French too', async () => {
    const { put } = setup([1, 2, 3, 4, 5].map(stored), 'fr-FR');
    fireEvent.click(screen.getByRole('button', { name: 'Photographies (5/5)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photographies (5/5)' });
    expect(within(dialog).getByRole('img', { name: 'Photo 3 : front-3.jpg' })).toBeTruthy();
    choose(new File([bytes(JPEG_START)], 'sixth.jpg', { type: 'image/jpeg' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Le nombre de photos téléversées a été dépassé',
    );
    expect(put).not.toHaveBeenCalled();
  });

  it('refuses a text file renamed .jpg and a file over 5 MB, sending nothing', async () => {
    const { put } = setup([stored(1)]);
    fireEvent.click(screen.getByRole('button', { name: 'Photos (1/5)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photos (1/5)' });
    choose(new File(['not a picture'], 'hours.jpg', { type: 'image/jpeg' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid photo format');
    choose(new File([bytes(JPEG_START, PHOTO_MAX_BYTES + 1)], 'big.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('File is too large'));
    expect(put).not.toHaveBeenCalled();
  });

  it('deletes a photo only once confirmed, naming it in the request', async () => {
    const { action } = setup([stored(1), stored(2)]);
    fireEvent.click(screen.getByRole('button', { name: 'Photos (2/5)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photos (2/5)' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete photo 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this photo?' });
    expect(within(confirm).getByText(/front-1\.jpg will be removed/)).toBeTruthy();
    expect(action).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(action).toHaveBeenCalledWith('service-points', 'DELETE', 'photo', {
        service_point_id: 47,
        photo_id: 'p1',
      }),
    );
    expect(await screen.findByRole('dialog', { name: 'Photos (1/5)' })).toBeTruthy();
  });
});
