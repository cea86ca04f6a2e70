import { type Page } from '@playwright/test';
import { listOf } from './pages.ts';
import { expect, signedInPage, signIn, test } from './support.ts';

const FILE_NAME = /^[a-z-]+-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/;
const FORMULA_START = /^[=+\-@\t\r]/;

test('columns hidden on a page stay hidden after a reload, and one always stays', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(listOf(page).columnHeader('SP ID')).toBeVisible();

  await page.getByRole('button', { name: 'Columns' }).click();
  const menu = page.getByRole('menu');
  await menu.getByRole('checkbox', { name: 'SP ID' }).uncheck();
  await menu.getByRole('checkbox', { name: 'Zip' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(listOf(page).columnHeader('SP ID')).toBeHidden();

  await page.reload();
  await expect(listOf(page).columnHeader('Name')).toBeVisible();
  await expect(listOf(page).columnHeader('SP ID')).toBeHidden();
  await expect(listOf(page).columnHeader('Zip')).toBeHidden();

  await page.getByRole('button', { name: 'Columns' }).click();
  const boxes = menu.getByRole('checkbox');
  for (let i = 0; i < (await boxes.count()); i++) {
    if ((await boxes.nth(i).isChecked()) && (await boxes.nth(i).isEnabled())) await boxes.nth(i).uncheck();
  }
  const stillShown = menu.getByRole('checkbox', { checked: true });
  await expect(stillShown).toHaveCount(1);
  await expect(stillShown).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(page.locator('thead th')).toHaveCount(1);
});

test('exporting service points writes every row, not only the first thousand', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();

  const { fileName, header, rows } = await listOf(page).exportCsv();
  expect(fileName).toMatch(FILE_NAME);
  expect(fileName.startsWith('service-points-')).toBe(true);
  expect(header).toContain('SP ID');
  expect(header).toContain('Terminated');
  // 2,400 seeded; other journeys may have imported a few more.
  expect(rows.length).toBeGreaterThanOrEqual(2400);
  expect(new Set(rows.map((row) => row[header.indexOf('ID')])).size).toBe(rows.length);
  const valuesOf = (name: string) => new Set(rows.map((row) => row[header.indexOf(name)]));
  // Only the switch column says Active or Deactive; facts say Yes or No.
  expect(valuesOf('Active')).toEqual(new Set(['Active', 'Deactive']));
  for (const name of ['Terminated', 'On hold', 'Test service point']) {
    expect(valuesOf(name)).toEqual(new Set(['Yes', 'No']));
  }
  const terminated = rows.filter((row) => row[header.indexOf('Status')] === 'Terminated');
  expect(terminated.length).toBeGreaterThanOrEqual(240);
  expect(new Set(terminated.map((row) => row[header.indexOf('Terminated')]))).toEqual(new Set(['Yes']));
  // References hold their records' names.
  expect(valuesOf('Location owner')).toContain('Coop Nord');
  expect(valuesOf('Maintenance provider')).toContain('FixIt Services');
  expect(valuesOf('Support provider')).toContain('HelpDesk Nordic');
  expect(valuesOf('Carriers')).toContain('NordPost, Vistula Kurier');
  expect(rows.filter((row) => row.length !== header.length)).toEqual([]);
  // Lookup and choice columns hold the names the list shows, not ids.
  for (const name of ['Location type', 'Location owner', 'Maintenance provider', 'Support provider', 'Carriers']) {
    expect(
      [...valuesOf(name)].filter((value) => /^[\d, ]+$/.test(value)),
      name,
    ).toEqual([]);
  }
  expect(new Set(rows.map((row) => row[header.indexOf('Status')]))).toContain('Active');
  const cells = rows.flat();
  expect(cells).not.toContain('');
  expect(cells.filter((cell) => cell !== '-' && FORMULA_START.test(cell))).toEqual([]);
});

test("exporting carriers shows empty cells as '-'", async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  // Seeded carriers are filled in; a new one with only the required fields has empty cells.
  await page.goto('/carriers/create');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Bare Minimum Carrier');
  await page.getByRole('combobox', { name: 'Primary country' }).click();
  await page.getByRole('option', { name: 'Sweden' }).click();
  await page.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill('5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await expect(page.getByRole('cell', { name: 'NordPost' })).toBeVisible();

  const { fileName, header, rows } = await listOf(page).exportCsv();
  expect(fileName).toMatch(/^carriers-/);
  expect(rows.length).toBeGreaterThan(0);
  const webhook = header.indexOf('Webhook return URL');
  expect(webhook).toBeGreaterThanOrEqual(0);
  expect(rows.some((row) => row[webhook] === '-')).toBe(true);
  expect(rows.flat()).not.toContain('');
});

/** Filters the service points, signs out and in again, and expects the search box to hold `expected`. */
async function filterAfterSignOut(page: Page, username: string, expected: string) {
  await signIn(page, username);
  await page.goto('/service-points');
  await page.getByRole('textbox', { name: 'Search' }).fill('Bergen');
  await expect(page).toHaveURL(/Bergen/);
  await page.getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, username);
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Search' })).toHaveValue(expected);
}

test('with the policy option on, a page keeps its filters across sessions; without it, it does not', async ({
  browser,
}) => {
  const withOption = await browser.newContext();
  await filterAfterSignOut(await withOption.newPage(), 'operator', 'Bergen');
  await withOption.close();

  const withoutOption = await browser.newContext();
  await filterAfterSignOut(await withoutOption.newPage(), 'analyst', '');
  await withoutOption.close();
});

test('a list wider than the window scrolls in its own box and keeps its toolbar in view', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator', { viewport: { width: 1024, height: 768 } });
  await page.goto('/service-points');
  const table = page.getByRole('table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // The list opens with the few columns a person scans (issue 24): every column chosen makes it wide.
  await page.getByRole('button', { name: 'Columns' }).click();
  const boxes = page.getByRole('menu').getByRole('checkbox');
  for (let i = 0; i < (await boxes.count()); i++) {
    if (!(await boxes.nth(i).isChecked())) await boxes.nth(i).check();
  }
  await page.keyboard.press('Escape');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(1024);
  const box = await page.getByRole('button', { name: 'Export' }).boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(1024);
  // The table itself is wider, and scrolls sideways inside its box.
  const scroll = await table.evaluate((element) => ({
    inner: element.scrollWidth,
    outer: element.parentElement!.clientWidth,
  }));
  expect(scroll.inner).toBeGreaterThan(scroll.outer);
});
