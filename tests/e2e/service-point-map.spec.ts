import { type Page } from '@playwright/test';
import { expect, outsideRequests, signedInPage, test } from './support.ts';

/** A demo service point in Warszawa (the demo network's twelfth city): its address is searched in Poland. */
const SERVICE_POINT = 12;

/** The address field's own line under it, which says whether the address is validated. */
const addressStatus = (page: Page, text: string) => page.locator('.MuiFormHelperText-root', { hasText: text });

async function save(page: Page, name: RegExp) {
  await page.getByRole('button', { name }).click();
}

test('the operator validates an address, places it on the map and sets the opening hours', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, 'operator');
  const outside = outsideRequests(page, new URL(baseURL!).origin);
  await page.goto(`/service-points/${SERVICE_POINT}`);

  const address = page.getByRole('combobox', { name: 'Address' });
  await expect(address).toHaveValue(/^ul\. /);
  await expect(addressStatus(page, 'Address validated')).toBeVisible();
  await expect(page.getByTestId('coordinate-map').locator('.service-point-pin')).toBeVisible();

  // Typing over the validated address unvalidates it; the suggestions come from the Polish index.
  await address.fill('piotrkowska 12');
  await expect(addressStatus(page, 'Not validated: choose a suggestion or the place on the map')).toBeVisible();
  await page.getByRole('option', { name: 'ul. Piotrkowska 12, 60-001 Poznań' }).click();
  await expect(address).toHaveValue('ul. Piotrkowska 12');
  await expect(addressStatus(page, 'Address validated')).toBeVisible();
  await expect(page.getByLabel('Zip', { exact: true })).toHaveValue('60-001');
  await expect(page.getByLabel('City', { exact: true })).toHaveValue('Poznań');
  const latitude = page.getByLabel('Latitude', { exact: true });
  await expect(latitude).toHaveValue(/^52\.4/);
  const picked = await latitude.inputValue();

  // A click on the map moves the service point there.
  await page.getByTestId('coordinate-map').click({ position: { x: 120, y: 90 } });
  await expect(latitude).not.toHaveValue(picked);
  const clicked = await latitude.inputValue();
  expect(Number(clicked)).toBeGreaterThan(Number(picked));

  // Monday's hours for the whole week, then Sunday closed; a closing time before opening is refused.
  const monday = page.locator('[data-testid="opening-hours"] tr[data-day="monday"]');
  await monday.getByLabel('Monday Opens').selectOption('08:00');
  await monday.getByLabel('Monday Closes').selectOption('07:30');
  await expect(monday.getByText('Must be later than the opening time')).toBeVisible();
  await monday.getByLabel('Monday Closes').selectOption('18:30');
  await expect(monday.getByText('Must be later than the opening time')).toHaveCount(0);
  await page.getByRole('button', { name: 'Copy Monday to all days' }).click();
  await expect(page.getByLabel('Saturday Opens')).toHaveValue('08:00');
  await expect(page.getByLabel('Sunday Closes')).toHaveValue('18:30');
  await page.getByLabel('Sunday Closed').check();
  await expect(page.getByLabel('Sunday Opens')).toBeDisabled();

  await save(page, /^Save$/);
  await expect(page.getByText(/saved/)).toBeVisible();

  await page.goto(`/service-points/${SERVICE_POINT}`);
  await expect(page.getByRole('combobox', { name: 'Address' })).toHaveValue('ul. Piotrkowska 12');
  await expect(page.getByLabel('Latitude', { exact: true })).toHaveValue(clicked);
  await expect(page.getByLabel('Wednesday Closes')).toHaveValue('18:30');
  await expect(page.getByLabel('Sunday Closed')).toBeChecked();

  // What is missing is named on its field, and nothing typed is lost.
  await page.getByLabel('Latitude', { exact: true }).fill('');
  await page.getByLabel('Longitude', { exact: true }).fill('');
  await save(page, /^Save$/);
  await expect(page.getByText('Please select coordinates on the map').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Address' }).fill('');
  await save(page, /^Save$/);
  await expect(page.getByText('Please enter address').first()).toBeVisible();
  await expect(page.getByLabel('Sunday Closed')).toBeChecked();

  expect(outside).toEqual([]);
  await page.context().close();
});

test('a reader sees the week of hours; in French the map and hours speak French', async ({ browser }) => {
  // A carrier reads every service point (a scout only its own proposals).
  const reader = await signedInPage(browser, 'carrier');
  await reader.goto(`/service-points/${SERVICE_POINT}/show`);
  const week = reader.getByTestId('opening-hours');
  await expect(week.getByRole('row', { name: /Sunday/ })).toContainText('Closed');
  await expect(week.getByRole('row', { name: /Monday/ })).toContainText('08:00 – 18:30');
  await reader.context().close();

  const page = await signedInPage(browser, 'operator', { locale: 'fr-FR' });
  await page.goto(`/service-points/${SERVICE_POINT}`);
  await expect(page.getByRole('region', { name: /Carte du point de service/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Lundi : copier sur tous les jours', exact: true })).toBeVisible();
  const address = page.getByRole('combobox', { name: 'Adresse' });
  await address.fill('');
  await page.getByRole('button', { name: /^Enregistrer$/ }).click();
  await expect(page.getByText("Veuillez saisir l'adresse").first()).toBeVisible();
  await address.fill('dluga 7 gdansk');
  await page.getByRole('option', { name: 'ul. Długa 7, 80-001 Gdańsk' }).click();
  await expect(addressStatus(page, 'Adresse validée')).toBeVisible();
  await page.context().close();
});
