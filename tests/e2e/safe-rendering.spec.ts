import { expect, signedInPage, test } from './support.ts';

const payloads = ['<img src=x onerror="window.__xss = 1">', '<script>window.__xss = 2</script>'];

test('user-provided text is shown as text, never run as HTML', async ({ browser }) => {
  const page = await signedInPage(browser, 'superadmin');
  for (const [index, payload] of payloads.entries()) {
    await page.goto('/roles/create');
    await page.getByRole('textbox', { name: 'Role name' }).fill(`carrier_1_xss${index}`);
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill(payload);
    await page.getByRole('combobox', { name: 'Partner type' }).click();
    await page.getByRole('option', { name: 'Carrier' }).click();
    await page.getByRole('textbox', { name: 'Partner', exact: true }).fill('1');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/roles(\?.*)?$/);
  }
  await page.goto('/roles');
  await page.getByRole('textbox', { name: 'Search' }).fill('xss');
  for (const payload of payloads) await expect(page.getByText(payload, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  const csp = (await page.request.get('/')).headers()['content-security-policy'];
  const scriptSources = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
  expect(scriptSources?.trim()).toBe("script-src 'self'");
});
