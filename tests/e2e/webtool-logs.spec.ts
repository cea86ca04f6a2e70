import { expect, seriousViolations, signedInPage, test } from './support.ts';

test('the operator finds a change in the webtool logs and reads it field by field', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/couriers');
  await page.getByRole('textbox', { name: 'Search' }).fill('NO0003');
  // The search is applied after a pause, by a navigation: wait for it before leaving the list.
  await expect(page).toHaveURL(/NO0003/);
  await page.getByRole('link', { name: 'NO0003' }).click();
  const phone = page.getByRole('textbox', { name: 'Phone' });
  await expect(phone).not.toHaveValue('');
  await phone.fill('+4511447700');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);

  await page.goto('/logs');
  await expect(page.getByRole('combobox', { name: 'Log group' })).toHaveText('Webtool audit trail');
  // The search starts with the last 24 hours, shown by the date picker as MM/DD/YYYY hh:mm in English.
  const from = page.getByRole('group', { name: 'From' });
  const to = page.getByRole('group', { name: 'To' });
  await expect(from).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  const filter = page.getByRole('textbox', { name: 'Text filter' });
  await filter.fill('+4511447700');
  await filter.press('Enter');

  const rows = page.getByRole('table', { name: 'Log entries' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('operator');
  await expect(rows.first()).toContainText('Changed');
  // The record by its name, not its id (issue 24).
  await expect(rows.first()).toContainText('Courier NO0003');
  // The summary names the changed fields by their labels, in the user's language.
  await expect(rows.first().getByRole('cell').nth(4)).toHaveText('Phone');

  await rows.first().getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log entry' });
  await expect(dialog.getByTestId('log-changes')).toHaveText(/^Phone: \+45[\d ]+ → \+4511447700$/);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  await from.getByRole('spinbutton', { name: 'Month' }).click();
  await page.keyboard.type('013120261000');
  await expect(from).toContainText('01/31/2026 10:00');
  await to.getByRole('spinbutton', { name: 'Month' }).click();
  await page.keyboard.type('010120261000');
  await expect(to).toContainText('01/01/2026 10:00');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('The start time must be before the end time.')).toBeVisible();
});

test('a carrier user opening the webtool logs gets the not-found page', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/logs');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Log entries' })).toHaveCount(0);
});
