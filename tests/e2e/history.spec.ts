import { expect, signedInPage, test } from './support.ts';

test("a record's history shows who changed which field from what to what", async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/couriers/create');
  await page.getByLabel('Carrier').click();
  await page.getByRole('option', { name: 'NordPost' }).click();
  await page.getByLabel(/^Courier code/).fill('HIST-E2E');
  await page.getByRole('textbox', { name: 'Phone' }).fill('+4511220000');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);

  await page.getByRole('textbox', { name: 'Search' }).fill('HIST-E2E');
  // The search is applied after a pause, by a navigation: wait for it before leaving the list.
  await expect(page).toHaveURL(/HIST-E2E/);
  await page.getByRole('link', { name: 'HIST-E2E' }).click();
  await page.getByRole('textbox', { name: 'Phone' }).fill('+4511229999');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);
  await page.getByRole('link', { name: 'HIST-E2E' }).click();

  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: /History of Courier HIST-E2E/ });
  const rows = dialog.getByRole('table', { name: 'History' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Changed');
  await expect(rows.nth(0)).toContainText('operator');
  await expect(rows.nth(0)).toContainText('Phone: +4511220000 → +4511229999');
  await expect(rows.nth(1)).toContainText('Created');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('the service point Log tab lists its changes; an on-hold service point keeps its status', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points/2');
  await page.getByRole('tab', { name: 'More' }).click();
  await page.getByLabel('Note', { exact: true }).fill('Key is at the front desk');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/service-points(\?.*)?$/);

  await page.goto('/service-points/2');
  await page.getByRole('tab', { name: 'Log' }).click();
  await expect(page.getByRole('table', { name: 'History' })).toContainText('Note: — → Key is at the front desk');

  await page.getByRole('tab', { name: 'More' }).click();
  await page.getByRole('switch', { name: 'On hold' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/service-points(\?.*)?$/);
  await page.goto('/service-points/2');
  // On hold, the status cannot be changed, and says why (the gateway refuses it too).
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByText('The status cannot be edited because the service point is on hold')).toBeVisible();
});

test('service points import from CSV as test service points, with row errors shown by kind', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog');
  const picker = dialog.locator('input[type="file"]');
  const header = 'name,country,status,zip,city,latitude,longitude,max_hardware_units,hardware_models';
  const file = (rows: string[]) => ({
    name: 'points.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([header, ...rows].join('\n'), 'utf8'),
  });

  await picker.setInputFiles(
    file([
      'Import Kiosk A,NO,1,0155,Oslo,59.11,10.11,1,Locker 12',
      'Import Kiosk A,NO,1,0155,Oslo,59.12,10.12,1,',
      'Import Kiosk B,NO,1,0155,Oslo,59.13,10.13,1,Locker 12;Locker 24',
      'Import Kiosk C,NO,1,0155,Os#lo,59.14,10.14,1,',
    ]),
  );
  await expect(dialog.getByText('4 rows: 1 valid, 2 invalid, 1 repeated.')).toBeVisible();
  await expect(dialog.getByText('Mismatch: There are more entries than the hardware unit count allows')).toBeVisible();
  await expect(dialog.getByText('Repeated: Repeats line 2')).toBeVisible();
  await expect(dialog.getByText(/^Special characters:/)).toBeVisible();

  await picker.setInputFiles(
    file([
      'Import Kiosk C,NO,1,0155,Oslo,59.21,10.21,2,Locker 12;Locker 24',
      'Import Kiosk D,NO,1,0155,Oslo,59.22,10.22,1,',
    ]),
  );
  await expect(dialog.getByText('2 rows: 2 valid, 0 invalid, 0 repeated.')).toBeVisible();
  await dialog.getByLabel('Import as test service points').check();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('2 rows imported')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('Import Kiosk');
  await expect(page.locator('tbody tr')).toHaveCount(2);
});
