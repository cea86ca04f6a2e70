import { listUrl } from './pages.ts';
import { expect, seriousViolations, signedInPage, test } from './support.ts';

test('service point statuses are coloured badges, Terminated first, in the list and on the page', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  const active = page.locator('tbody [data-badge-color="success"]', { hasText: 'Active' }).first();
  await expect(active).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto(listUrl('/service-points', { filter: { is_terminated: 'true' } }));
  const terminated = page.locator('tbody tr').first().locator('[data-badge-color]');
  await expect(terminated).toHaveText('Terminated');
  await expect(terminated).toHaveAttribute('data-badge-color', 'error');
  await page.locator('tbody tr').first().click();
  await expect(page.getByRole('group', { name: 'Status: Terminated' })).toBeVisible();
  expect(await seriousViolations(page, '[role="group"][aria-label="Status: Terminated"]')).toEqual([]);
});

test('a carrier edits its couriers in the Couriers tab, with the courier rules', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers');
  await page.getByRole('cell', { name: 'NordPost' }).click();
  await page.getByRole('tab', { name: 'Couriers' }).click();
  const couriers = page.getByRole('table', { name: 'Couriers' });
  const existingCode = (await couriers.locator('tbody tr').first().locator('td').nth(1).textContent())!.trim();
  expect(existingCode).not.toBe('');
  expect(await seriousViolations(page, 'section[aria-label="Couriers"]')).toEqual([]);

  // A retry runs on the same database: each run adds a courier of its own.
  const newCode = `E2E-${Date.now().toString(36).toUpperCase()}`;
  await page.getByRole('button', { name: 'Add Courier' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Courier' });
  await dialog.getByRole('textbox', { name: 'Courier code' }).fill(existingCode);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This courier code already exists for the carrier.')).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Courier code' }).fill(newCode);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(couriers.getByRole('cell', { name: newCode, exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/carriers\/\d+/);

  await page.getByRole('button', { name: `Edit ${newCode}` }).click();
  const editing = page.getByRole('dialog', { name: 'Edit Courier' });
  await editing.getByRole('textbox', { name: 'Phone' }).fill('12ab');
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(editing.getByText('Enter a phone number of 7 to 15 digits, optionally starting with +')).toBeVisible();
  await editing.getByRole('textbox', { name: 'Phone' }).fill('+4791234567');
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(editing).toBeHidden();
  await expect(couriers.getByRole('cell', { name: '+4791234567' })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${newCode}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(couriers.getByRole('cell', { name: newCode, exact: true })).toBeHidden();
});

test('webtool user actions come from the schema: a refusal shows the gateway message, a reset asks first', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/webtool-users/operator');
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText('You cannot disable your own user.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();

  // A user of its own: a reset password would lock out a demo user that another journey signs in as.
  const email = `reset${Date.now()}@demo.locker.test`;
  await page.goto('/webtool-users/create');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Password Reset Journey');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('combobox', { name: 'Role' }).fill('operator_infinity_analyst');
  await page.getByRole('option', { name: 'operator_infinity_analyst' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/webtool-users(\?.*)?$/);
  // A new user is named after the local part of its e-mail.
  await page.goto(`/webtool-users/${email.split('@')[0]}`);
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue(email);
  await page.getByRole('button', { name: 'Reset password' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset password' });
  await expect(confirm).toContainText('E-mail this user a new temporary password?');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('A new temporary password has been e-mailed to the user.')).toBeVisible();
});

test('a carrier action with a form: expiry settings refused out of range, then saved and kept', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers');
  await page.getByRole('cell', { name: 'Vistula Kurier' }).click();
  const onPage = page.getByRole('spinbutton', { name: 'Expiry (days)' });
  await expect(onPage).toBeVisible();
  // A retry runs on the same database: the new value differs from whatever is stored.
  const newDays = (await onPage.inputValue()) === '21' ? '22' : '21';

  await page.getByRole('button', { name: 'Expiry settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Expiry settings' });
  const days = dialog.getByRole('spinbutton', { name: 'Expiry (days)' });
  await expect(days).toHaveValue(await onPage.inputValue());
  // Measured mid fade-in, the dialog's colours are not yet their own: analyse it once it is fully shown.
  await expect(page.locator('.MuiDialog-container')).toHaveCSS('opacity', '1');
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await days.fill('45');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Must be at most 30')).toBeVisible();
  await expect(days).toHaveValue('45');

  await days.fill(newDays);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Expiry settings saved.')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(page.getByRole('spinbutton', { name: 'Expiry (days)' })).toHaveValue(newDays);
});
