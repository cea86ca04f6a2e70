import { formOf, listOf, listUrl } from './pages.ts';
import { expect, seriousViolations, signedInPage, test } from './support.ts';

test('the super admin finds units by badge, reads a locker and terminates only a unit that may be', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'superadmin');
  await page.goto('/');
  await page.getByRole('menuitem', { name: 'Hardware', exact: true }).click();
  await expect(page).toHaveURL(/\/hardware(\?.*)?$/);
  await expect(listOf(page).rows.first()).toBeVisible();
  const everything = await listOf(page).total();

  await listOf(page).choose('Badges', 'Low battery');
  await expect.poll(() => listOf(page).total()).toBeLessThan(everything);
  expect(await listOf(page).total()).toBeGreaterThan(0);
  for (const badges of await listOf(page).columnValues('Badges')) expect(badges).toContain('Low battery');
  const badge = page.locator('tbody [data-badge="low_battery"]').first();
  await expect(badge).toHaveText('Low battery');
  // In its own colour: a tint behind dark text, not the page's plain outline.
  expect(await badge.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  expect(await seriousViolations(page, 'tbody')).toEqual([]);

  // An installed unit: the locker as it stands, then a termination that the gateway refuses.
  await page.goto('/hardware');
  await listOf(page).addFilter('Status', 'Installed');
  await expect.poll(async () => new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['Installed']));
  await listOf(page).rows.first().locator('td a').first().click();
  await expect(page.getByRole('group', { name: 'Status: Installed' })).toBeVisible();
  const name = await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue();
  await page.getByRole('tab', { name: 'Compartments' }).click();
  const grid = page.getByRole('region', { name: `Compartments of ${name}` });
  await expect(grid).toBeVisible();
  await expect(grid.getByRole('list', { name: 'Legend' })).toContainText('Occupied');
  const firstDoor = grid.getByRole('list', { name: 'Column 1' }).getByRole('listitem').first();
  await expect(firstDoor).toHaveAttribute('aria-label', /^Column 1, position \d+, (Small|Medium|Large), \w+/);
  // Reached with the keyboard: Tab from the table switch lands on the first door, which says what it is.
  await grid.getByRole('button', { name: 'Show as a table' }).focus();
  await page.keyboard.press('Tab');
  await expect(firstDoor).toBeFocused();
  await expect(page.getByRole('tooltip')).toHaveText((await firstDoor.getAttribute('aria-label'))!);
  await grid.getByRole('button', { name: 'Show as a table' }).click();
  await expect(grid.getByRole('table')).toContainText('Compartment');
  expect(await seriousViolations(page, 'section[aria-label^="Compartments of"]')).toEqual([]);

  await page.getByRole('button', { name: 'Terminate', exact: true }).click();
  // A destructive action's confirmation repeats its name on the button (issue 24).
  await page.getByRole('dialog').getByRole('button', { name: 'Terminate' }).click();
  await expect(page.getByText('Hardware unit requires uninstallation from service point')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('group', { name: 'Status: Installed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Terminate', exact: true })).toBeVisible();

  // A unit in the warehouse: asked first, then terminated for good. A retry takes another one.
  await page.goto('/hardware');
  await listOf(page).addFilter('Status', 'In warehouse');
  await expect.poll(async () => new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['In warehouse']));
  await listOf(page).rows.first().locator('td a').first().click();
  await expect(page.getByRole('group', { name: 'Status: In warehouse' })).toBeVisible();
  await page.getByRole('button', { name: 'Terminate', exact: true }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Termination is permanent');
  await confirm.getByRole('button', { name: 'Terminate' }).click();
  await expect(page.getByText('The hardware unit is terminated.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Status: Terminated' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Terminate', exact: true })).toBeHidden();
  await page.context().close();
});

test('at 390 px the hardware list is compact rows with their badges, and a locker fits the screen', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator', { viewport: { width: 390, height: 844 } });
  await page.goto('/hardware');
  const rows = page.getByRole('list', { name: 'Hardware units' }).getByRole('link');
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().locator('[data-badge]').first()).toBeVisible();
  await rows.first().click();
  await page.getByRole('tab', { name: 'Compartments' }).click();
  await expect(page.getByRole('list', { name: 'Legend' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.context().close();
});

test('the hardware owner sees only its own units and PIN pads, and creates them as its own', async ({ browser }) => {
  const page = await signedInPage(browser, 'hardware');
  await page.goto('/service-points');
  await page.getByRole('menuitem', { name: 'Hardware', exact: true }).click();
  // The service point rows stay on screen until the hardware list replaces them.
  await expect(page).toHaveURL(/\/hardware(\?.*)?$/);
  // The owner is one of the columns a person chooses (issue 24: a list shows the few a person scans).
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('menu').getByRole('checkbox', { name: 'Hardware owner' }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Hardware owner' })).toBeVisible();
  await expect(listOf(page).rows.first()).toBeVisible();
  await expect
    .poll(async () => new Set(await listOf(page).columnValues('Hardware owner')))
    .toEqual(new Set(['LockerWorks']));

  await page.getByRole('menuitem', { name: 'PIN pad' }).click();
  await expect(page).toHaveURL(/\/pinpad(\?.*)?$/);
  await expect(listOf(page).rows.first()).toBeVisible();
  await expect
    .poll(async () => new Set(await listOf(page).columnValues('Hardware owner')))
    .toEqual(new Set(['LockerWorks']));
  await page.getByRole('link', { name: 'Create' }).click();
  const owner = page.getByRole('textbox', { name: 'Partner' });
  await expect(owner).toHaveValue('LockerWorks');
  await expect(owner).not.toBeEditable();
  await page.context().close();
});

test('a carrier has no hardware or PIN pad menu and gets the 404 page there', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/service-points');
  await expect(page.getByRole('menuitem', { name: 'Service points' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Hardware', exact: true })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'PIN pad' })).toHaveCount(0);
  for (const path of ['/hardware', '/pinpad', '/hardware/1', '/pinpad/create']) {
    await page.goto(path);
    await expect(page.getByTestId('not-found'), path).toBeVisible();
  }
  await page.context().close();
});

test('a PIN pad keeps what was typed when a rule refuses it', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  // Active pads, placed at service points (the list opens at the newest, often still in the warehouse).
  await page.goto(listUrl('/pinpad', { filter: { status: 4 } }));
  await expect(listOf(page).rows.first()).toBeVisible();
  // Service points and units by name, never by id.
  await expect
    .poll(async () => (await listOf(page).columnValues('Service point')).filter((name) => name !== '').length)
    .toBeGreaterThan(1);
  for (const label of ['Service point', 'Hardware unit']) {
    expect((await listOf(page).columnValues(label)).filter((value) => /^\d+$/.test(value))).toEqual([]);
  }
  const servicePoints = await listOf(page).columnValues('Service point');
  const placed = servicePoints.flatMap((name, row) => (name ? [row] : []));
  const taken = servicePoints[placed[0]];
  await listOf(page).rows.nth(placed[1]).locator('td a').first().click();
  await expect(page.getByRole('tab', { name: 'Connectivity' })).toBeVisible();

  // The gateway's rule: a placed pad is not moved to a second service point by an edit (an uninstall
  // ticket takes it off first), said under the field, the choice kept.
  const servicePoint = page.getByRole('combobox', { name: 'Service point' });
  await servicePoint.fill(taken);
  await page.getByRole('option', { name: taken, exact: true }).click();
  await formOf(page).save();
  await expect(page.getByText('Hardware leaves a service point only through an uninstall ticket')).toBeVisible();
  await expect(servicePoint).toHaveValue(taken);

  // The schema's rule, checked before any call: an ICCID is digits only.
  await page.getByRole('tab', { name: 'Connectivity' }).click();
  const iccid = page.getByRole('textbox', { name: 'SIM ICCID' });
  await iccid.fill('8947080ABC000000001');
  await formOf(page).save();
  await expect(page.getByText('Enter digits only')).toBeVisible();
  await expect(iccid).toHaveValue('8947080ABC000000001');
  await page.context().close();
});

test('deleting a unit names its owner as partner_id: a unit at a service point is refused, one in the warehouse goes', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  const deleteAndRead = async () => {
    const sent = page.waitForRequest((request) => request.method() === 'DELETE');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Confirm|Delete/ })
      .click();
    return (await sent).postDataJSON() as Record<string, unknown>;
  };

  await page.goto('/hardware');
  await listOf(page).addFilter('Status', 'Installed');
  await expect.poll(async () => new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['Installed']));
  await listOf(page).rows.first().locator('td a').first().click();
  const installedUrl = page.url();
  const refused = await deleteAndRead();
  expect(refused).toMatchObject({ hardware_id: expect.any(Number), partner_id: expect.any(Number) });
  await expect(page.getByText('Hardware unit requires uninstallation from service point')).toBeVisible();
  expect(page.url()).toBe(installedUrl);

  await page.goto('/hardware');
  await listOf(page).addFilter('Status', 'In warehouse');
  await expect.poll(async () => new Set(await listOf(page).columnValues('Status'))).toEqual(new Set(['In warehouse']));
  await listOf(page).rows.first().locator('td a').first().click();
  const unitId = Number(/\/hardware\/(\d+)/.exec(page.url())![1]);
  const sent = await deleteAndRead();
  expect(sent).toMatchObject({ hardware_id: unitId, partner_id: expect.any(Number) });
  await expect(page).toHaveURL(/\/hardware(\?.*)?$/);
  await page.goto(`/hardware/${unitId}`);
  await expect(page.getByText(/not exist|not found/i).first()).toBeVisible();
  await page.context().close();
});
