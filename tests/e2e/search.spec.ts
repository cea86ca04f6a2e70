import { type Page } from '@playwright/test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { expect, seriousViolations, signedInPage, test } from './support.ts';

/**
 * Issue 31.1: the app bar's search, opened with Ctrl+K from any page, as the phone desk uses it: a parcel,
 * then its end user by phone in national form, landing on their parcels; a carrier never finds another
 * carrier's parcel; the open combobox is accessible (French).
 */

async function openSearch(page: Page) {
  // The shortcut works once the app bar shows the search (the user's permissions are read).
  await expect(page.getByRole('button', { name: /^(Find anything|Tout trouver)/ })).toBeVisible();
  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: /^(Search|Rechercher)$/ });
  await expect(box).toBeFocused();
  return box;
}

test('support finds a parcel, then its end user by phone in national form, and lands on their parcels', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'support');
  await page.goto('/tickets');
  await expect(page.getByRole('button', { name: /^Find anything/ })).toBeVisible();

  // A parcel by the start of its id, opened with the keyboard alone.
  let box = await openSearch(page);
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.fill('DEMO-WAIT');
  const parcels = page.getByRole('group', { name: 'Shipments' });
  await expect(parcels.getByRole('option', { name: /DEMO-WAITING-1/ })).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const first = await box.getAttribute('aria-activedescendant');
  expect(first).toBeTruthy();
  await expect(page.locator(`[id="${first}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/shipments\/DEMO-WAITING-1\/show/);

  // Its end user's phone, as the caller reads it out: national form, without the country prefix.
  // The record page draws its fields once the piece is read: wait for the phone before reading it.
  await expect(page.locator('main')).toContainText(/End user phone\s*\+\d/, { timeout: 20_000 });
  const main = await page.locator('main').innerText();
  const stored = /End user phone\s+(\+[\d ]+)/.exec(main)?.[1]?.trim();
  expect(stored, 'the parcel names its end user phone').toBeTruthy();
  const national = parsePhoneNumberFromString(stored!)!.formatNational();
  expect(national).not.toContain('+');

  box = await openSearch(page);
  await box.fill(national);
  const endUsers = page.getByRole('group', { name: 'End users' });
  await expect(endUsers.getByRole('option').first()).toContainText(stored!);
  // The end user is the highlighted option when it is the only match; else the arrows reach it.
  for (let step = 0; step < 10; step += 1) {
    const active = await box.getAttribute('aria-activedescendant');
    if (active && (await endUsers.locator(`[id="${active}"]`).count())) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/end-users\/\d+\/1$/);
  await expect(page.getByRole('tab', { name: 'Shipments and events' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('DEMO-WAITING-1').first()).toBeVisible();

  // Empty, the box offers the recent searches and the records opened from it; Esc closes it.
  box = await openSearch(page);
  await expect(
    page.getByRole('group', { name: 'Recent searches' }).getByRole('option', { name: national }),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Recently opened' }).getByRole('option')).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();
});

test("a carrier never finds another carrier's parcel; the open combobox is accessible in French", async ({
  browser,
}) => {
  // A parcel of FjordFrakt's, read from its own list.
  const other = await signedInPage(browser, 'carrier2');
  await other.goto('/shipments');
  const link = other.locator('tbody tr a[href*="/shipments/"]').first();
  await expect(link).toBeVisible({ timeout: 30_000 });
  await link.click();
  await expect(other).toHaveURL(/\/shipments\/[^/]+\/show/);
  // The list gives way to the record page once the piece is read: its filters ("Barcode starts with") leave first.
  let barcode = '';
  await expect
    .poll(
      async () => {
        const text = await other.locator('main').innerText();
        barcode = text.includes('starts with') ? '' : (/Barcode\s+(\S+)/.exec(text)?.[1] ?? '');
        return barcode.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(3);
  let box = await openSearch(other);
  await box.fill(barcode);
  await expect(other.getByRole('group', { name: 'Shipments' }).getByRole('option').first()).toBeVisible();
  await other.context().close();

  // NordPost's carrier searches it: nothing, said so.
  const carrier = await signedInPage(browser, 'carrier');
  await carrier.goto('/');
  box = await openSearch(carrier);
  await box.fill(barcode);
  await expect(carrier.getByRole('dialog').getByRole('status')).toContainText(`Nothing found for “${barcode}”`);
  await expect(carrier.getByRole('option')).toHaveCount(0);
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await carrier.context().close();

  // The open combobox with results, in French: no serious or critical axe violation.
  const french = await signedInPage(browser, 'support', { locale: 'fr-FR' });
  await french.goto('/');
  box = await openSearch(french);
  await box.fill('DEMO-');
  await expect(french.getByRole('group', { name: 'Envois' }).getByRole('option').first()).toBeVisible();
  await french.keyboard.press('ArrowDown');
  expect(await seriousViolations(french, '[role="dialog"]')).toEqual([]);
});
