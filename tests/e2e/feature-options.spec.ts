import { type Page } from '@playwright/test';
import { expect, signedInPage, test } from './support.ts';

/**
 * The feature options of spec 01 §6 that tickets and shipments read, as two demo users meet them: the
 * operator administrator has them (but the parcel move), the analyst none (server/seed/demo-network.ts).
 */

test.describe.configure({ timeout: 120_000 });

const WEB_APP = 'Open parcel DEMO-WAITING-1 in the end-user web app';

async function ticketTypeChoices(page: Page) {
  await page.getByRole('combobox', { name: /^Ticket type/ }).click();
  await expect(page.getByRole('option', { name: 'Maintain hardware' })).toBeVisible();
  const names = await page.getByRole('option').allTextContents();
  await page.keyboard.press('Escape');
  return names;
}

/** The tickets list, with its toolbar drawn (the Columns menu open): what its Columns menu lists. */
async function columnsMenu(page: Page) {
  await page.goto('/tickets');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('Ticket type', { exact: true })).toBeVisible();
  return menu;
}

/** The piece's page, once its detail has answered (the place of the parcel shows). */
async function openPiece(page: Page) {
  const detail = page.waitForResponse((response) => response.url().includes('opname=get_piece_detail'));
  await page.goto('/shipments/DEMO-WAITING-1/show');
  await detail;
  await expect(page.getByText('DEMO-WAITING-1').first()).toBeVisible();
}

test('the operator administrator and the analyst differ by their roles’ ticket and shipment options', async ({
  browser,
}) => {
  const operator = await signedInPage(browser, 'operator');
  let menu = await columnsMenu(operator);
  await expect(menu.getByText('Internal notes', { exact: true })).toBeVisible();
  await expect(menu.getByText('Error type', { exact: true })).toBeVisible();
  await operator.keyboard.press('Escape');
  await expect(operator.getByRole('button', { name: 'Periodic tickets' })).toBeVisible();
  await operator.goto('/tickets/create');
  expect(await ticketTypeChoices(operator)).toContain('Courier');
  await expect(operator.getByRole('combobox', { name: /^Error type/ })).toBeVisible();
  await expect(operator.getByRole('textbox', { name: 'Internal notes' })).toBeVisible();
  await openPiece(operator);
  const link = operator.getByRole('link', { name: WEB_APP });
  await expect(link).toHaveAttribute('href', 'https://webapp.locker.test/parcels/DEMO-WAITING-1');
  await expect(link).toHaveAttribute('target', '_blank');
  await operator.context().close();

  const analyst = await signedInPage(browser, 'analyst');
  menu = await columnsMenu(analyst);
  await expect(menu.getByText('Internal notes', { exact: true })).toHaveCount(0);
  await expect(menu.getByText('Error type', { exact: true })).toHaveCount(0);
  await analyst.keyboard.press('Escape');
  // The list's own buttons have drawn (the export is one of them); the periodic switch is not among them.
  await expect(analyst.getByRole('button', { name: 'Export' })).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Periodic tickets' })).toHaveCount(0);
  await analyst.goto('/tickets/create');
  const types = await ticketTypeChoices(analyst);
  expect(types).toContain('Maintain hardware');
  expect(types).not.toContain('Courier');
  await expect(analyst.getByRole('textbox', { name: 'Description' })).toBeVisible();
  await expect(analyst.getByRole('combobox', { name: /^Error type/ })).toHaveCount(0);
  await expect(analyst.getByRole('textbox', { name: 'Internal notes' })).toHaveCount(0);
  await openPiece(analyst);
  await expect(analyst.getByRole('tab').first()).toBeVisible();
  await expect(analyst.getByRole('link', { name: WEB_APP })).toHaveCount(0);
  await analyst.context().close();
});
