import { listUrl } from './pages.ts';
import { expect, signedInPage, test } from './support.ts';

/**
 * Issue 15 item 5: a quick action on 50 tickets at once. It changes the newest open tickets of the maintenance
 * provider, which the ticket journeys edit one at a time: it runs after them, alone (playwright.config.ts).
 */

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const openTickets = listUrl('/tickets', { filter: { status: 1 }, perPage: 500 });

test('the maintenance provider gives 50 open tickets an operator and a deadline in one action', async ({ browser }) => {
  const page = await signedInPage(browser, 'maintenance');
  await page.goto(openTickets);
  await expect(page.locator('tbody tr').first()).toBeVisible();
  // Service tickets cannot be chosen, and say why.
  await expect(
    page.getByRole('checkbox', { name: /cannot be chosen: Declined, Closed, Courier and Service/ }).first(),
  ).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Choose the rows of this page (at most 50)' }).check();
  const bar = page.getByRole('region', { name: 'Quick actions' });
  await expect(bar.getByText('50 tickets chosen (at most 50)')).toBeVisible();
  // A 51st cannot be added.
  await expect(page.getByRole('checkbox', { name: /cannot be chosen: At most 50/ }).first()).toBeDisabled();
  // The reduced form: no provider, verification nor on-hold inputs.
  await expect(bar.getByRole('combobox', { name: 'Maintenance provider' })).toHaveCount(0);
  await expect(bar.getByRole('combobox', { name: 'Verification' })).toHaveCount(0);
  await expect(bar.getByRole('combobox', { name: 'Deadline time' })).toHaveAttribute('aria-disabled', 'true');

  await bar.getByRole('combobox', { name: 'Operator' }).click();
  const operatorName = (await page.getByRole('option').nth(1).textContent())!;
  await page.getByRole('option').nth(1).click();
  // The deadline is MUI's day picker in the language's format (issue 24.3), typed as MMDDYYYY in English.
  const deadline = bar.getByRole('group', { name: 'Deadline', exact: true });
  const typeDay = async (day: string) => {
    await deadline.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(`${day.slice(5, 7)}${day.slice(8, 10)}${day.slice(0, 4)}`);
  };
  await typeDay(inDays(-1));
  await expect(bar.getByText('The deadline cannot be before today')).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await typeDay(inDays(6));
  await bar.getByRole('combobox', { name: 'Deadline time' }).click();
  await page.getByRole('option', { name: '09:30' }).click();

  const apply = bar.getByRole('button', { name: 'Apply' });
  const sent = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('maintenance/tickets'));
  await apply.click();
  await expect(apply).toBeDisabled();
  expect((await sent).status()).toBe(200);
  await expect(page.getByText('Quick action applied to 50 tickets')).toBeVisible();
  await expect(bar).toHaveCount(0);
  const name = operatorName.replace(/ \(.*\)$/, '');
  await expect(page.getByRole('cell', { name, exact: true }).first()).toBeVisible();
});
