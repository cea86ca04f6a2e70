import { type Page } from '@playwright/test';
import { expect, signedInPage, test } from './support.ts';

/** Issue 16: booking with its capacity check and label, end users, shipment reports. README "What to try". */

/** An Active service point of NordPost's in Poland with free compartments of every size (deterministic seed). */
const SERVICE_POINT = 'Coop Nord Supermarket Gdańsk 318';

test('the carrier checks capacity, books a parcel, prints its label and finds the piece by barcode', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'carrier');
  const servicePoint = SERVICE_POINT;
  const pieceId = `E2E${Date.now()}`;

  // From the bookings list, as a carrier's desk works (the create form is then replaced in the history).
  await page.goto('/booking');
  await page.getByRole('link', { name: 'Create booking' }).click();
  await expect(page).toHaveURL(/\/booking\/create$/);
  await expect(page.getByLabel('Partner')).toHaveValue('NordPost');
  const needs = page.getByText("Choose the service point, the carrier, the parcel type and the parcel's size first.");
  await expect(needs).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check capacity' })).toBeDisabled();
  await page.getByRole('combobox', { name: 'Service point', exact: true }).fill(servicePoint);
  await page.getByRole('option', { name: servicePoint }).click();
  await page.getByLabel('Height (cm)').fill('49');
  // A 44 x 49 x 58 parcel is refused on the field that is too large.
  await page.getByLabel('Width (cm)').fill('44');
  await page.getByLabel('Depth (cm)').fill('58');
  await page.getByLabel('Piece ID').fill('1234567890123456789012345678901');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Must be at most 43')).toBeVisible();
  await expect(page.getByText('Must be at most 30 characters')).toBeVisible();
  // A flat parcel, for a small compartment (the smallest it fits in).
  await page.getByLabel('Height (cm)').fill('8');
  await page.getByLabel('Width (cm)').fill('30');
  await page.getByLabel('Depth (cm)').fill('40');
  await page.getByLabel('Piece ID').fill(pieceId);

  await page.getByRole('button', { name: 'Check capacity' }).click();
  await expect(page.getByRole('status').filter({ hasText: /free compartments? fits? this parcel/ })).toBeVisible();

  // Neither phone nor e-mail: the recipient phone is required.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('Recipient phone')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Recipient name').fill('Ewa Test');
  await page.getByLabel('Recipient phone').fill('512 345 678');
  await page.getByRole('button', { name: 'Save' }).click();

  // The label print page opens with the new booking's label and a barcode.
  await expect(page).toHaveURL(/\/print\/booking\//, { timeout: 20_000 });
  const label = page.locator('section.booking-label');
  await expect(label).toHaveCount(1);
  await expect(label).toContainText(pieceId);
  await expect(label).toContainText(servicePoint);
  // Issue 24: the recipient by name with an international phone, the carrier as sender, no "-" lines.
  const receiver = label.locator('.block').filter({ has: page.getByRole('heading', { name: 'Receiver' }) });
  await expect(receiver).toContainText('Ewa Test');
  await expect(receiver).toContainText('+48 512 345 678');
  const sender = label.locator('.block').filter({ has: page.getByRole('heading', { name: 'Delivered from' }) });
  await expect(sender).toContainText('NordPost');
  for (const line of await label.locator('.block > div').allTextContents()) expect(line.trim()).not.toMatch(/^[-\s]*$/);
  const lines = await sender.locator('div').allTextContents();
  expect(new Set(lines).size).toBe(lines.length);
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeVisible();
  const barcode = label.locator('.barcode svg');
  const code = (await barcode.getAttribute('aria-label'))!;
  expect(code.length).toBeGreaterThan(5);
  expect(await barcode.locator('rect').count()).toBeGreaterThan(20);
  // The print dialog has been shown (headless: at once); browser Back returns to the list, not to a create form.
  await page.waitForTimeout(1_200);
  const labelUrl = page.url();
  await page.goBack();
  await expect(page).toHaveURL(/\/booking$/);
  await expect(page.getByRole('button', { name: 'Check capacity' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: pieceId })).toBeVisible();
  // The label's own Back leads to the bookings list as well.
  await page.goForward();
  await expect(page).toHaveURL(labelUrl);
  await page.getByRole('button', { name: 'Back to bookings' }).click();
  await expect(page).toHaveURL(/\/booking$/);
  await expect(page.getByRole('link', { name: pieceId })).toBeVisible();

  // The piece, found by its barcode, with its reservation event.
  await page.goto('/shipments');
  await expect(page.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Barcode').fill(code);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByRole('link', { name: pieceId }).click();
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Hard reserved');
  await expect(page.getByText(servicePoint).first()).toBeVisible();

  // Cancelling the reservation frees its compartment again (and keeps the point bookable next run).
  await cancelOpenPiece(page);
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('Cancelled');

  // The booking stays in the bookings list, by its piece id, and prints its label again.
  await page.goto('/booking');
  await page.getByRole('link', { name: pieceId }).click();
  await expect(page.getByText(servicePoint).first()).toBeVisible();
  await page.getByRole('button', { name: 'Print label' }).click();
  await expect(page).toHaveURL(/\/print\/booking\//);
  await expect(page.locator('section.booking-label')).toContainText(pieceId);
});

/** Cancels the reserved piece whose page is open, from its Troubleshooting tab. */
async function cancelOpenPiece(page: Page) {
  await page.getByRole('tab', { name: 'Troubleshooting' }).click();
  await page.getByRole('button', { name: 'Cancel shipment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel shipment' });
  await expect(dialog).toContainText('Cancel this shipment?');
  // The confirmation names its action (issue 24): the button repeats it.
  await dialog.getByRole('button', { name: 'Cancel shipment' }).click();
  await expect(page.getByText('The shipment is cancelled.')).toBeVisible();
  await page.getByRole('tab', { name: 'Events' }).click();
}

/** A phone number of Poland no seeded end user has: 51 and seven digits of the clock. */
const newPhone = () => `51${String(Date.now()).slice(-7)}`;

/** Books a parcel through the form for a new recipient; answers when the label page opened. */
async function book(page: Page, pieceId: string, name: string, phone: string) {
  await page.goto('/booking/create');
  await page.getByRole('combobox', { name: 'Service point', exact: true }).fill(SERVICE_POINT);
  await page.getByRole('option', { name: SERVICE_POINT }).click();
  await page.getByLabel('Piece ID').fill(pieceId);
  await page.getByLabel('Height (cm)').fill('8');
  await page.getByLabel('Width (cm)').fill('20');
  await page.getByLabel('Depth (cm)').fill('20');
  await page.getByLabel('Recipient name').fill(name);
  await page.getByLabel('Recipient phone').fill(phone);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/print\/booking\//, { timeout: 20_000 });
}

test('an end user is found by phone, read with their shipments and marked for deletion', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  const phone = newPhone();
  const pieceId = `E2EU${Date.now()}`;
  await book(page, pieceId, 'Olga Kowalczyk', phone);

  await page.goto('/');
  await page.getByRole('menuitem', { name: 'End user search' }).click();
  await expect(page).toHaveURL(/\/end-users/);
  await expect(
    page.getByText('Without a + prefix the number is read with the country code +48 (Poland)'),
  ).toBeVisible();
  // A malformed phone number is refused with its message, before any search.
  await page.getByRole('textbox', { name: 'Phone number' }).fill('12ab');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Invalid phone number format')).toBeVisible();

  await page
    .getByRole('textbox', { name: 'Phone number' })
    .fill(`${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.getByRole('table', { name: 'End user search' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('PL');
  await page.getByRole('link', { name: 'Olga Kowalczyk' }).click();

  // The end user's page is their edit form (issue 33): the phone in international form.
  const phoneInput = page.getByRole('textbox', { name: 'Phone', exact: true });
  await expect(phoneInput).toHaveValue('+48 ' + phone.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3'));
  // Spec 02 §5: a new phone only with every security question ticked; refused, the input kept.
  await phoneInput.fill('+48 600 700 800');
  await page.getByRole('checkbox', { name: "The caller gave the end user's full name" }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('Every security question must be ticked to change the phone or e-mail').first(),
  ).toBeVisible();
  await expect(phoneInput).toHaveValue('+48 600 700 800');
  await page.reload();
  await page.getByRole('tab', { name: 'Shipments and events' }).click();
  await expect(page.getByText(pieceId)).toBeVisible();
  await page.getByRole('button', { name: 'Mark for deletion' }).click();
  await expect(page.getByRole('dialog')).toContainText('Delete the end user Olga Kowalczyk?');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Marked for deletion: deleted once the 1 waiting shipment is finished.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark for deletion' })).toBeHidden();

  // Once its last shipment is finished (here cancelled), the end user is deleted.
  await page.goto(`/shipments/${pieceId}/show`);
  await cancelOpenPiece(page);
  await page.goto('/end-users');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(`+48${phone}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No end user found.')).toBeVisible();
});

test('a parcels report is requested, polled and downloaded as CSV', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/');
  await page.getByRole('menuitem', { name: 'Reports' }).click();
  await expect(page).toHaveURL(/\/reports/);
  await expect(page.getByRole('heading', { name: 'Shipment reports', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Partner')).toHaveValue('NordPost');

  // The end before the start is refused on the field.
  const to = page.getByRole('group', { name: 'To' });
  await to.getByRole('spinbutton', { name: 'Month' }).click();
  await page.keyboard.type('01012026');
  await page.getByRole('button', { name: 'Request report' }).click();
  await expect(page.getByText('The end cannot be before the start')).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeHidden();

  const today = new Date();
  await to.getByRole('spinbutton', { name: 'Month' }).click();
  // Emptied first: digits typed into a section that holds a value join it (01 and then 1, 2 read as no month in
  // December), as a person would select the date and type it anew.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(
    `${String(today.getMonth() + 1).padStart(2, '0')}${String(today.getDate()).padStart(2, '0')}${today.getFullYear()}`,
  );
  await page.getByRole('button', { name: 'Request report' }).click();
  await expect(page.getByRole('progressbar')).toBeVisible();
  const count = page.getByRole('status').filter({ hasText: /^\d+ rows?$/ });
  await expect(count).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/The file is available until/)).toBeVisible();
  const table = page.getByRole('table', { name: 'Shipment reports' });
  await expect(table.locator('thead')).toContainText('Piece ID');
  await expect(table.locator('tbody')).toContainText('NordPost');
  await expect(table.locator('tbody')).not.toContainText('FjordFrakt');
  // The file's codes read as words: parcel type, reservation, last event.
  await expect(table.locator('tbody')).toContainText('Delivery to end user');
  await expect(table.locator('tbody')).not.toContainText(/HardReserved|PieceExpired|CourierDelivered|EnduserPickup/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  const lines = text.trim().split(/\r?\n/);
  expect(lines[0]).toContain('Piece ID');
  expect(lines.length - 1).toBe(Number((await count.textContent())!.match(/\d+/)![0]));
});

test('French: booking, end user search and reports read in French', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier', { locale: 'fr-FR' });
  // One French term for making a booking (issue 24), on the list's button and the form's title.
  await page.goto('/booking');
  await page.getByRole('link', { name: 'Créer une réservation' }).click();
  await expect(page).toHaveURL(/\/booking\/create$/);
  await expect(page.getByText('Créer une réservation').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vérifier la capacité' })).toBeDisabled();
  await expect(
    page.getByText("Choisissez d'abord le point de service, le transporteur, le type de colis et ses dimensions."),
  ).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Point de service', exact: true })).toBeVisible();

  await page.goto('/end-users');
  await expect(page.getByRole('heading', { name: 'Recherche de destinataires', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Numéro de téléphone' }).fill('12ab');
  await page.getByRole('button', { name: 'Rechercher' }).click();
  await expect(page.getByText('Format de numéro de téléphone invalide')).toBeVisible();

  await page.goto('/reports');
  await expect(page.getByRole('heading', { name: "Rapports d'envois", level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Demander le rapport' }).click();
  const table = page.getByRole('table', { name: "Rapports d'envois" });
  await expect(table.locator('thead')).toContainText('ID du colis', { timeout: 30_000 });
  await expect(table.locator('tbody')).toContainText('Livraison au destinataire');
  await expect(page.getByRole('button', { name: 'Télécharger le CSV' })).toBeEnabled();
});
