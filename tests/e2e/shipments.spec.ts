import { type Page } from '@playwright/test';
import { listUrl } from './pages.ts';
import { expect, signedInPage, test } from './support.ts';

/** Issue 16: shipment search and piece detail, troubleshooting, tenancy. Named cases: README "What to try". */

async function openPiece(page: Page, pieceId: string) {
  await page.goto('/shipments');
  // The first list of a fresh database builds the pieces' sort keys: a few seconds once.
  await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Piece ID').fill(pieceId);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByRole('link', { name: pieceId }).click();
  await expect(page).toHaveURL(new RegExp(`/shipments/${pieceId}/show`));
}

test('the carrier finds a piece by its barcode, reads its events, tokens and compartment', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/');
  await page
    .getByRole('menuitem', { name: /Shipment/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/shipments/);
  await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });

  // A 31-character piece id is refused by the gateway with its reason.
  await page.getByLabel('Piece ID').fill('1234567890123456789012345678901');
  await expect(page.getByText('Must be at most 30 characters')).toBeVisible();
  await page.getByLabel('Piece ID').fill('');

  await page.getByLabel('Barcode').fill('JJD');
  await page.getByLabel('Barcode').fill('');
  await openPiece(page, 'DEMO-WAITING-1');
  const barcode = (await page.getByText(/^JJD/).first().textContent())!.trim();
  // The piece's own tab reads its place, tokens and notifications, not ids and raw values.
  await expect(page.getByText(/^Column \d+, position \d+$/)).toBeVisible();
  await expect(page.getByText(/^DK\d+-\d+$/)).toBeVisible();
  // Issue 24.2: the courier by its code, the end user by name (linked), the shipment id whole: no database ids.
  const pieceTab = page.getByRole('main');
  await expect(pieceTab.getByText(/^[A-Z]{2}\d{4}$/).first()).toBeVisible();
  await expect(pieceTab.getByText('S-DEMO-WAITING-1', { exact: true })).toBeVisible();
  await expect(pieceTab.getByText(/^\d{3,}$/)).toHaveCount(0);
  // Issue 28.3: the notifications the piece's events made, by kind (a token message on delivery).
  await expect(page.getByRole('table', { name: 'Notifications' })).toContainText('Token message');

  await page.goto('/shipments');
  await expect(page.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('Barcode').fill(barcode);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr').first()).toContainText('DEMO-WAITING-1');
  await page.getByRole('link', { name: 'DEMO-WAITING-1' }).click();

  await page.getByRole('tab', { name: 'Events' }).click();
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events).toContainText('Hard reserved');
  await expect(events).toContainText('Delivered by courier');
  const tokens = page.getByRole('table', { name: 'Tokens' });
  await expect(tokens).toContainText('End user pickup');
  await expect(tokens).toContainText('Available');
  // The service point by its name, the unit by its name (a carrier may not open hardware: no link).
  await expect(
    page.getByRole('link', { name: /København|Oslo|Stockholm|Warszawa|Helsinki|\d+$/ }).first(),
  ).toBeVisible();
  await expect(page.getByText(/Hardware unit: DK\d+-\d/)).toBeVisible();

  await page.getByRole('tab', { name: 'Troubleshooting' }).click();
  await expect(page.getByRole('button', { name: 'Cancel shipment' })).toBeDisabled();
  await expect(page.getByText('The shipment cannot be cancelled once it is delivered')).toBeVisible();
  await expect(page.getByText('Token cannot be resent: the compartment is occupied')).toBeVisible();

  // A comment shows in the timeline at once.
  await page.getByLabel('Troubleshooting comment').fill('ab');
  await page.getByRole('button', { name: 'Add comment' }).click();
  await expect(page.getByText('Enter at least 5 characters other than spaces')).toBeVisible();
  await page.getByLabel('Troubleshooting comment').fill('Recipient called: code lost');
  await page.getByRole('button', { name: 'Add comment' }).click();
  await expect(page.getByText('The comment is added.')).toBeVisible();
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Recipient called: code lost');

  await page.getByRole('tab', { name: 'Logs' }).click();
  await expect(page.getByRole('table', { name: 'Parcel details' })).toContainText('Comment added');
});

/**
 * A parcel of the support user's that waits in its compartment with more than 24 hours left, so
 * that it can be expired now: the newest waiting ones first. Any database has one: the journey
 * below leaves the one it uses with less than 24 hours, and takes another on its next run.
 */
async function parcelToExpire(page: Page): Promise<string> {
  await page.goto(listUrl('/shipments', { filter: { state: 103, active: true } }));
  const links = page.locator('tbody tr a[href*="/shipments/"]');
  await expect(links.first()).toBeVisible({ timeout: 30_000 });
  const ids = (await links.allTextContents()).map((text) => text.trim()).slice(0, 10);
  for (const pieceId of ids) {
    await page.goto(`/shipments/${encodeURIComponent(pieceId)}/show`);
    await page.getByRole('tab', { name: 'Troubleshooting' }).click();
    const force = page.getByRole('button', { name: 'Force expiry' });
    await expect(force).toBeVisible();
    if (await force.isEnabled()) return pieceId;
  }
  throw new Error(`None of the support user's newest waiting parcels can be expired: ${ids.join(', ')}`);
}

async function forceExpiry(page: Page) {
  await page.getByRole('button', { name: 'Force expiry' }).click();
  await page.getByRole('dialog', { name: 'Force expiry' }).getByRole('button', { name: 'Force expiry' }).click();
  await expect(page.getByText('The parcel is expired.')).toBeVisible();
  await expect(page.getByText('Token cannot be resent: the token is expired')).toBeVisible();
}

test('the support user extends an expired piece and meets the 24-hour refusal', async ({ browser }) => {
  // The journey makes its own expired parcel (Force expiry), so that it passes on any database, not
  // only on a fresh one where DEMO-EXPIRED-1 is still expired.
  const page = await signedInPage(browser, 'support');
  const pieceId = await parcelToExpire(page);
  await forceExpiry(page);
  // The buttons keep their places after the action, and the extension is asked first, its effect said.
  const places = async () =>
    page
      .getByTestId('troubleshooting-action')
      .evaluateAll((cells) =>
        cells.map(
          (cell) => `${Math.round(cell.getBoundingClientRect().x)},${Math.round(cell.getBoundingClientRect().y)}`,
        ),
      );
  const before = await places();
  await page.getByRole('button', { name: 'Extend expiry by 48 h' }).click();
  const dialog = page.getByRole('dialog', { name: 'Extend expiry by 48 h' });
  await expect(dialog).toContainText("Extend this parcel's expiry by 48 hours?");
  await dialog.getByRole('button', { name: 'Extend expiry by 48 h' }).click();
  await expect(page.getByText('The expiry is extended.')).toBeVisible();
  // Now 48 hours from expiry: no more refusals on the resend to the end user.
  await expect(page.getByText('Token cannot be resent: the token is expired')).toBeHidden();
  expect(await places()).toEqual(before);
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Forced expiry');
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Expiry updated');
  await expect(page.getByRole('table', { name: 'Tokens' })).toContainText('Available');

  // Expired again and extended by 24 hours: the expiry is now within 24 hours, and locked.
  await page.getByRole('tab', { name: 'Troubleshooting' }).click();
  await forceExpiry(page);
  await page.getByRole('button', { name: 'Extend expiry by 24 h' }).click();
  await page
    .getByRole('dialog', { name: 'Extend expiry by 24 h' })
    .getByRole('button', { name: 'Extend expiry by 24 h' })
    .click();
  await expect(page.getByText('The expiry is extended.')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/shipments/${pieceId}/show`));
  await page.getByRole('tab', { name: 'Troubleshooting' }).click();
  await expect(page.getByRole('button', { name: 'Extend expiry by 24 h' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Force expiry' })).toBeDisabled();
  await expect(page.getByText('Expiry cannot be changed in the next 24 hours').first()).toBeVisible();
});

test('the list marks test pieces, filters a date range, and refuses an end before its start', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto(listUrl('/shipments', { filter: { test_piece: 'true' } }));
  await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('tbody tr').first()).toContainText('Test');
  await page.goto(listUrl('/shipments', { filter: { from_date: '2026-05-10', to_date: '2026-05-01' } }));
  await expect(page.getByText('The end date must not be before the start date.')).toBeVisible();
});

test('a location owner gets the 404 page on /shipments and /piece-logs', async ({ browser }) => {
  const page = await signedInPage(browser, 'locationowner');
  await page.goto('/shipments');
  await expect(page.getByText(/404|not found/i).first()).toBeVisible();
  await page.goto('/piece-logs');
  await expect(page.getByText(/404|not found/i).first()).toBeVisible();
});

test('French: the timeline and the refusals read in French', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier', { locale: 'fr-FR' });
  await page.goto('/shipments/DEMO-RESERVED-1/show');
  await page.getByRole('tab', { name: 'Événements' }).click();
  await expect(page.getByRole('table', { name: 'Événements' })).toContainText('Réservation ferme');
  await page.getByRole('tab', { name: 'Dépannage' }).click();
  await expect(page.getByText('Le colis ne peut pas être traité manuellement avant sa livraison')).toBeVisible();
  await expect(
    page.getByText('Impossible de renvoyer le code : aucun événement de retrait par le client'),
  ).toBeVisible();
});
