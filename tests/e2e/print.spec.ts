import { expect, signedInPage, test } from './support.ts';

const labels = [
  {
    piece_type: 1,
    piece_id: 'NP123456789',
    endUser_reference: 'ORDER-77',
    endUserPhone: '+4520123456',
    carrier: { carrier_name: 'NordPost', carrier_address: 'Vestergade 1', zip: '1050', city: 'København' },
    sp: { name: 'Kiosk Oslo', sp_id: 'NO00005', sp_address: 'Storgata 3', zip: '0150', city: 'Oslo' },
  },
  {
    piece_type: 3,
    piece_id: 'RET987654321',
    endUser_emailAddress: 'returns@example.com',
    carrier: { carrier_name: 'NordPost' },
    sp: { name: 'Kiosk Oslo' },
  },
];

test('booking labels print one per piece from the cache; without it the page is expired', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  // The cache is the app's local storage: a page of the app first (a new page is blank, without storage).
  await page.goto('/profile');
  await page.evaluate((items) => {
    localStorage.setItem('wt.print.booking.B42', JSON.stringify({ savedAt: Date.now(), data: items }));
  }, labels);
  await page.goto('/print/booking/B42');
  const printed = page.locator('section.booking-label');
  await expect(printed).toHaveCount(2);
  await expect(printed.nth(0)).toContainText('PIECE ID: NP123456789');
  await expect(printed.nth(0)).toContainText('Delivered from');
  await expect(printed.nth(0)).toContainText('Reference: ORDER-77');
  await expect(printed.nth(0).locator('.barcode svg rect').first()).toBeAttached();
  await expect(printed.nth(1).locator('h2').first()).toHaveText('Sender');
  // Issue 24 (the spec's "-" for a missing value changed deliberately): a missing value leaves its line out.
  await expect(printed.nth(1).locator('.block').first().locator('div')).toHaveText(['returns@example.com']);
  await expect(printed.nth(0)).toContainText('+45 20 12 34 56');
  await expect(printed.nth(0)).toContainText('1050 København');
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);

  await page.evaluate(() => {
    localStorage.setItem('wt.print.booking.OLD', JSON.stringify({ savedAt: Date.now() - 31 * 60 * 1000, data: [{}] }));
  });
  await page.goto('/print/booking/OLD');
  await expect(page).toHaveURL(/\/booking$/);
  await expect(page.getByText('Print page is expired.')).toBeVisible();
});

test('a location export prints its proposals', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  // The cache is the app's local storage: a page of the app first (a new page is blank, without storage).
  await page.goto('/profile');
  await page.evaluate(() => {
    const location = {
      location_id: 12,
      basic: { name: 'Harbour Mall', address_1: 'Kaigata 1', location_owner_name: 'City Malls', is_rural: 0 },
      proposals: [
        {
          proposal_id: 3,
          temp_id: 't3',
          name: 'Entrance',
          position: 1,
          latitude: 59.91,
          longitude: 10.75,
          foundation_id: [{ column_name: 'Concrete' }],
        },
      ],
      contacts: [{ name: 'Ola Nordmann', proposal_id: [{ temp_id: 't3' }] }],
    };
    localStorage.setItem('wt.print.location.12', JSON.stringify({ savedAt: Date.now(), data: location }));
  });
  await page.goto('/print/location/12');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('12 · Harbour Mall');
  await expect(page.getByRole('heading', { name: 'Proposal LM12_3 / Entrance' })).toBeVisible();
  await expect(page.getByText('Ola Nordmann')).toBeVisible();
  await expect(page.getByText('Outdoor')).toBeVisible();
  await expect(page.getByText('Concrete')).toBeVisible();
  await expect(page.getByRole('link', { name: '59.91, 10.75' })).toHaveAttribute('href', /zoom=16/);
});
