import { expect, seriousViolations, signedInPage, test } from './support.ts';

const hostileLogo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40" onload="document.title='owned'">
  <script>document.title = 'owned'</script>
  <rect width="120" height="40" rx="6" fill="#0a5"/>
  <text x="12" y="26" fill="#fff">Suomi</text>
</svg>`;

test('an operator uploads a carrier logo with a script in it, sees it sanitised, removes it and saves the carrier', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers');
  await page.getByRole('cell', { name: 'Suomi Parcel' }).click();
  await expect(page.getByText('No file uploaded yet')).toBeVisible();
  // Typed before the upload, kept through the record's reload after it.
  await page.getByRole('tab', { name: 'Invoicing' }).click();
  await page.getByRole('textbox', { name: 'Invoicing reference' }).fill('LOGO-E2E');
  await page.getByRole('tab', { name: 'Basic' }).click();

  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'suomi.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(hostileLogo) });
  await expect(page.getByRole('img', { name: 'Preview of suomi.svg' })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('The file was uploaded')).toBeVisible();

  const logo = page.getByRole('img', { name: 'Current Logo' });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  const logoUrl = (await logo.getAttribute('src'))!;
  const served = await page.request.get(logoUrl);
  expect(served.headers()['content-type']).toBe('image/svg+xml');
  expect(served.headers()['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
  const text = await served.text();
  expect(text).toContain('<rect width="120" height="40" rx="6" fill="#0a5"/>');
  expect(text).not.toMatch(/script|onload|owned/i);
  expect(await page.title()).not.toBe('owned');
  expect(await seriousViolations(page, 'section[aria-label="Logo"]')).toEqual([]);

  await expect(page.getByText('The file was uploaded')).toBeHidden();
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('The file was removed')).toBeVisible();
  await expect(page.getByText('No file uploaded yet')).toBeVisible();
  expect((await page.request.get(logoUrl)).status()).toBe(404);
  await expect(page.getByText('The file was removed')).toBeHidden();

  // Each change moved the record's version on; the form follows, so a save is not refused as stale,
  // and what was typed before the upload is still there and saved.
  await page.getByRole('tab', { name: 'Invoicing' }).click();
  await expect(page.getByRole('textbox', { name: 'Invoicing reference' })).toHaveValue('LOGO-E2E');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await page.getByRole('cell', { name: 'Suomi Parcel' }).click();
  await page.getByRole('tab', { name: 'Invoicing' }).click();
  await expect(page.getByRole('textbox', { name: 'Invoicing reference' })).toHaveValue('LOGO-E2E');
});
