import { readFileSync } from 'node:fs';
import { pdfPages } from '../server/support/pdf-text.ts';
import { listUrl } from './pages.ts';
import { expect, outsideRequests, signedInPage, startRecordAction, test } from './support.ts';

test('the operator uses an approved proposal as a service point and prints its location with the map', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, 'operator');
  const outside = outsideRequests(page, new URL(baseURL!).origin);

  await page.goto('/locations');
  await expect(page.getByRole('link', { name: 'Create location' })).toBeVisible();
  await expect(page.locator('table tbody tr').first()).toBeVisible();

  // An approved proposal not yet used: its page offers "Use as service point", with the map of its place.
  await page.goto(listUrl('/location-proposals', { filter: { status: 2, used: false } }));
  const proposalLink = page.locator('table tbody tr a').first();
  const proposalName = (await proposalLink.textContent())!.trim();
  await proposalLink.click();
  await expect(page.getByText('Approved').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Address and map' }).click();
  await expect(page.getByTestId('coordinate-map').locator('.service-point-pin')).toBeVisible();
  await expect(page.getByText('Address validated')).toBeVisible();
  await page.getByRole('tab', { name: 'Pictures' }).click();
  await expect(page.getByRole('button', { name: /^Photos \([1-5]\/5\)$/ })).toBeVisible();

  await startRecordAction(page, 'Use as service point');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Create a service point from this proposal?');
  await dialog.getByRole('button', { name: /Confirm|Use as service point/ }).click();
  await expect(page.getByText('The service point was created from the proposal')).toBeVisible();
  await expect(page.getByText('This proposal is a service point now: it can no longer be changed.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use as service point' })).toHaveCount(0);

  // The proposal names its service point; the location's Proposals tab links it, and it opens in the
  // service point screens.
  await page.getByRole('tab', { name: 'Basic' }).click();
  const view = page.getByRole('main');
  await expect(view.getByText('Service point', { exact: true })).toBeVisible();
  const locationValue = view.locator('p', { hasText: /^Location$/ }).locator('xpath=following-sibling::*[1]');
  await expect(locationValue).not.toBeEmpty();
  const locationName = (await locationValue.textContent())!.trim();
  await page.goto('/locations');
  await page.getByPlaceholder('Search').or(page.getByLabel('Search')).first().fill(locationName);
  await page.getByRole('link', { name: locationName, exact: true }).click();
  await page.getByRole('tab', { name: 'Proposals' }).click();
  await page.getByRole('table').getByRole('link', { name: proposalName, exact: true }).click();
  await expect(page).toHaveURL(/\/service-points\/\d+/);
  await expect(page.getByRole('combobox', { name: 'Address' })).not.toHaveValue('');

  // A location prints with each proposal's map.
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Proposals' })).toBeVisible();
  await page.getByRole('tab', { name: 'Proposals' }).click();
  await expect(page.getByRole('link', { name: /^LM\d+_\d+ · / }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Print' }).click();
  await expect(page).toHaveURL(/\/print\/location\/\d+$/);
  await expect(page.getByRole('heading', { level: 2 }).first()).toContainText(/^Proposal LM\d+_\d+ \/ /);
  await expect(page.getByTestId('proposal-map').first()).toHaveAttribute('data-zoom', '15');
  expect(outside).toEqual([]);
});

test('a carrier cannot open the locations', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/locations');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await page.goto('/location-proposals');
  await expect(page.getByTestId('not-found')).toBeVisible();
});

test('the operator imports locations from a CSV file, picks the place of a proposal on its map and downloads a location PDF', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/locations');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog');
  const picker = dialog.locator('input[type="file"]');
  const csv = (rows: string[]) => ({
    name: 'locations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['Name,Country,Address,Zip,City,Location type,Latitude,Longitude', ...rows].join('\n')),
  });
  const good = 'Import Harbour Kiosk,Denmark,Havnegade 4,1058,København,Kiosk,55.6771,12.5901';

  // A 71-character name and a zip of 2: the row is refused per field, and nothing can be sent.
  await picker.setInputFiles(csv([good, `${'N'.repeat(71)},Denmark,Havnegade 6,12,København,Kiosk,55.6772,12.5902`]));
  await expect(dialog.getByText('2 rows: 1 valid, 1 invalid, 0 repeated.')).toBeVisible();
  const row = dialog.getByRole('table', { name: 'Rows to import' }).locator('tbody tr').nth(1);
  await expect(row).toContainText('Length: Must be at most 70 characters');
  await expect(row).toContainText('Length: Must be at least 3 characters');
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  // Fixed, the file imports.
  await picker.setInputFiles(
    csv([good, 'Import Canal Kiosk,Denmark,Havnegade 6,1058,København,Kiosk,55.6772,12.5902']),
  );
  await expect(dialog.getByText('2 rows: 2 valid, 0 invalid, 0 repeated.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('2 rows imported')).toBeVisible();

  // The imported location opens, and its PDF sheet downloads with its data.
  await page.getByPlaceholder('Search').or(page.getByLabel('Search')).first().fill('Import Harbour Kiosk');
  await page.getByRole('link', { name: 'Import Harbour Kiosk', exact: true }).click();
  await expect(page.getByLabel('Zip')).toHaveValue('1058');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF sheet' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^location-\d+-Import_Harbour_Kiosk\.pdf$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const sheet = pdfPages(bytes).join('\n');
  expect(sheet).toContain('Location sheet');
  expect(sheet).toContain('1058 København');
  expect(sheet).toContain('Kiosk');

  // An open proposal without coordinates asks for them; a click on its map saves them (update_latlng).
  await page.goto(listUrl('/location-proposals', { filter: { status: 1, used: false } }));
  await expect(page.locator('table tbody tr a').first()).toBeVisible();
  const links = await page
    .locator('table tbody tr a')
    .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).getAttribute('href')!));
  let found = false;
  for (const href of links.filter((link) => /location-proposals\/\d+/.test(link))) {
    await page.goto(href.replace(/^#/, ''));
    await page.getByRole('tab', { name: 'Address and map' }).click();
    await expect(page.getByTestId('coordinate-map')).toBeVisible();
    if (await page.getByText('Please select coordinates on the map').isVisible()) {
      found = true;
      break;
    }
  }
  expect(found, 'an open proposal without coordinates').toBe(true);
  const saved = page.waitForRequest(
    (request) => request.method() === 'PATCH' && (request.postData() ?? '').includes('"opname":"update_latlng"'),
  );
  await page.getByTestId('coordinate-map').click({ position: { x: 160, y: 120 } });
  await saved;
  await expect(page.getByText('The coordinates were saved')).toBeVisible();
  await expect(page.getByText('Please select coordinates on the map')).toHaveCount(0);
  await page.reload();
  await page.getByRole('tab', { name: 'Address and map' }).click();
  await expect(page.getByTestId('coordinate-map').locator('.service-point-pin')).toBeVisible();
  await expect(page.getByLabel('Latitude', { exact: true })).not.toHaveValue('');
  await page.context().close();
});

test('the super admin draws an area, generates a report, selects candidates in the table and on the map and converts them', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, 'superadmin');
  const outside = outsideRequests(page, new URL(baseURL!).origin);

  // The seeded reports: one converted, one open.
  await page.goto('/location-generator');
  await expect(page.getByTestId('generator-report-row').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'København centre and north' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Aarhus Midtbyen' })).toBeVisible();

  await page.goto('/location-generator/create-report');
  const map = page.getByTestId('generator-map');
  await expect(map).toBeVisible();
  // Choosing København brings the map to it; the new area is drawn around its centre, click by click.
  await page.getByRole('checkbox', { name: /^København/ }).check();
  const name = `Drawn centre ${Date.now() % 100000}`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  const box = (await map.boundingBox())!;
  const [cx, cy] = [box.width / 2, box.height / 2];
  for (const [dx, dy] of [
    [-70, -70],
    [70, -70],
    [70, 70],
    [-70, 70],
  ]) {
    await map.click({ position: { x: cx + dx, y: cy + dy } });
  }
  await expect(page.getByTestId('draw-hint')).toContainText('4 points placed');
  await page.getByRole('button', { name: 'Save area' }).click();
  await expect(page.getByText(`Area "${name}" saved`)).toBeVisible();

  // Edited: renamed and one corner dragged outwards.
  await page.getByRole('button', { name: `Edit area: ${name}` }).click();
  await expect(page.getByRole('heading', { name: 'Edit area' })).toBeVisible();
  await expect(page.getByTestId('draw-hint')).toContainText('4 points placed');
  const renamed = `${name} B`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
  const corner = (await map.locator('.generator-vertex').first().boundingBox())!;
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
  await page.mouse.move(corner.x - 20, corner.y - 20, { steps: 5 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Save area' }).click();
  await expect(page.getByText(`Area "${renamed}" saved`)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: new RegExp(`^${renamed}`) })).toBeVisible();

  // A zone inside it; redrawn outside it, it is refused in the form; then deleted after confirmation.
  await page.getByRole('combobox', { name: 'Shape to draw' }).click();
  await page.getByRole('option', { name: 'Zone' }).click();
  await page.getByRole('combobox', { name: 'Area', exact: true }).click();
  await page.getByRole('option', { name: renamed }).click();
  const zone = `${name} zone`;
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(zone);
  for (const [dx, dy] of [
    [-20, -20],
    [20, -20],
    [20, 20],
    [-20, 20],
  ]) {
    await map.click({ position: { x: cx + dx, y: cy + dy } });
  }
  await page.getByRole('button', { name: 'Save zone' }).click();
  await expect(page.getByText(`Zone "${zone}" saved`)).toBeVisible();
  await page.getByRole('button', { name: `Edit zone: ${zone}` }).click();
  await page.getByRole('button', { name: 'Redraw' }).click();
  for (const [dx, dy] of [
    [-150, -150],
    [150, -150],
    [150, 150],
  ]) {
    await map.click({ position: { x: cx + dx, y: cy + dy } });
  }
  await page.getByRole('button', { name: 'Save zone' }).click();
  await expect(page.getByTestId('shape-refusal')).toHaveText(`The zone "${zone}" lies outside its area`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Delete zone: ${zone}` }).click();
  await expect(page.getByRole('dialog')).toContainText(`Delete the zone "${zone}"?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('checkbox', { name: `Zone: ${zone}` })).toHaveCount(0);

  await page.getByRole('checkbox', { name: /^København/ }).uncheck();
  await page.getByRole('checkbox', { name: new RegExp(`^${renamed}`) }).check();
  await page.getByRole('textbox', { name: 'Report name' }).fill(`${name} report`);
  await page.getByRole('spinbutton', { name: 'Most candidates' }).fill('12');
  // The demo's service points stand close together along its streets: new sites may stand 150 m from one.
  await page.getByRole('spinbutton', { name: 'Minimum distance to a service point (m)' }).fill('150');
  await page.getByRole('button', { name: 'Generate report' }).click();

  await expect(page).toHaveURL(/\/location-generator\/locations\?report=\d+/);
  await expect(page.getByTestId('report-status')).toHaveText('Finished', { timeout: 30_000 });
  const rows = page.getByTestId('generator-location-row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(4);
  await expect(page.getByRole('columnheader', { name: 'Population part' })).toBeVisible();

  // Three chosen in the table show on the map; one more chosen on the map shows in the table.
  for (const index of [0, 1, 2]) await rows.nth(index).click();
  const chosenOnMap = map.locator('.generator-point.is-selected');
  await expect(chosenOnMap).toHaveCount(3);
  // The circles overlap where candidates stand close: the event goes to the unselected one itself.
  await map.locator('.generator-point:not(.is-selected)').first().dispatchEvent('click');
  await expect(chosenOnMap).toHaveCount(4);
  await expect(page.locator('[data-testid="generator-location-row"][aria-selected="true"]')).toHaveCount(4);
  await expect(page.getByText('4 selected')).toBeVisible();

  await page.getByRole('button', { name: 'Convert to service points' }).click();
  // The created service points' location owner, chosen in the dialog.
  await page.getByRole('dialog').getByRole('combobox', { name: 'Location owner (optional)' }).click();
  const ownerOption = page.getByRole('option').nth(1);
  const owner = (await ownerOption.textContent())!.trim();
  await ownerOption.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('conversion-status')).toHaveText('Finished', { timeout: 30_000 });
  await expect(page.getByTestId('conversion')).toContainText('4 of 4 converted');
  const converted = page.getByRole('link', { name: /^Converted #\d+/ });
  await expect(converted).toHaveCount(4);
  await converted.first().click();
  await expect(page).toHaveURL(/\/service-points\/\d+/);
  await expect(page.getByText('New').first()).toBeVisible();
  // The owner chosen in the dialog is the service point's (linked in its record page's location owner field).
  await expect(page.locator('a[href^="/location-owners/"]').filter({ hasText: owner }).first()).toBeAttached();
  expect(outside).toEqual([]);
});
