import { type Page } from '@playwright/test';
import { expect, signedInPage, startRecordAction, test } from './support.ts';

/**
 * Issue 27: an order of 100 with two sub orders; one released, the total refused lower then increased,
 * production started, units recorded, the sub order stopped with a new one for the rest; the log with a
 * comment; the produced units in the hardware list. A hardware owner is refused the area.
 */

async function openSubOrderTab(page: Page) {
  await page.getByRole('tab', { name: 'Sub orders' }).click();
  return page.getByRole('table', { name: 'Sub orders' });
}

test('an operator runs an order from its sub orders to the units it produced', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, 'operator');
  const orderId = `E2E${Date.now().toString(36).toUpperCase()}`;
  await page.goto('/hardware-orders/create');
  await page.getByRole('textbox', { name: 'Order ID' }).fill('E2E-1');
  await page.getByRole('combobox', { name: 'Order type' }).click();
  await page.getByRole('option', { name: 'Standard' }).click();
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByRole('option', { name: 'LockerWorks' }).click();
  await page.getByRole('spinbutton', { name: 'Total quantity' }).fill('5001');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Only alphanumeric characters are allowed')).toBeVisible();
  await expect(page.getByText('Quantity limit exceeds from 5000')).toBeVisible();
  await page.getByRole('textbox', { name: 'Order ID' }).fill(orderId);
  await page.getByRole('spinbutton', { name: 'Total quantity' }).fill('100');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/hardware-orders(\?.*)?$/);

  await page.getByRole('textbox', { name: 'Order ID' }).fill(orderId.toLowerCase());
  await page.getByRole('link', { name: orderId }).click();
  await expect(page).toHaveURL(/\/hardware-orders\/\d+/);
  const orderUrl = page.url();
  let subOrders = await openSubOrderTab(page);
  for (const [model, quantity] of [
    ['Compact 2', '60'],
    ['City 3', '50'],
  ]) {
    await page.getByRole('button', { name: 'Add Sub order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Sub order' });
    await dialog.getByRole('textbox', { name: 'Type number' }).fill('PL-E2E');
    await dialog.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option', { name: model }).click();
    await dialog.getByRole('spinbutton', { name: 'Quantity' }).fill(quantity);
    await dialog.getByRole('button', { name: 'Save' }).click();
    if (quantity === '50') {
      // 60 + 50 is over the 100 of the order: the gateway's message, the dialog and its input kept.
      await expect(dialog.getByText('Quantity exceeds total quantity of order')).toBeVisible();
      await dialog.getByRole('spinbutton', { name: 'Quantity' }).fill('40');
      await dialog.getByRole('button', { name: 'Save' }).click();
    }
    await expect(dialog).toBeHidden();
  }
  await expect(subOrders.locator('tbody tr')).toHaveCount(2);

  // Release the Compact 2 sub order on its own page.
  await subOrders
    .getByRole('row', { name: /Compact 2/ })
    .getByRole('link', { name: 'Open' })
    .click();
  await expect(page).toHaveURL(/\/production-orders\/\d+/);
  const subOrderUrl = page.url();
  await startRecordAction(page, 'Release');
  await expect(page.getByText('Sub order released.')).toBeVisible();
  await expect(page.getByText('This sub order is released: it changes through its actions only.')).toBeVisible();

  // The total of the order cannot go down now, only up.
  await page.goto(orderUrl);
  await page.getByRole('spinbutton', { name: 'Total quantity' }).fill('90');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('While a sub order is released or in production, the total quantity can only be increased').first(),
  ).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Total quantity' })).toHaveValue('90');
  await page.reload();
  await startRecordAction(page, 'Increase total quantity');
  const increase = page.getByRole('dialog');
  await increase.getByRole('spinbutton', { name: 'Total quantity' }).fill('120');
  await increase.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Total quantity increased.')).toBeVisible();

  await page.goto(subOrderUrl);
  await startRecordAction(page, 'Start production');
  await expect(page.getByText('Production started.')).toBeVisible();
  await startRecordAction(page, 'Record produced units');
  const production = page.getByRole('dialog');
  await production.getByRole('spinbutton', { name: 'Units produced now' }).fill('12');
  await production.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Produced units added to the warehouse.')).toBeVisible();
  await startRecordAction(page, 'Stop sub order');
  const stop = page.getByRole('dialog');
  await stop.getByLabel('Create a new sub order for the remaining quantity').check();
  await stop
    .getByRole('button', { name: /Save|Stop sub order|Confirm/ })
    .last()
    .click();
  await expect(page.getByText('This sub order is stopped: stopping is final.')).toBeVisible();

  await page.goto(orderUrl);
  subOrders = await openSubOrderTab(page);
  await expect(subOrders.locator('tbody tr')).toHaveCount(3);
  await expect(subOrders.getByText('Stopped')).toBeVisible();
  await expect(subOrders.getByRole('row', { name: /Compact 2.*48.*Open/ })).toBeVisible();

  await page.getByRole('tab', { name: 'Order log' }).click();
  await page.getByRole('textbox', { name: 'Comment' }).fill('Hinge supplier changed; the rest follows.');
  await page.getByRole('button', { name: 'Add comment' }).click();
  const log = page.getByRole('table', { name: 'Order log' });
  await expect(log.getByText('Hinge supplier changed; the rest follows.')).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: 'Status: In production → Stopped' })).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: 'Total quantity: 100 → 120' })).toBeVisible();

  await page.getByRole('link', { name: '12 produced units' }).click();
  await expect(page).toHaveURL(/\/hardware\?filter=/);
  await expect(page.locator('tbody tr')).toHaveCount(12);
  await expect(page.locator('tbody tr').first()).toContainText(orderId);
});

test('a hardware owner is refused the orders and the production', async ({ browser }) => {
  const page = await signedInPage(browser, 'hardware');
  for (const path of ['/hardware-orders', '/production-orders']) {
    await page.goto(path);
    await expect(page.getByTestId('not-found')).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Hardware orders' })).toHaveCount(0);
});

test("last quarter's licences for LockerWorks: rows, totals, PDF and CSV; a period ending this month is refused", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await signedInPage(browser, 'operator');
  // The production queue has its own title (issue 27.4).
  await page.goto('/production-orders');
  await expect(page.getByRole('heading', { name: 'Production orders' })).toBeVisible();
  await page.goto('/license');
  await expect(page.getByRole('heading', { name: 'Hardware licenses', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Hardware owners' }).click();
  await page.getByRole('option', { name: 'LockerWorks' }).click();
  await page.keyboard.press('Escape');
  // The form starts on last quarter.
  await page.getByRole('button', { name: 'Request report' }).click();
  const totals = page.getByTestId('licence-totals');
  await expect(totals).toBeVisible({ timeout: 30_000 });
  await expect(totals).toContainText('LockerWorks');
  await expect(totals).toContainText(/\d+ units/);
  await expect(totals).toContainText('License days');
  const rows = page.getByRole('table', { name: 'Hardware licenses' }).locator('tbody tr');
  await expect(rows.first()).toContainText('LockerWorks');
  expect(await rows.count()).toBeGreaterThan(1);
  // The owner and model as words, never ids.
  await expect(rows.first().locator('td').nth(2)).not.toHaveText(/^\d+$/);

  const pdf = page.waitForEvent('download');
  await totals.getByRole('button', { name: 'Download PDF' }).click();
  const pdfFile = await pdf;
  expect(pdfFile.suggestedFilename()).toMatch(/^licences-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdfBytes = await (await import('node:fs/promises')).readFile((await pdfFile.path())!);
  expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csvText = await (await import('node:fs/promises')).readFile((await (await csv).path())!, 'utf8');
  expect(csvText).toContain('License days');
  expect(csvText).toContain('LockerWorks');

  // A period ending in the current month: the form refuses it, with its words, the input kept.
  const now = new Date();
  await page.getByRole('spinbutton', { name: 'To year' }).fill(String(now.getFullYear()));
  await page.getByRole('combobox', { name: 'To month' }).click();
  await page.getByRole('option', { name: now.toLocaleString('en-US', { month: 'long' }) }).click();
  await page.getByRole('button', { name: 'Request report' }).click();
  await expect(page.getByText('The period must end before the current month')).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'To year' })).toHaveValue(String(now.getFullYear()));

  // In French: the page and the refusal in its words.
  const french = await signedInPage(browser, 'operator', { locale: 'fr-FR' });
  await french.goto('/production-orders');
  await expect(french.getByRole('heading', { name: 'Ordres de production' })).toBeVisible();
  await french.goto('/license');
  await expect(french.getByRole('heading', { name: 'Licences du matériel', level: 1 })).toBeVisible();
  await french.getByRole('combobox', { name: 'Propriétaires du matériel' }).click();
  await french.getByRole('option', { name: 'LockerWorks' }).click();
  await french.keyboard.press('Escape');
  await french.getByRole('spinbutton', { name: 'Année de fin' }).fill(String(now.getFullYear() + 1));
  await french.getByRole('button', { name: 'Demander le rapport' }).click();
  await expect(french.getByText('La période doit se terminer avant le mois en cours')).toBeVisible();
});
