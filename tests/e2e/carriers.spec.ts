import { expect, signedInPage, test } from './support.ts';

test('an operator creates, searches, edits and deletes a carrier', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers');
  await expect(page.getByRole('cell', { name: 'NordPost' })).toBeVisible();

  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Test Carrier Express');
  await page.getByRole('combobox', { name: 'Primary country' }).click();
  await page.getByRole('option', { name: 'Sweden' }).click();
  await page.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill('25');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Must be at most 20')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Test Carrier Express');

  await page.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill('5.5');
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByRole('textbox', { name: 'Webhook return URL' }).fill('http://insecure.example.com/hook');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/https/i).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Webhook return URL' }).fill('https://localhost:9443/carrier');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);

  await page.getByLabel('Search').fill('Test Carrier');
  await expect(page).toHaveURL(/Test(%20|\+)Carrier/);
  await expect(page.getByRole('cell', { name: 'Test Carrier Express' })).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);

  await page.getByRole('cell', { name: 'Test Carrier Express' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Test Carrier Renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await page.getByLabel('Search').fill('Renamed');
  // The search is applied after a pause, by a navigation: wait for it before leaving the list.
  await expect(page).toHaveURL(/Renamed/);
  await expect(page.getByRole('cell', { name: 'Test Carrier Renamed' })).toBeVisible();

  await page.getByRole('cell', { name: 'Test Carrier Renamed' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await page.getByLabel('Search').fill('Renamed');
  await expect(page.getByText('No record found.')).toBeVisible();
});

test('service points show their location type from the lookup list, and filter by it', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  // One of the columns a person chooses (issue 24: the list shows the few a person scans by default).
  await expect(page.getByRole('columnheader', { name: 'Location type' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('menu').getByRole('checkbox', { name: 'Location type' }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Location type' })).toBeVisible();
  await expect(page.locator('tbody tr').first()).toContainText(
    /Supermarket|Kiosk|Fuel station|Shopping mall|Railway station|Library|Pharmacy/,
  );
});
