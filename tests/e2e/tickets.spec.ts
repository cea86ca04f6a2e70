import { expect, test } from '@playwright/test';
import { signedInPage } from './support.ts';

test('look', async ({ browser }) => {
  const page = await signedInPage(browser, 'maintenance');
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('/tickets');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.screenshot({ path: '/tmp/t/list.png' });
  await page.locator('tbody tr').first().locator('td a').first().click();
  await page.waitForTimeout(2000);
  await page.screenshot({ path: '/tmp/t/edit.png', fullPage: true });
  await page.goto('/tickets/create');
  await page.waitForTimeout(2000);
  await page.screenshot({ path: '/tmp/t/create.png', fullPage: true });
});
