import { expect, signedInPage, test } from './support.ts';

test('two people edit one carrier: the later save is refused, keeps its input and offers a reload', async ({
  browser,
}) => {
  const first = await signedInPage(browser, 'operator');
  const second = await signedInPage(browser, 'superadmin');
  // The gateway's refusal is what this journey checks: the second person's page hears no live updates,
  // which would warn them first (live.spec.ts checks that warning).
  await second.route('**/webtool/stream', (route) => route.abort());
  for (const page of [first, second]) {
    await page.goto('/carriers');
    await page.getByRole('cell', { name: 'Baltic Express' }).click();
    await expect(page.getByRole('spinbutton', { name: 'Service point radius (km)' })).toBeVisible();
  }
  // Values unlike the stored one, so that a second run (a retry) changes the form too.
  const stored = Number(await first.getByRole('spinbutton', { name: 'Service point radius (km)' }).inputValue());
  // Whole kilometres within the schema's 0.1-20.
  const [mine, theirs, next] = [1, 2, 3].map((step) => String(((Math.round(stored) + step) % 18) + 1));

  await first.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill(mine);
  await first.getByRole('button', { name: 'Save' }).click();
  await expect(first).toHaveURL(/\/carriers(\?.*)?$/);

  const radius = second.getByRole('spinbutton', { name: 'Service point radius (km)' });
  await radius.fill(theirs);
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(
    second.getByText('This record was changed by someone else. Reload it to see the changes.'),
  ).toBeVisible();
  await expect(radius).toHaveValue(theirs);
  await expect(second).toHaveURL(/\/carriers\/\d+/);

  await second.getByRole('button', { name: 'Reload' }).click();
  await expect(radius).toHaveValue(mine);
  // Reloaded, the form carries the record's new version: the next save goes through.
  await radius.fill(next);
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(second).toHaveURL(/\/carriers(\?.*)?$/);
});
