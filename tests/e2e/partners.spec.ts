import { expect, signedInPage, startRecordAction, test } from './support.ts';

/** Issue 26: partner setups with their administrator, a refused deactivation, and a carrier invoice. */

test('the super admin onboards a location owner with its administrator', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/location-owners');
  await expect(page.getByRole('cell', { name: 'Coop Nord' })).toBeVisible();
  await page.getByRole('link', { name: 'Create location owner' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Harbour Kiosks');
  await page.getByRole('textbox', { name: 'Organization number' }).fill('SE#556677');
  await page.getByRole('combobox', { name: 'Country' }).click();
  await page.getByRole('option', { name: 'Sweden' }).click();
  await page.getByRole('spinbutton', { name: 'Earnings share (%)' }).fill('31');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Must be at most 30')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Harbour Kiosks');
  await page.getByRole('textbox', { name: 'Organization number' }).fill('SE 556677-1234');
  await page.getByRole('spinbutton', { name: 'Earnings share (%)' }).fill('25');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/location-owners(\?.*)?$/);
  await page.getByRole('cell', { name: 'Harbour Kiosks' }).click();

  const email = `harbour.admin.${Date.now()}@example.com`;
  await startRecordAction(page, 'Create administrator');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Harbour Admin');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('carrier@demo.locker.test');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This email is already registered.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/Administrator created/)).toBeVisible();
  await expect
    .poll(async () => {
      const outbox = (await (await page.request.get('/__dev/outbox')).json()) as { to: string; body: string }[];
      return outbox.find((mail) => mail.to === email)?.body ?? '';
    })
    .toContain('temporary password');
});

test('a support provider linked to service points cannot be deactivated', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/support-providers');
  await page.getByRole('cell', { name: 'HelpDesk Nordic' }).click();
  await page.getByRole('switch', { name: 'Active' }).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Cannot deactivate support provider, already linked to service point')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Active' })).not.toBeChecked();
});

test("an invoice for NordPost's last month is generated, polled and downloaded", async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/invoicing-report');
  await page.getByRole('combobox', { name: 'Carriers' }).click();
  await page.getByRole('option', { name: 'NordPost' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Request report' }).click();
  await expect(page.getByRole('status')).toContainText('1', { timeout: 30_000 });
  await expect(page.getByRole('cell', { name: 'NordPost' }).first()).toBeVisible();
  const log = page.getByRole('table', { name: 'Invoices' });
  const first = log.getByRole('row').filter({ hasText: 'NordPost' }).first();
  await expect(first).toContainText(/DKK/);
  const download = page.waitForEvent('download');
  await first.getByRole('button', { name: /Download the PDF of INV-001-/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^INV-001-\d{8}-\d{8}\.pdf$/);
});

test('each partner type opens only its own partner setup', async ({ browser }) => {
  const owner = await signedInPage(browser, 'locationowner');
  await owner.goto('/location-owners');
  await expect(owner.getByRole('cell', { name: 'Coop Nord' })).toBeVisible();
  await expect(owner.locator('tbody tr')).toHaveCount(1);
  await owner.goto('/price-structure');
  await expect(owner.getByTestId('not-found')).toBeVisible();
  const carrier = await signedInPage(browser, 'carrier');
  await carrier.goto('/hotline-providers');
  await expect(carrier.getByTestId('not-found')).toBeVisible();
});

test("an invoiced price opens read-only with its reason, and a partner's name opens its record", async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/price-structure');
  // Newest first: the last row is the oldest price, which last month's invoices used.
  const oldest = page.locator('tbody tr').last();
  await expect(oldest).toContainText(/\d{2}\/\d{2}\/\d{4}/);
  await oldest.getByRole('link').last().click();
  await expect(page.getByText('An invoice has used this price: it can no longer change.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByText(/^\d+\.\d{2}$/)).toBeVisible();

  await page.goto('/service-points');
  const owner = page.locator('tbody tr').first().getByRole('link').last();
  const name = (await owner.textContent()) ?? '';
  await owner.click();
  await expect(page).toHaveURL(/\/location-owners\/\d+$/);
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
});
