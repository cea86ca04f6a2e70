import { expect, test, type Page } from '@playwright/test';
import { signedInPage } from './support.ts';

/** The number of service points the map says it shows. */
async function shownCount(page: Page) {
  const text = (await page.getByTestId('network-map-count').textContent()) ?? '';
  return Number(text.replace(/\D/g, ''));
}

test('the operator opens the network map from the list, filters it, zooms into a cluster and opens a point; owners see their own', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, 'operator');
  const outside: string[] = [];
  const origin = new URL(baseURL!).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  await page.goto('/service-points');
  await page.getByRole('link', { name: 'Map' }).click();
  await expect(page).toHaveURL(/\/service-points\/map/);
  const map = page.getByTestId('network-map');
  await expect(map).toBeVisible();
  await expect(page.getByTestId('network-map-count')).toContainText('service points on the map');
  const all = await shownCount(page);
  expect(all).toBeGreaterThan(10);

  // Clusters carry their counts; together they hold every point shown.
  const clusters = map.locator('.network-cluster');
  await expect(clusters.first()).toBeVisible();
  const counts = (await clusters.allTextContents()).map((text) => Number(text.replace(/\D/g, '')));
  expect(counts.every((count) => count > 1)).toBe(true);
  // The legend says each mark in words, not by colour alone.
  await expect(page.getByRole('complementary')).toContainText('Open alerts or tickets (diamond with !)');

  // Filtered by status (the list's filter, kept in the URL): fewer points, and the list opens with it.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await expect(page).toHaveURL(/filter=.*status/);
  await expect.poll(() => shownCount(page)).toBeLessThan(all);
  const active = await shownCount(page);
  expect(active).toBeGreaterThan(0);

  // A click on a cluster zooms into it; down to one point, its popup opens the service point.
  const zoom = async () => Number(await map.locator('.leaflet-container').getAttribute('data-zoom'));
  const zoomBefore = await zoom();
  await clusters.first().click();
  await expect.poll(zoom).toBeGreaterThan(zoomBefore);
  const search = page.getByRole('searchbox', { name: 'Search' });
  await page.goto('/service-points?filter=%7B%22status%22%3A7%7D');
  const firstName = (await page.locator('tbody tr td a').first().textContent())!.trim();
  await page.goto('/service-points/map?filter=%7B%22status%22%3A7%7D');
  await search.fill(firstName);
  await search.press('Enter');
  await expect.poll(() => shownCount(page)).toBeGreaterThan(0);
  await expect.poll(() => shownCount(page)).toBeLessThan(active);
  // One point or a few at the map's centre: its mark is drawn there.
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const popup = page.getByTestId('network-popup');
  await expect(popup).toBeVisible();
  await expect(popup).toContainText('Active');
  await expect(popup).toContainText(/open tickets?/);
  await popup.getByRole('link', { name: 'Open the service point' }).click();
  await expect(page).toHaveURL(/\/service-points\/\d+\/show/);
  expect(outside).toEqual([]);
  await page.context().close();

  // The location owner sees its own service points only; no ticket counts for a carrier, who reads none.
  const owner = await signedInPage(browser, 'locationowner');
  await owner.goto('/service-points/map');
  await expect(owner.getByTestId('network-map-count')).toBeVisible();
  await expect.poll(() => shownCount(owner)).toBeGreaterThan(0);
  expect(await shownCount(owner)).toBeLessThan(all);
  await owner.context().close();
});
