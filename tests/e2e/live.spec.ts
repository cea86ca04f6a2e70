import { listUrl } from './pages.ts';
import { expect, signedInPage, test } from './support.ts';

const openTickets = listUrl('/tickets', { filter: { badge: 'open' } });

test('live updates: a ticket the maintenance provider closes shows in the operator’s list banner and open form', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The operator watches the open tickets (and has one open in another tab); the maintenance provider
  // closes one of its own that the operator's page shows: the banner counts only changes the list shows.
  const list = await signedInPage(browser, 'operator');
  await list.goto(openTickets);
  await expect(list.locator('tbody tr').first()).toBeVisible();
  const rowsBefore = await list.locator('tbody tr').allTextContents();
  const idsOf = async (page: typeof list) =>
    (
      await page
        .locator('tbody tr td a[href*="/tickets/"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
    )
      .map((href) => href?.match(/\/tickets\/(\d+)/)?.[1])
      .filter((id): id is string => id !== undefined);
  const shown = new Set(await idsOf(list));
  const maintenance = await signedInPage(browser, 'maintenance');
  await maintenance.goto(openTickets);
  await expect(maintenance.locator('tbody tr').first()).toBeVisible();
  const ticketId = (await idsOf(maintenance)).find((id) => shown.has(id));
  expect(ticketId, 'an open ticket of the maintenance provider on the operator’s page').toBeDefined();
  const form = await list.context().newPage();
  await form.goto(`/tickets/${ticketId}`);
  const status = form.getByRole('combobox', { name: /^Status( |$)/ }).first();
  await expect(status).toBeVisible();

  await maintenance.goto(`/tickets/${ticketId}`);
  await maintenance
    .getByRole('combobox', { name: /^Status( |$)/ })
    .first()
    .click();
  await maintenance.getByRole('option', { name: 'Closed', exact: true }).click();
  await maintenance.getByRole('button', { name: 'Save' }).click();
  await expect(maintenance.getByText(/^Ticket "\d+" saved$/)).toBeVisible();

  // The list says so without moving its rows; Show reads it again, and the closed ticket leaves it.
  const banner = list.getByRole('status').filter({ hasText: /new or changed record/ });
  await expect(banner).toHaveText(/1 new or changed record/, { timeout: 5000 });
  expect(await list.locator('tbody tr').allTextContents()).toEqual(rowsBefore);
  await banner.getByRole('button', { name: 'Show' }).click();
  await expect(banner).toHaveCount(0);
  await expect(list.locator(`tbody a[href$="/tickets/${ticketId}"]`)).toHaveCount(0);

  // The open form names who saved it before its user saves into a refusal; it reloads on request.
  const notice = form.getByRole('alert').filter({ hasText: 'maintenance saved this record while you had it open' });
  await expect(notice).toBeVisible({ timeout: 5000 });
  await notice.getByRole('button', { name: 'See their changes' }).click();
  await expect(notice).toHaveCount(0);
  // Reloaded: the ticket is closed, and a closed ticket reads, no longer edits.
  await expect(form.getByRole('group', { name: 'Badge: Closed' })).toBeVisible();
});
