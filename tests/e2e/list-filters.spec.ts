import { expect, test, type Page } from '@playwright/test';
import { signedInPage, startRecordAction } from './support.ts';

/** The values of one column on the page, by its header label. */
async function columnValues(page: Page, label: string) {
  const headers = await page.locator('thead th').allTextContents();
  const index = headers.indexOf(label);
  expect(index, label).toBeGreaterThanOrEqual(0);
  return page.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents();
}

/** The list's total, from the pager's '1–15 of 2400'. */
async function total(page: Page) {
  const text = (await page.locator('.MuiTablePagination-displayedRows').textContent()) ?? '';
  return Number(/of\s+(\d+)/.exec(text)?.[1]);
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the service point list narrows by status and by location owner, shown by name', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: /rows per page/i })).toHaveText('15');
  const everything = await total(page);
  expect(everything).toBeGreaterThanOrEqual(2400);
  // The owner column holds names, not ids.
  expect((await columnValues(page, 'Location owner')).filter((value) => /^\d+$/.test(value))).toEqual([]);

  await choose(page, 'Status', 'Active');
  await expect(page).toHaveURL(/status/);
  await expect.poll(() => total(page)).toBeLessThan(everything);
  const active = await total(page);
  expect(new Set(await columnValues(page, 'Status'))).toEqual(new Set(['Active']));

  await page.getByRole('button', { name: 'More filters' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Location owner' }).click();
  await choose(page, 'Location owner', 'Kiosk 24');
  await expect(page).toHaveURL(/location_owner_id/);
  await expect.poll(() => total(page)).toBeLessThan(active);
  expect(await total(page)).toBeGreaterThan(0);
  expect(new Set(await columnValues(page, 'Location owner'))).toEqual(new Set(['Kiosk 24']));
  expect(new Set(await columnValues(page, 'Status'))).toEqual(new Set(['Active']));
});

test('the terminated filter offers Yes and No and finds the terminated service points', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: 'More filters' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Terminated' }).click();
  await choose(page, 'Terminated', 'Yes');
  await expect.poll(() => total(page)).toBe(240);
  // A terminated test service point reads 'Test' beside its status.
  expect(new Set((await columnValues(page, 'Status')).map((status) => status.replace(/Test$/, '')))).toEqual(
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
