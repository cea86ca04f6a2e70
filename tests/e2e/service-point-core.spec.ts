import { type Page } from '@playwright/test';
import { formOf, listOf, listUrl } from './pages.ts';
import { expect, seriousViolations, settled, signedInPage, startRecordAction, test } from './support.ts';

/**
 * Opens the first service point of the list filtered so (the list's own filter query), by its ID link,
 * once the filtered page is there; gives its id.
 */
async function openFirst(page: Page, filter: Record<string, unknown>) {
  await page.goto(listUrl('/service-points', { filter }));
  await settled(page);
  const link = listOf(page).rows.first().getByRole('link').first();
  await expect(link).toBeVisible();
  // The link is the service point's name (issue 24); its address holds the id.
  const id = /\/service-points\/(\d+)/.exec((await link.getAttribute('href'))!)![1];
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/service-points/${id}$`));
  return id;
}

test('the operator creates a service point: each bad input on its field, then saved', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await page.getByRole('link', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/service-points\/create$/);

  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('New');
  // The operator's policy shows region and sub-region.
  await expect(page.getByRole('combobox', { name: 'Region', exact: true })).toBeVisible();
  expect(await seriousViolations(page, 'main')).toEqual([]);
  await name.fill(' Kiosk Journey');
  await formOf(page).choose('Country', 'Norway');
  await page.getByRole('textbox', { name: 'Zip' }).fill('501');
  await page.getByRole('textbox', { name: 'City' }).fill('Bergen');
  await page.getByRole('spinbutton', { name: 'Max hardware units' }).fill('8');
  await formOf(page).save();
  await expect(
    page.getByText('Use only letters, digits, spaces, _ and -, and do not start with a space'),
  ).toBeVisible();
  await expect(page.getByText('Must be at least 4 characters')).toBeVisible();
  await expect(page.getByText('Must be at most 7')).toBeVisible();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Municipality' })).toHaveAttribute('aria-invalid', 'true');
  // Nothing typed is lost.
  await expect(page.getByRole('textbox', { name: 'City' })).toHaveValue('Bergen');

  const unique = `Kiosk Journey ${Date.now() % 100000}`;
  await name.fill(unique);
  // A validated address, picked from the suggestions, fills zip, city, municipality and coordinates.
  await page.getByRole('combobox', { name: 'Address' }).fill('storgata 1 bergen');
  await page.getByRole('option', { name: 'Storgata 1, 5003 Bergen' }).click();
  await expect(page.getByRole('textbox', { name: 'Zip' })).toHaveValue('5003');
  await expect(page.getByRole('combobox', { name: 'Municipality' })).not.toHaveValue('');
  await page.getByRole('spinbutton', { name: 'Max hardware units' }).fill('2');
  // A new service point has a delivery method from the start.
  await expect(page.getByRole('button', { name: 'Locker' })).toBeVisible();
  await formOf(page).save();
  await expect(page.getByText(`Service point "${unique}" created`)).toBeVisible();
  await expect(page).toHaveURL(/\/service-points(\?.*)?$/);
});

// The super admin keeps no filters between pages (the operator's policy saves them), so each search starts afresh.
test('on hold freezes the status; termination with installed hardware is refused', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  await openFirst(page, { parked: 'true' });
  const status = page.getByRole('combobox', { name: 'Status' });
  await expect(status).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByText('The status cannot be edited because the service point is on hold')).toBeVisible();

  await openFirst(page, { status: 7, is_terminated: 'false' });
  // Issue 33: Terminated and Archived come from their own actions, never from the status select.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await expect(page.getByRole('option', { name: 'Inactive', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Terminated', exact: true })).toHaveCount(0);
  await expect(page.getByRole('option', { name: 'Archived', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'More' }).click();
  // The public description by language: a line in the country's language is required (issue 33).
  await expect(page.getByText(/^Required: a line with language \w+ and country \w+/)).toBeVisible();
  // A description in the default language is prefilled; one in another language is shown to translate.
  const language = page.getByRole('combobox', { name: 'Language' }).first();
  if (!(await language.isVisible())) {
    await page.getByRole('button', { name: 'Add' }).first().click();
    await page.getByRole('textbox', { name: 'Description' }).first().fill('Près de l’entrée principale');
  }
  await language.click();
  await page.getByRole('option', { name: 'French', exact: true }).click();
  await formOf(page).save();
  await expect(page.getByText('A description in the default language is required').first()).toBeVisible();
  await expect(language).toHaveText('French');
  await page.reload();
  await page.getByRole('tab', { name: 'More' }).click();
  // Terminating is the Terminate action's, with its warning, not a plain switch of the form.
  await expect(page.getByRole('switch', { name: 'Terminated' })).toBeDisabled();
  await startRecordAction(page, 'Terminate');
  const confirm = page.getByRole('dialog', { name: 'Terminate' });
  await expect(confirm).toContainText('Termination is permanent and cannot be undone.');
  // A destructive action's confirmation repeats its name on the button (issue 24).
  await confirm.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.getByText('Service point contains active shipments or installed hardware')).toBeVisible();
  await expect(page.getByRole('group', { name: /^Status: / })).not.toContainText('Terminated');
});

test('a test service point is marked in the list and on its page, and made so only after a warning', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto(listUrl('/service-points', { filter: { test_sp: 'true' } }));
  await settled(page);
  await expect(listOf(page).rows.first()).toBeVisible();
  const rows = await listOf(page).rows.count();
  await expect(listOf(page).rows.getByText('Test', { exact: true })).toHaveCount(rows);

  await openFirst(page, { status: 3, test_sp: 'false', parked: 'false' });
  const head = page.getByRole('group', { name: /^Status: / });
  await expect(head).not.toContainText('Test');
  await startRecordAction(page, 'Make test service point');
  const confirm = page.getByRole('dialog', { name: 'Make test service point' });
  await expect(confirm).toContainText('A test service point is permanent');
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The service point is now a test service point.')).toBeVisible();
  await expect(head).toContainText('Test');
  await expect(page.getByRole('button', { name: 'Make test service point' })).toHaveCount(0);

  // The scout contact dialog checks its value and keeps what was typed; a scout is picked by name and e-mail.
  await startRecordAction(page, 'Scout contact');
  const scoutDialog = page.getByRole('dialog', { name: 'Scout contact' });
  const contact = scoutDialog.getByRole('combobox', { name: 'Scout contact' });
  await contact.fill('not a scout');
  await scoutDialog.getByRole('button', { name: 'Save' }).click();
  await expect(scoutDialog.getByText("Enter the scout's email address or user ID")).toBeVisible();
  await expect(contact).toHaveValue('not a scout');
  // A user who is no scout is refused on the field by the gateway, the value kept.
  await contact.fill('operator@demo.locker.test');
  await scoutDialog.getByRole('button', { name: 'Save' }).click();
  await expect(scoutDialog.getByText('No scout has this email address or user ID')).toBeVisible();
  await expect(contact).toHaveValue('operator@demo.locker.test');
  // A super admin may name the provider's scouts and the super admins.
  await contact.fill('');
  await contact.click();
  await expect(page.getByRole('option')).toHaveText([
    'scout (scout@demo.locker.test)',
    'superadmin (superadmin@demo.locker.test)',
  ]);
  await page.getByRole('option', { name: 'scout (scout@demo.locker.test)' }).click();
  await expect(contact).toHaveValue('scout (scout@demo.locker.test)');
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await scoutDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Scout contact saved.')).toBeVisible();
  await expect(scoutDialog).toBeHidden();

  // A live status is refused on the field, and what was chosen stays.
  await formOf(page).choose('Status', 'Active');
  await formOf(page).save();
  await expect(page.getByText('A test service point can never become live')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Active');
});

test('the scout sees their own proposals in a reduced form', async ({ browser }) => {
  const page = await signedInPage(browser, 'scout');
  await page.goto('/service-points');
  await expect(listOf(page).rows.first()).toBeVisible();
  expect(await listOf(page).rows.count()).toBeLessThanOrEqual(10);
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  const link = listOf(page).rows.first().getByRole('link').first();
  await link.click();
  await expect(page).toHaveURL(/\/service-points\/\d+$/);
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeEditable();
  await expect(page.getByRole('tab', { name: 'Hardware units' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Carrier settings' })).toHaveCount(0);
  await expect(page.getByRole('spinbutton', { name: 'Max hardware units' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Terminate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Status' }).click();
  await expect(page.getByRole('option', { name: 'Qualified' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'New' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Approved' })).toHaveCount(0);
  await page.keyboard.press('Escape');
});

test('two roles differ by their options: the analyst has no region, sub-region nor delivery methods', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'analyst');
  await page.goto('/service-points/create');
  await expect(page.getByRole('combobox', { name: 'Municipality' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Region' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Sub-region' })).toHaveCount(0);
  await expect(page.getByText('Delivery methods')).toHaveCount(0);
  await expect(
    page.getByRole('textbox', { name: 'Time zone' }).or(page.getByRole('combobox', { name: 'Time zone' })),
  ).toBeVisible();
});

test('in French: the on-hold reason, and Record not found in a service point search', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin', { locale: 'fr-FR' });
  await openFirst(page, { parked: 'true' });
  await expect(
    page.getByText('Le statut ne peut pas être modifié car le point de service est en attente'),
  ).toBeVisible();

  // The hardware list's service point search finds nothing for an unknown id.
  await page.goto('/hardware');
  await page.getByRole('button', { name: 'Plus de filtres' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Point de service' }).click();
  await page.getByRole('combobox', { name: 'Point de service' }).fill('0000000');
  await expect(page.getByText('Enregistrement introuvable.')).toBeVisible();
});
