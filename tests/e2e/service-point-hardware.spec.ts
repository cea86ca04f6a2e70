import { type Page } from '@playwright/test';
import { expect, seriousViolations, signedInPage, test } from './support.ts';

// The tabs' content; the form's toolbar (Save, Delete) is the engine's, checked by the accessibility journey.
const formViolations = (page: Page) => seriousViolations(page, 'form', 'form [role="toolbar"]');

/** The service point both journeys work on: found by the first, in French by the second. */
let servicePointPath = '';
/** The carrier whose settings the operator's journey set on that service point. */
let customisedCarrier = '';

test.describe.configure({ mode: 'serial' });

async function openTab(page: Page, name: string | RegExp) {
  await page.getByRole('tab', { name }).click();
}

/** The count line of the Hardware units tab, '2 of 3 hardware units' (English). */
async function unitCount(page: Page) {
  const text = (await page.getByText(/^\d+ of \d+ hardware units?$/).textContent()) ?? '';
  const [count, max] = (text.match(/\d+/g) ?? []).map(Number);
  return { count, max };
}

test('the operator reads the units of a service point, adds one up to the limit, marks it and sets carrier settings', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Pending units', exact: true }).click();
  await expect(page.locator('tbody tr').first()).toContainText('Pending units');
  await page.locator('tbody tr').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/service-points\/\d+/);
  servicePointPath = new URL(page.url()).pathname;

  // Its planned units, each with its badges and its locker.
  await openTab(page, 'Hardware units');
  const units = page.locator('section[data-hardware-id]');
  await expect(units.first()).toBeVisible();
  await expect(units.first().locator('[data-badge="assigned"]')).toHaveText('Assigned');
  await expect(units.first().locator('[data-badge="installation_pending"]')).toBeVisible();
  await expect(units.first().getByRole('region', { name: /^Compartments of / })).toBeVisible();
  await expect(units.first().getByRole('link', { name: /^Open unit / })).toHaveAttribute('href', /\/hardware\/\d+$/);
  const before = await unitCount(page);
  expect(before.count).toBeGreaterThan(0);
  expect(await formViolations(page)).toEqual([]);

  // Room for exactly one more unit, saved on the Basic tab.
  if (before.max !== before.count + 1) {
    await openTab(page, 'Basic');
    await page.getByLabel('Max hardware units').fill(String(before.count + 1));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/service-points$/);
    await page.goto(servicePointPath);
  }

  await openTab(page, 'Hardware units');
  const add = page.getByRole('button', { name: 'Add a hardware unit' });
  await expect(add).toBeEnabled();
  await add.click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Hardware unit in the warehouse').click();
  await page.getByRole('option').first().click();
  await dialog.getByRole('button', { name: 'Plan it here' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${before.count + 1} of ${before.count + 1} hardware units`)).toBeVisible();
  await expect(add).toBeDisabled();
  await expect(page.getByText(/^The allowed number of hardware units is reached/)).toBeVisible();

  // The new unit opens for installation: its badge says so.
  const added = units.last();
  await added.getByRole('button', { name: 'Mark open for installation' }).click();
  await expect(added.locator('[data-badge="installation_open"]')).toBeVisible();
  // The service point's own badges, at the top of the page, follow its units.
  await expect(page.getByRole('group', { name: /^Badges: .*Installation open/ })).toBeVisible();
  await expect(added.getByRole('button', { name: 'Mark closed for installation' })).toBeVisible();

  // Carrier settings: a carrier with access gets its own expiry days; 45 is refused, the input kept.
  await openTab(page, 'Carrier settings');
  // The demo gives some carriers settings of their own already: the first such one goes back to its carrier's.
  await expect(page.getByRole('button', { name: /^(Set .+ here|Use the settings of .+)$/ }).first()).toBeVisible();
  const customise = page.getByRole('button', { name: /^Set .+ here$/ }).first();
  if (!(await customise.count()))
    await page
      .getByRole('button', { name: /^Use the settings of .+$/ })
      .first()
      .click();
  await expect(customise).toBeVisible();
  const carrierName = ((await customise.textContent()) ?? '').replace(/^Set | here$/g, '');
  customisedCarrier = carrierName;
  await customise.click();
  const row = page.getByRole('group', { name: carrierName });
  const expiry = row.getByLabel('Expiry days');
  await expect(expiry).toHaveAttribute('placeholder', /^Carrier: \d+$/);
  expect(await formViolations(page)).toEqual([]);
  await expiry.fill('45');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByText('Must be at most 30')).toBeVisible();
  await expect(expiry).toHaveValue('45');
  await expiry.fill('5');
  await row.getByLabel('Reserved compartments').fill('1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/service-points$/);
  await page.goto(servicePointPath);
  await openTab(page, 'Carrier settings');
  await expect(page.getByRole('group', { name: carrierName }).getByLabel('Expiry days')).toHaveValue('5');
  await expect(page.getByRole('group', { name: carrierName }).getByLabel('Reserved compartments')).toHaveValue('1');
});

test('in French, the plan cannot be deleted while a unit is open for installation, then it can', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  expect(servicePointPath).not.toBe('');
  const page = await signedInPage(browser, 'operator', { locale: 'fr-FR' });
  await page.goto(servicePointPath);
  await openTab(page, 'Unités matérielles');
  await expect(page.getByRole('heading', { name: 'Unités matérielles de ce point de service' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ajouter une unité matérielle' })).toBeDisabled();
  await expect(page.getByText(/^Le nombre autorisé d'unités matérielles est atteint/)).toBeVisible();
  const units = page.locator('section[data-hardware-id]');
  await expect(units.last().locator('[data-badge="installation_open"]')).toBeVisible();

  await page.getByRole('button', { name: "Supprimer le plan d'installation" }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Supprimer le plan' }).click();
  await expect(dialog.getByText("La planification de l'installation a déjà été lancée")).toBeVisible();
  await dialog.getByRole('button', { name: 'Annuler' }).click();

  await units.last().getByRole('button', { name: "Fermer à l'installation" }).click();
  await expect(units.last().getByRole('button', { name: "Ouvrir à l'installation" })).toBeVisible();
  await page.getByRole('button', { name: "Supprimer le plan d'installation" }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer le plan' }).click();
  await expect(page.getByText("Le plan d'installation est supprimé.")).toBeVisible();
  await expect(
    page.getByText("Aucune unité matérielle n'est installée ni prévue dans ce point de service."),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ajouter une unité matérielle' })).toBeEnabled();
});

test('a carrier reads the service point without a Hardware units tab, its carrier settings by name', async ({
  browser,
}) => {
  expect(servicePointPath).not.toBe('');
  const page = await signedInPage(browser, 'carrier');
  await page.goto(servicePointPath);
  await expect(page.getByRole('tab', { name: 'Basic' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Carrier settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Hardware units' })).toHaveCount(0);
  // Read-only: no Save, and nothing reads [object Object].
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(page.locator('main')).not.toContainText('[object Object]');
  await openTab(page, 'Carrier settings');
  // A carrier reads its own settings only (issue 33), by its name, never another carrier's.
  expect(customisedCarrier).not.toBe('');
  if (customisedCarrier === 'NordPost') {
    const settings = page.getByTestId('carrier-settings');
    await expect(settings.getByRole('columnheader', { name: 'Expiry days' })).toBeVisible();
    await expect(settings.getByRole('cell', { name: '5', exact: true }).first()).toBeVisible();
  } else {
    // The point's carriers are named in its head; their settings are not the carrier's to read.
    const table = page.getByTestId('carrier-settings');
    await expect(table.or(page.getByText(/^No carrier has settings of its own here/)).first()).toBeVisible();
    if (await table.count()) await expect(table).not.toContainText(customisedCarrier);
  }
  for (const text of await page.getByTestId('carrier-settings').locator('tbody tr').allTextContents()) {
    expect(text).toContain('NordPost');
  }
  await expect(page.locator('main')).not.toContainText('[object Object]');
  expect(await seriousViolations(page, 'main')).toEqual([]);
});
