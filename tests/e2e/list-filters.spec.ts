import { listOf } from './pages.ts';
import { expect, signedInPage, startRecordAction, test } from './support.ts';

test('the service point list narrows by status and by location owner, shown by name', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(listOf(page).rows.first()).toBeVisible();
  await expect(listOf(page).pageSize()).toHaveText('15');
  const everything = await listOf(page).total();
  expect(everything).toBeGreaterThanOrEqual(2400);
  // The owner column holds names, not ids.
  expect((await listOf(page).columnValues('Location owner')).filter((value) => /^\d+$/.test(value))).toEqual([]);

  await listOf(page).choose('Status', 'Active');
  await expect(page).toHaveURL(/status/);
  await expect.poll(() => listOf(page).total()).toBeLessThan(everything);
  const active = await listOf(page).total();
  expect(new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['Active']));

  await listOf(page).addFilter('Location owner', 'Kiosk 24');
  await expect(page).toHaveURL(/location_owner_id/);
  await expect.poll(() => listOf(page).total()).toBeLessThan(active);
  expect(await listOf(page).total()).toBeGreaterThan(0);
  expect(new Set(await listOf(page).columnValues('Location owner'))).toEqual(new Set(['Kiosk 24']));
  expect(new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['Active']));
});

test('a row opened right after picking a filter stays open when the filter applies', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(listOf(page).rows.first()).toBeVisible();
  // The record page's code arrives slowly, as on a busy line: the list stays on screen meanwhile,
  // and the filter bar applies its change (half a second later) while the record page loads.
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await listOf(page).rows.first().locator('td a').first().click();
  await expect(page).toHaveURL(/\/service-points\/\d+$/);
  await expect(page.getByRole('tab', { name: 'More' })).toBeVisible({ timeout: 20_000 });
  // Past the filter's debounce and the page's load: still the record, not the list again.
  await page.waitForTimeout(1000);
  await expect(page).toHaveURL(/\/service-points\/\d+$/);
  await expect(page.getByRole('tab', { name: 'More' })).toBeVisible();
});

test('the terminated filter offers Yes and No and finds the terminated service points', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(listOf(page).rows.first()).toBeVisible();
  await listOf(page).addFilter('Terminated', 'Yes');
  await expect.poll(() => listOf(page).total()).toBe(240);
  // A terminated test service point reads 'Test' beside its status.
  expect(new Set((await listOf(page).columnValues('Status')).map((status) => status.replace(/Test$/, '')))).toEqual(
    new Set(['Terminated']),
  );
});

test("a service point's form picks its owner, providers and carriers by name", async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points/3');
  await page.getByRole('tab', { name: 'More' }).click();
  for (const label of ['Location owner', 'Maintenance provider', 'Support provider']) {
    await expect(page.getByRole('combobox', { name: label })).toHaveText(/[A-Za-z]{3}/);
  }
  // The location owner is picked in its own dialog (Location owner), by name.
  await startRecordAction(page, 'Location owner');
  const dialog = page.getByRole('dialog', { name: 'Location owner' });
  await dialog.getByRole('combobox', { name: 'Location owner' }).click();
  const owners = await page.getByRole('option').allTextContents();
  expect(owners).toEqual(expect.arrayContaining(['Coop Nord', 'Kiosk 24', 'FuelStop', 'City Malls']));
  await page.getByRole('option', { name: 'City Malls' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Location owner' })).toHaveText('City Malls');
  // Service point 3 is open to NordPost and Vistula Kurier (seeded from its id), on its Carrier settings tab.
  await page.getByRole('tab', { name: 'Carrier settings' }).click();
  await expect(page.getByRole('button', { name: 'NordPost', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vistula Kurier', exact: true })).toBeVisible();
});
