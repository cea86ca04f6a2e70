import { type Page } from '@playwright/test';
import { expect, settled, signedInPage, test } from './support.ts';

/**
 * Issue 24: a list page costs a handful of gateway requests, whatever its page size: the page, one
 * call per lookup list and one `ids=` call per referenced resource, never one per row.
 */
const MAX_REQUESTS_PER_LIST = 6;

/** The gateway calls (`/webtool/...`) the page makes from now on. */
function recordGatewayCalls(page: Page) {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    // The live updates' stream is the tab's one channel for changes, opened once, not a request of the list.
    if (url.pathname.startsWith('/webtool/') && url.pathname !== '/webtool/stream') {
      calls.push(`${url.pathname}${url.search}`);
    }
  });
  return {
    calls,
    /** The calls made while `action` runs and the page settles. */
    async during(action: () => Promise<unknown>) {
      const start = calls.length;
      await action();
      await settled(page);
      return calls.slice(start);
    },
  };
}

/** Opens a list from the menu, as a user does (the app is already loaded), and waits for its rows. */
async function openFromMenu(page: Page, path: string) {
  await page.locator(`nav a[href="${path}"], a[href="${path}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`${path}(\\?|$)`));
  await expect(page.locator('tbody tr').first()).toBeVisible();
}

test('the lists cost a handful of gateway requests to open and to filter, as operator and as carrier', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  const gateway = recordGatewayCalls(page);
  await page.goto('/');
  await settled(page);

  const counts: Record<string, number> = {};
  for (const path of ['/tickets', '/shipments', '/service-points', '/hardware']) {
    // Each list is opened from a quiet page, so that a late call of the list before is not counted as its.
    await page.locator('a[href="/profile"]').first().click();
    await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
    await settled(page);
    const calls = await gateway.during(() => openFromMenu(page, path));
    counts[path] = calls.length;
    expect(calls.length, `${path}: ${calls.join('\n')}`).toBeLessThanOrEqual(MAX_REQUESTS_PER_LIST);
    // References come in one ids= call per resource, never one lookup per row.
    const idCalls = calls.filter((call) => /[?&]ids=/.test(call));
    expect(new Set(idCalls.map((call) => call.split('?')[0])).size, path).toBe(idCalls.length);
  }

  // A filter change on the tickets list: the page again, and the references of its new rows.
  // Opened again, the list shows its cached page at once and asks the gateway again behind it: wait for that.
  const refetched = page.waitForResponse((response) => response.url().includes('/webtool/maintenance/tickets?'));
  await openFromMenu(page, '/tickets');
  await refetched;
  await settled(page);
  const filtered = await gateway.during(async () => {
    await page.getByRole('combobox', { name: 'Badge' }).click();
    await page.getByRole('option', { name: 'Open', exact: true }).click();
    await expect(page).toHaveURL(/badge/);
  });
  expect(filtered.length, filtered.join('\n')).toBeLessThanOrEqual(4);
  console.log('gateway requests per list', counts, 'filter change', filtered.length);
  await page.context().close();

  const carrier = await signedInPage(browser, 'carrier');
  const carrierGateway = recordGatewayCalls(carrier);
  await carrier.goto('/');
  // From a quiet page, as above: the home page's widgets load after the app's first calls, not counted as the list's.
  await carrier.locator('a[href="/profile"]').first().click();
  await expect(carrier.getByRole('heading', { name: 'Account' })).toBeVisible();
  await settled(carrier);
  const shipments = await carrierGateway.during(() => openFromMenu(carrier, '/shipments'));
  expect(shipments.length, shipments.join('\n')).toBeLessThanOrEqual(MAX_REQUESTS_PER_LIST);
  await carrier.context().close();
});

test('the service point list shows names as links, active ones first, and the few columns a person scans', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const headers = await page.locator('thead th').allTextContents();
  expect(headers).not.toContain('ID');
  expect(headers.length).toBeLessThanOrEqual(8);
  const nameIndex = headers.indexOf('Name');
  expect(nameIndex).toBeGreaterThanOrEqual(0);
  const firstName = page.locator(`tbody tr:first-child td:nth-child(${nameIndex + 1}) a`);
  await expect(firstName).toHaveAttribute('href', /\/service-points\/\d+/);
  // The table fits the pane: no horizontal scrolling at 1440 px.
  const overflow = await page
    .locator('table')
    .first()
    .evaluate((table) => table.scrollWidth - (table.parentElement?.clientWidth ?? table.scrollWidth));
  expect(overflow).toBeLessThanOrEqual(1);
  const statusIndex = headers.indexOf('Status');
  const statuses = await page.locator(`tbody tr td:nth-child(${statusIndex + 1})`).allTextContents();
  expect(statuses.filter((status) => /Terminated/.test(status))).toEqual([]);
  await page.context().close();
});

test('the shipment search finds a piece by the first characters of its id, and says what a shorter one needs', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/shipments');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const firstId = (await page.locator('tbody tr').first().locator('td a').first().textContent()) ?? '';
  expect(firstId.length).toBeGreaterThanOrEqual(6);
  const input = page.getByLabel('Piece ID starts with');
  await input.fill(firstId.slice(0, 2));
  await input.blur();
  // The short text is not sent; the input is invalid and says, under it, what it needs (issue 24).
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Type at least 4 characters')).toBeVisible();
  await expect(page.getByText('No record found.')).toHaveCount(0);
  await input.fill(firstId.slice(0, firstId.length - 1).toLowerCase());
  await expect(page).toHaveURL(/piece_id_prefix/);
  await expect(page.locator('tbody tr').first().locator('td a').first()).toHaveText(
    new RegExp(`^${firstId.slice(0, firstId.length - 1).replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`),
  );
  // The service point is shown by name, linked to its page.
  const headers = await page.locator('thead th').allTextContents();
  const pointIndex = headers.indexOf('Service point');
  expect(pointIndex).toBeGreaterThanOrEqual(0);
  await expect(page.locator(`tbody tr:first-child td:nth-child(${pointIndex + 1}) a`)).toHaveAttribute(
    'href',
    /\/service-points\/\d+/,
  );
  await page.context().close();
});
