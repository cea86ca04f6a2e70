import { listUrl } from './pages.ts';
import { expect, signedInPage, startRecordAction, test } from './support.ts';

/** Issue 15 items 5 to 7: quick actions on tickets, maintenance operators, alerts. */

test('Closed tickets cannot be chosen for a quick action, and say why', async ({ browser }) => {
  const page = await signedInPage(browser, 'maintenance');
  await page.goto(listUrl('/tickets', { filter: { status: 2 } }));
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const boxes = page.locator('tbody').getByRole('checkbox');
  const count = await boxes.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    await expect(boxes.nth(index)).toBeDisabled();
    await expect(boxes.nth(index)).toHaveAccessibleName(/cannot be chosen: Declined, Closed, Courier and Service/);
  }
  // Nothing to choose: the header box cannot bring a Closed ticket into the bar either.
  await expect(page.getByRole('region', { name: 'Quick actions' })).toHaveCount(0);
});

test('the operator company assigns with the full form: a provider needs an operator, and it is cleared on a provider change', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  // The oldest open hardware tickets: the journeys beside this one create tickets (the newest) and the 50-ticket
  // action changes the newest open ones of a provider (ticket-bulk.spec.ts, after them).
  await page.goto(listUrl('/tickets', { filter: { status: 1, ticket_type: 3 }, sort: 'ticket_id', order: 'ASC' }));
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const rows = page.getByRole('checkbox', { name: /^Choose \d+$/ });
  for (let index = 0; index < 3; index += 1) await rows.nth(index).check();
  const bar = page.getByRole('region', { name: 'Quick actions' });
  await expect(bar.getByText('3 tickets chosen (at most 50)')).toBeVisible();
  await bar.getByRole('combobox', { name: 'Maintenance provider' }).click();
  await page.getByRole('option', { name: 'Nordic Field Care' }).click();
  await expect(bar.getByText('Multi-assignment needs an operator')).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Apply' })).toBeDisabled();
  await bar.getByRole('combobox', { name: 'Operator' }).click();
  await page.getByRole('option').nth(1).click();
  await bar.getByRole('combobox', { name: 'Maintenance provider' }).click();
  await page.getByRole('option', { name: 'FixIt Services' }).click();
  // A provider change clears the operator.
  await expect(bar.getByText('Multi-assignment needs an operator')).toBeVisible();
  await bar.getByRole('combobox', { name: 'Operator' }).click();
  await page.getByRole('option').nth(1).click();
  await bar.getByRole('combobox', { name: 'Verification' }).click();
  await page.getByRole('option', { name: 'Verified', exact: true }).click();
  await bar.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Quick action applied to 3 tickets')).toBeVisible();
});

test('operators list for the provider, an alert on a hardware unit, and a carrier refused', async ({ browser }) => {
  const maintenance = await signedInPage(browser, 'maintenance');
  await maintenance.goto('/operators');
  await expect(maintenance.getByRole('columnheader', { name: 'Operator code' })).toBeVisible();
  await expect(maintenance.getByRole('cell', { name: 'Nordic Field Care' })).toHaveCount(0);
  await expect(maintenance.getByRole('cell', { name: 'FixIt Services' }).first()).toBeVisible();

  const operator = await signedInPage(browser, 'operator');
  await operator.goto('/hardware');
  await operator.locator('tbody tr').first().click();
  await startRecordAction(operator, 'Add alert');
  const dialog = operator.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Alert comment' }).fill('x'.repeat(501));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Must be at most 500 characters')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Alert comment' }).fill('   ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Alert comment' }).fill('Door of compartment 2 sticks');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(operator.getByText('The alert is saved.')).toBeVisible();
  await operator.goto('/alerts');
  await expect(operator.getByText('Door of compartment 2 sticks').first()).toBeVisible();
  // The list names the unit; a troubleshooting comment of spaces around two letters is refused on its field,
  // and the alert's comment cannot change.
  await expect(operator.getByRole('columnheader', { name: 'Hardware unit', exact: true })).toBeVisible();
  await operator
    .getByRole('row', { name: /Door of compartment 2 sticks/ })
    .getByRole('link')
    .first()
    .click();
  const troubleshooting = operator.getByRole('textbox', { name: 'Troubleshooting comment' });
  await troubleshooting.fill('  o   k  ');
  await operator.getByRole('button', { name: 'Save' }).click();
  await expect(operator.getByText('Enter at least 3 characters other than spaces').first()).toBeVisible();
  await expect(operator.getByRole('textbox', { name: 'Comment', exact: true })).not.toBeEditable();

  const carrier = await signedInPage(browser, 'carrier');
  for (const path of ['/operators', '/tickets', '/alerts']) {
    await carrier.goto(path);
    await expect(carrier.getByTestId('not-found')).toBeVisible();
  }
});

test('the quick-action overlay applies quick actions to tickets typed by number from any page, and only for who may edit tickets', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  const ticketNumbers = async (badge: string) => {
    // Oldest first: a journey beside this one (tickets.spec.ts) creates a ticket and closes it at once, and in the
    // default order (newest first) that ticket was once read here as open and then as closed.
    await page.goto(listUrl('/tickets', { filter: { badge }, sort: 'ticket_id', order: 'ASC' }));
    await expect(page.locator('tbody tr').first()).toBeVisible();
    return page.locator('tbody tr td a').allTextContents();
  };
  const [first, second] = await ticketNumbers('open');
  const [closed] = await ticketNumbers('closed');

  await page.goto('/hardware');
  await page.getByRole('button', { name: 'Quick ticket actions' }).click();
  const panel = page.getByRole('dialog', { name: 'Quick ticket actions' });
  const numbers = panel.getByLabel('Ticket numbers');
  await numbers.fill(`${first}, ${second} 4x`);
  await panel.getByRole('button', { name: 'Find' }).click();
  await expect(panel.getByText('"4x" is not a ticket number')).toBeVisible();
  await numbers.fill(`${first}, ${second}, ${closed}, 99999999`);
  await panel.getByRole('button', { name: 'Find' }).click();
  await expect(panel.getByText('Ticket not found: 99999999')).toBeVisible();
  await expect(panel.getByText(`Left out: ${closed}.`)).toBeVisible();
  const bar = panel.getByRole('region', { name: 'Quick actions' });
  await expect(bar.getByText('2 tickets chosen (at most 50)')).toBeVisible();
  await bar.getByRole('combobox', { name: 'Verification' }).click();
  await page.getByRole('option', { name: 'Verified', exact: true }).click();
  await bar.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Quick action applied to 2 tickets')).toBeVisible();
  await expect(page).toHaveURL(/\/hardware/);

  // Who may not edit tickets gets no button (the gateway refuses the PATCH anyway).
  const carrier = await signedInPage(browser, 'carrier');
  await carrier.goto('/shipments');
  await expect(carrier.locator('tbody tr').first()).toBeVisible();
  await expect(carrier.getByRole('button', { name: 'Quick ticket actions' })).toHaveCount(0);
});
