import { type Locator, type Page } from '@playwright/test';
import { expect, signedInPage, test } from './support.ts';

/** What a new user meets first (issue 11): record pages by access, toasts, menu, small screens. */

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

async function firstServicePointId(page: Page) {
  await page.goto('/service-points');
  // The row's link is the service point's name (issue 24); its address holds the id.
  const link = page.locator('tbody tr').first().getByRole('link').first();
  await expect(link).toBeVisible();
  return /\/service-points\/(\d+)/.exec((await link.getAttribute('href'))!)![1];
}

test('the site has a favicon', async ({ page }) => {
  const answer = await page.request.get('/favicon.ico');
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toMatch(/icon/);
  expect((await answer.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  await page.goto('/login');
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute('href', '/favicon.ico');
});

test('a show address opens the edit page for a user who may edit', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/carriers/2/show');
  await expect(page).toHaveURL(/\/carriers\/2$/);
  await expect(page.getByRole('textbox', { name: /^Name( \*)?$/ })).toHaveValue('FjordFrakt');
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
});

test('a carrier reads a service point: a read-only view, no Save, Delete, Create or Import', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Create' })).toHaveCount(0);
  const id = await firstServicePointId(page);

  // The row opens the record; the edit address of a reader leads to the read-only view.
  await page.locator('tbody tr').first().click();
  await expect(page).toHaveURL(new RegExp(`/service-points/${id}/show$`));
  await page.goto(`/service-points/${id}`);
  await expect(page).toHaveURL(new RegExp(`/service-points/${id}/show$`));

  const main = page.locator('#main-content');
  await expect(main.getByText('Name', { exact: true })).toBeVisible();
  await expect(main.getByText('City', { exact: true })).toBeVisible();
  await expect(main.getByRole('textbox')).toHaveCount(0);
  await expect(main.getByRole('combobox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'History' })).toBeVisible();
});

test('a carrier creating a webtool user is offered only its own partner type and partner', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/webtool-users/create');
  const partnerType = page.getByRole('combobox', { name: 'Partner type' });
  await expect(partnerType).toHaveText('Carrier');
  await expect(page.getByRole('textbox', { name: 'Partner', exact: true })).toHaveValue('NordPost');
  await expect(page.getByRole('textbox', { name: 'Partner', exact: true })).not.toBeEditable();
  await partnerType.click({ force: true });
  await expect(page.getByRole('option', { name: 'Support provider' })).toHaveCount(0);
});

test('a save names the record; the validation toast leaves the History button visible', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers/3');
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toHaveValue('Baltic Express');

  await name.fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  const toast = page.locator('.MuiSnackbar-root');
  await expect(toast).toBeVisible();
  const history = page.getByRole('button', { name: 'History' });
  expect(overlaps(await box(toast), await box(history))).toBe(false);
  await history.click();
  await expect(page.getByRole('dialog', { name: /History of Carrier/ })).toBeVisible();
  await page.keyboard.press('Escape');

  await name.fill('Baltic Express Line');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Carrier "Baltic Express Line" saved')).toBeVisible();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
});

test('text inputs of the service point form are as wide as its selects', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  const id = await firstServicePointId(page);
  await page.goto(`/service-points/${id}`);
  // By role: a required field's label also draws its ' *' (issue 24); a select's name ends with its value.
  const name = await box(
    page.locator('.MuiFormControl-root').filter({ has: page.getByRole('textbox', { name: /^Name( \*)?$/ }) }),
  );
  const status = await box(
    page.locator('.MuiFormControl-root').filter({ has: page.getByRole('combobox', { name: /^Status( \*)?( |$)/ }) }),
  );
  expect(Math.abs(name.width - status.width)).toBeLessThan(2);
});

test('the French menu shows its labels in full, without chevrons that never open', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin', { locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
  const context = page.context();
  await page.goto('/');
  const longLabel = page.getByRole('menuitem', { name: "Utilisateurs de l'application de test Infinity" });
  await expect(longLabel).toBeVisible();
  const labels = page.locator('.RaMenuItemLink-root .MuiTypography-root');
  expect(await labels.count()).toBeGreaterThan(20);
  const cut = await labels.evaluateAll((shown) =>
    shown.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent),
  );
  expect(cut).toEqual([]);
  await expect(page.locator('.RaMenuItemLink-root [data-testid="ChevronRightIcon"]')).toHaveCount(0);
  await context.close();
});

test('at 390 px the service point list is a compact list without sideways scrolling', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator', { viewport: { width: 390, height: 844 } });
  const context = page.context();
  await page.goto('/service-points');
  const rows = page.getByRole('list', { name: 'Service points' }).getByRole('link');
  await expect(rows.first()).toBeVisible();
  await expect(page.locator('table')).toHaveCount(0);
  await expect(rows.first()).toContainText('City:');
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  const row = await box(rows.first());
  expect(row.x).toBeGreaterThanOrEqual(0);
  expect(row.x + row.width).toBeLessThanOrEqual(390);
  await rows.first().click();
  await expect(page).toHaveURL(/\/service-points\/\d+$/);
  await context.close();
});
