import { type Locator, type Page } from '@playwright/test';
import config from '../../playwright.config.ts';
import { expect, seriousViolations, signedInPage, test } from './support.ts';
import { png as halvesPng } from '../fixtures/upload-files.ts';

// Chromium's fake camera shows a test pattern and grants access without asking; the project's own
// launch options stay (executable, sandbox flags).
const launchOptions = config.use!.launchOptions!;
test.use({
  launchOptions: {
    ...launchOptions,
    args: [...(launchOptions.args ?? []), '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

/** A real PNG, left half orange and right half teal. */
const png = (width: number, height: number) =>
  halvesPng(width, height, (x) => (x < width / 2 ? [240, 140, 20] : [20, 150, 140]));

const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(bytes: Buffer) {
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes[offset + 1];
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  throw new Error('no start-of-frame segment');
}

const SIGN = png(240, 160);

/** Opens a service point's edit page at its More tab. */
async function openMoreTab(page: Page, servicePointId: number, more: RegExp) {
  await page.goto(`/service-points/${servicePointId}`);
  await page.getByRole('tab', { name: more }).click();
}

async function pick(dialog: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  await dialog.locator('input[type="file"]').setInputFiles(file);
}

test('an operator adds photos by picker and drag and drop, and is refused the three ways before sending', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await openMoreTab(page, 47, /^More$/);
  await expect(page.getByText('No photos yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Photos (0/5)' }).click();
  const gallery = page.getByRole('dialog', { name: 'Photos (0/5)', exact: true });
  await expect(gallery.getByText('No photos yet.')).toBeVisible();

  // A picked photo goes through the editor; saved untouched, the original bytes are stored.
  await pick(gallery, { name: 'shop sign.png', mimeType: 'image/png', buffer: SIGN });
  const editor = page.getByRole('dialog', { name: /Edit the new photo before adding it/ });
  await expect(editor.getByText('Result: 240 × 160 pixels')).toBeVisible();
  await editor.getByRole('button', { name: 'Save photo' }).click();
  await expect(page.getByText('The photo was added')).toBeVisible();
  const dialog = page.getByRole('dialog', { name: /^Photos \(\d\/5\)$/ });
  const first = dialog.getByRole('img', { name: 'Photo 1: shop sign.png' });
  await expect(first).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Photos (1/5)', exact: true })).toBeVisible();
  await expect.poll(() => first.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(240);
  const stored = await page.request.get((await first.getAttribute('src'))!);
  expect(stored.headers()['content-type']).toBe('image/png');
  expect(Buffer.compare(await stored.body(), SIGN)).toBe(0);

  // The three refusals, each with its message, before anything is sent.
  await pick(dialog, { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Opening hours 8-22\n') });
  await expect(dialog.getByRole('alert')).toHaveText('Invalid photo format');
  const huge = Buffer.concat([png(2, 2), Buffer.alloc(6 * 1024 * 1024)]);
  await pick(dialog, { name: 'huge.png', mimeType: 'image/png', buffer: huge });
  await expect(dialog.getByRole('alert')).toHaveText('File is too large');

  // Drag and drop onto the drop zone.
  const dataTransfer = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'dropped.png', { type: 'image/png' }));
      return transfer;
    },
    [...png(60, 40)],
  );
  await dialog.getByTestId('photo-drop-zone').dispatchEvent('drop', { dataTransfer });
  await editor.getByRole('button', { name: 'Save photo' }).click();
  await expect(dialog.getByRole('img', { name: 'Photo 2: dropped.png' })).toBeVisible();

  for (const index of [3, 4, 5]) {
    await pick(dialog, { name: `side-${index}.png`, mimeType: 'image/png', buffer: png(30 + index, 20) });
    await editor.getByRole('button', { name: 'Save photo' }).click();
    await expect(dialog.getByRole('img', { name: `Photo ${index}: side-${index}.png` })).toBeVisible();
  }
  await expect(page.getByRole('dialog', { name: 'Photos (5/5)', exact: true })).toBeVisible();
  await pick(dialog, { name: 'sixth.png', mimeType: 'image/png', buffer: SIGN });
  await expect(dialog.getByRole('alert')).toHaveText('The amount of uploaded pictures has been exceeded');

  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
});

test('an operator deletes a photo after confirming, views one large by keyboard, sees the gateway refuse a photo added elsewhere meanwhile, and saves the form', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await openMoreTab(page, 47, /^More$/);
  // Typed before the photos change, kept through the record's reloads and saved.
  await page.getByRole('textbox', { name: 'Note' }).fill('Photos checked by e2e');
  await page.getByRole('button', { name: 'Photos (5/5)' }).click();
  const dialog = page.getByRole('dialog', { name: /^Photos \(\d\/5\)$/ });

  // Delete asks first; the photo's file goes with it.
  const lastUrl = (await dialog.getByRole('img', { name: 'Photo 5: side-5.png' }).getAttribute('src'))!;
  await dialog.getByRole('button', { name: 'Delete photo 5' }).click();
  await page.getByRole('dialog', { name: 'Delete this photo?' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The photo was removed')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Photos (4/5)', exact: true })).toBeVisible();
  expect((await page.request.get(lastUrl)).status()).toBe(404);

  // A large view; back, the focus is on the photo again, and Escape closes the gallery.
  await dialog.getByRole('button', { name: 'Open photo 1 (shop sign.png)' }).click();
  await expect(dialog.getByRole('img', { name: 'Photo 1: shop sign.png' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Back to all photos' }).click();
  await expect(dialog.getByRole('button', { name: 'Open photo 1 (shop sign.png)' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Photos (4/5)' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Photo 4: side-4.png' })).toBeVisible();

  // Meanwhile a colleague fills the gallery: this page still counts 4, the gateway refuses the sixth.
  const colleague = await signedInPage(browser, 'operator');
  await openMoreTab(colleague, 47, /^More$/);
  await colleague.getByRole('button', { name: 'Photos (4/5)' }).click();
  await pick(colleague.getByRole('dialog'), { name: 'colleague.png', mimeType: 'image/png', buffer: png(20, 20) });
  await colleague.getByRole('button', { name: 'Save photo' }).click();
  await expect(colleague.getByRole('dialog', { name: 'Photos (5/5)', exact: true })).toBeVisible();
  await colleague.context().close();

  await page.getByRole('button', { name: 'Photos (4/5)' }).click();
  await pick(dialog, { name: 'late.png', mimeType: 'image/png', buffer: png(20, 20) });
  await page.getByRole('button', { name: 'Save photo' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The amount of uploaded pictures has been exceeded');
  // The refusal reloads the record: the colleague's photo shows.
  await expect(dialog.getByRole('img', { name: 'Photo 5: colleague.png' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/service-points(\?.*)?$/);
  await openMoreTab(page, 47, /^More$/);
  await expect(page.getByRole('textbox', { name: 'Note' })).toHaveValue('Photos checked by e2e');
});

test('the editor turns, crops and doubles a photo, downloads it as JPEG and saves it in its place', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await openMoreTab(page, 47, /^More$/);
  await page.getByRole('button', { name: /^Photos \(\d\/5\)$/ }).click();
  const dialog = page.getByRole('dialog', { name: /^Photos \(\d\/5\)$/ });
  const before = (await dialog.getByRole('img', { name: 'Photo 1: shop sign.png' }).getAttribute('src'))!;
  await dialog.getByRole('button', { name: 'Edit photo 1' }).click();

  const editor = page.getByRole('dialog', { name: /^Edit photo/ });
  await expect(editor.getByText('Result: 240 × 160 pixels')).toBeVisible();
  await editor.getByRole('button', { name: 'Rotate right 90°' }).click();
  await expect(editor.getByText('Result: 160 × 240 pixels')).toBeVisible();
  await editor.getByRole('button', { name: 'Square' }).click();
  await editor.getByRole('button', { name: 'Double (2x)' }).click();
  await expect(editor.getByText('Result: 320 × 320 pixels')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await editor.getByRole('button', { name: 'Download JPEG' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('shop sign-edited.jpg');
  const jpeg = await (await import('node:fs/promises')).readFile((await download.path())!);
  expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect(jpegSize(jpeg)).toEqual({ width: 320, height: 320 });

  await editor.getByRole('button', { name: 'Save photo' }).click();
  await expect(page.getByText('The photo was replaced')).toBeVisible();
  const replaced = dialog.getByRole('img', { name: 'Photo 1: shop sign.png' });
  await expect(replaced).not.toHaveAttribute('src', before);
  const served = await page.request.get((await replaced.getAttribute('src'))!);
  expect(served.headers()['content-type']).toBe('image/png');
  expect(pngSize(await served.body())).toEqual({ width: 320, height: 320 });
  expect((await page.request.get(before)).status()).toBe(404);
});

test('a photo taken with the camera is uploaded, in French; the camera stops with the dialog', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator', { locale: 'fr-FR' });
  await page.addInitScript(() => {
    localStorage.setItem('wt.language', 'fr-FR');
    // Every stream the page opens, so that the test can see it released.
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    const streams: MediaStream[] = [];
    Object.assign(window, { openedStreams: streams });
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
  });
  await openMoreTab(page, 53, /^Plus$/);
  await page.getByRole('button', { name: 'Photographies (0/5)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Photographies (0/5)' });
  await expect(dialog.getByText("Aucune photo pour l'instant.")).toBeVisible();
  await pick(dialog, { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('pas une image') });
  await expect(dialog.getByRole('alert')).toHaveText('Format de photo non valide');

  await dialog.getByRole('button', { name: 'Prendre une photo' }).click();
  const camera = page.getByRole('dialog', { name: 'Prendre une photo' });
  const preview = camera.getByLabel('Aperçu de la caméra en direct');
  await expect.poll(() => preview.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
  await camera.getByRole('button', { name: 'Capturer' }).click();
  await expect(camera).toBeHidden();
  // Closing the camera dialog released the camera: every track it opened has ended.
  const trackStates = () =>
    page.evaluate(() =>
      (window as unknown as { openedStreams: MediaStream[] }).openedStreams.flatMap((stream) =>
        stream.getTracks().map((track) => track.readyState),
      ),
    );
  await expect.poll(trackStates).toEqual(['ended']);

  const editor = page.getByRole('dialog', { name: /Retouchez la nouvelle photo/ });
  await expect(editor.getByText(/^Résultat : \d+ × \d+ pixels$/)).toBeVisible();
  await editor.getByRole('button', { name: 'Enregistrer la photo' }).click();
  await expect(page.getByText('La photo a été ajoutée')).toBeVisible();
  const photo = page
    .getByRole('dialog', { name: 'Photographies (1/5)' })
    .getByRole('img', { name: /^Photo 1 : webcam-/ });
  await expect(photo).toBeVisible();
  const served = await page.request.get((await photo.getAttribute('src'))!);
  expect(served.headers()['content-type']).toBe('image/jpeg');
  expect([...(await served.body()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
});
