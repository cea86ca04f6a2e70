import { expect, test } from '@playwright/test';
import { signedInPage } from './support.ts';

test('two people edit one carrier: the later save is refused, keeps its input and offers a reload', async ({
  browser,
}) => {
  const first = await signedInPage(browser, 'operator');
  const second = await signedInPage(browser, 'superadmin');
  for (const page of [first, second]) {
    await page.goto('/carriers');
    await page.getByRole('cell', { name: 'Baltic Express' }).click();
    await expect(page.getByRole('spinbutton', { name: 'Service point radius (km)' })).toBeVisible();
  }

  await first.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill('11');
  await first.getByRole('button', { name: 'Save' }).click();
  await expect(first).toHaveURL(/\/carriers(\?.*)?$/);

  const radius = second.getByRole('spinbutton', { name: 'Service point radius (km)' });
  await radius.fill('12');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(
    second.getByText('This record was changed by someone else. Reload it to see the changes.'),
  ).toBeVisible();
  await expect(radius).toHaveValue('12');
  await expect(second).toHaveURL(/\/carriers\/\d+/);

  await second.getByRole('button', { name: 'Reload' }).click();
  await expect(radius).toHaveValue('11');
  // Reloaded, the form carries the record's new version: the next save goes through.
  await radius.fill('13');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(second).toHaveURL(/\/carriers(\?.*)?$/);
});
