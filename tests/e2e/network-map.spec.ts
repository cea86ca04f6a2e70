import { type Page } from '@playwright/test';
import { expect, outsideRequests, signedInPage, test } from './support.ts';

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
  const outside = outsideRequests(page, new URL(baseURL!).origin);
  await page.goto('/service-points');
  await page.getByRole('link', { name: 'Map' }).click();
  await expect(page).toHaveURL(/\/service-points\/map/);
  const map = page.getByTestId('network-map');
  await expect(map).toBeVisible();
  await expect(page.getByTestId('network-map-count')).toContainText('service points on the map');
  await expect.poll(() => shownCount(page)).toBeGreaterThan(10);
  const all = await shownCount(page);

  // Clusters carry their counts; together they hold every point shown.
  const clusters = map.locator('.network-cluster');
  await expect(clusters.first()).toBeVisible();
  const counts = (await clusters.allTextContents()).map((text) => Number(text.replace(/\D/g, '')));
  for (const count of counts) expect(count).toBeGreaterThan(1);
  // The legend says each mark in words, not by colour alone.
  await expect(page.getByRole('complementary')).toContainText('Open alerts or tickets (diamond with !)');

  // Filtered by status (the list's filter, kept in the URL): fewer points.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await expect(page).toHaveURL(/filter=.*status/);
  await expect.poll(() => shownCount(page)).toBeLessThan(all);
  expect(await shownCount(page)).toBeGreaterThan(0);

  // A click on a cluster with open work ("!") zooms into it, until its points with open work show as diamonds.
  const zoom = async () => Number(await map.locator('.leaflet-container').getAttribute('data-zoom'));
  const busy = map.locator('.network-point-busy');
  for (let step = 0; step < 10 && !(await busy.count()); step += 1) {
    const zoomBefore = await zoom();
    await clusters.filter({ hasText: '!' }).first().click();
    await expect.poll(zoom).toBeGreaterThan(zoomBefore);
  }
  await busy.first().click();
  const popup = page.getByTestId('network-popup');
  await expect(popup).toBeVisible();
  await expect(popup).toContainText('Active');
  await expect(popup).toContainText(/open (tickets?|alerts?)/);
  await popup.getByRole('link', { name: 'Open the service point' }).click();
  // The point opens as its edit page for the operator (a show address redirects a user who may edit).
  await expect(page).toHaveURL(/\/service-points\/\d+(\/show)?$/);
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
