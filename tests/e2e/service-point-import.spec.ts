import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { pdfPages } from '../server/support/pdf-text.ts';
import { expect, signedInPage, test } from './support.ts';

const csv = (text: string, name = 'service-points.csv') => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text, 'utf8'),
});

/** The name of a live (not terminated) service point of the list's first page: a terminated one frees its name. */
async function liveServicePointName(page: Page) {
  await expect(page.locator('tbody tr').first()).toBeVisible();
  const headers = await page.locator('thead th').allTextContents();
  const column = async (label: string) => {
    const index = headers.indexOf(label);
    expect(index, label).toBeGreaterThanOrEqual(0);
    return page.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents();
  };
  const [names, statuses] = [await column('Name'), await column('Status')];
  const live = names.find((_, index) => statuses[index].trim() !== 'Terminated');
  expect(live).toBeDefined();
  return live!.trim();
}

/** Downloads the service point's PDF sheet from its edit page and gives the text of its pages. */
async function downloadSheet(page: Page, button: string) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^service-point-[\w-]+\.pdf$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfPages(bytes).join('\n');
}

test('the operator sees each bad row per field, imports test service points, and downloads a PDF sheet', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/service-points');
  const storedName = await liveServicePointName(page);
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog');
  const picker = dialog.locator('input[type="file"]');

  // Headers as the export writes them; names for lookups and choices.
  const header = 'Name,Country,Status,Zip,City,Location type,Max hardware units,Hardware models,Latitude,Longitude';
  await picker.setInputFiles(
    csv(
      [
        header,
        ' Leading Kiosk,Norway,New,0155,Oslo,Kiosk,1,,59.1,10.1',
        'Short Zip Kiosk,Norway,New,123,Oslo,Kiosk,1,,59.2,10.2',
        'Castle Kiosk,Norway,New,0155,Oslo,Castle,1,,59.3,10.3',
        'Models Kiosk,Norway,New,0155,Oslo,Kiosk,1,"Compact 2, City 3",59.4,10.4',
        'Twin Kiosk,Norway,New,0155,Oslo,Kiosk,1,,59.5,10.5',
        'Twin Kiosk,Norway,New,0155,Oslo,Kiosk,1,,59.6,10.6',
      ].join('\n'),
    ),
  );
  await expect(dialog.getByText('6 rows: 1 valid, 4 invalid, 1 repeated.')).toBeVisible();
  const preview = dialog.getByRole('table', { name: 'Rows to import' });
  // Rows in file order: line 2 is the first data row.
  const line = (number: number) => preview.locator('tbody tr').nth(number - 2);
  await expect(line(2)).toContainText('Special characters: ');
  await expect(line(3)).toContainText('Length: ');
  await expect(line(4)).toContainText('Invalid: Unknown name: Castle');
  await expect(line(5)).toContainText('Mismatch: ');
  await expect(line(7)).toContainText('Repeated: Repeats line 6');
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  // A name the network already has is refused by the gateway, shown on its row; nothing is imported.
  await picker.setInputFiles(
    csv(
      `${header}\nFresh Kiosk One,Norway,New,0155,Oslo,Kiosk,1,,61.1,11.1\n${storedName},Norway,New,0155,Oslo,Kiosk,1,,61.2,11.2\n`,
    ),
  );
  await expect(dialog.getByText('2 rows: 2 valid, 0 invalid, 0 repeated.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Nothing was imported: correct the rows in error and try again')).toBeVisible();
  await expect(line(3)).toContainText(/Repeated: Already exists: record \d+/);

  await picker.setInputFiles(
    csv(
      `${header},Delivery methods,Tag 1\nToggle Import Kiosk A,Norway,New,0155,Oslo,Kiosk,2,Compact 2,61.3,11.3,"Locker, Staffed counter",Parking\nToggle Import Kiosk B,Norway,Qualified,0155,Oslo,Kiosk,1,,61.4,11.4,Locker,\n`,
    ),
  );
  await expect(dialog.getByText('2 rows: 2 valid, 0 invalid, 0 repeated.')).toBeVisible();
  // The preview names looked-up values as the list does, not by their ids.
  await expect(dialog.getByRole('cell', { name: 'Locker; Staffed counter', exact: true })).toBeVisible();
  await expect(dialog.getByRole('cell', { name: 'Kiosk', exact: true }).first()).toBeVisible();
  await dialog.getByLabel('Import as test service points').check();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('2 rows imported')).toBeVisible();

  await page.getByRole('textbox', { name: 'Search' }).fill('Toggle Import Kiosk');
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.locator('tbody tr').filter({ hasText: 'Toggle Import Kiosk A' }).click();
  await expect(page).toHaveURL(/\/service-points\/\d+/);
  await page.getByRole('tab', { name: 'More' }).click();
  await expect(page.getByLabel('Test service point')).toBeChecked();

  const sheet = await downloadSheet(page, 'PDF sheet');
  expect(sheet).toContain('Service point sheet');
  expect(sheet).toContain('Toggle Import Kiosk A');
  expect(sheet).toContain('0155 Oslo');
  expect(sheet).toMatch(/Delivery methods: \nLocker, Staffed counter/);
  await page.context().close();
});

test('in French, the row errors, the import and the PDF sheet read in French', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator', { locale: 'fr-FR' });
  await page.goto('/service-points');
  await page.getByRole('button', { name: 'Importer' }).click();
  const dialog = page.getByRole('dialog');
  const header = "Nom,Pays,Statut,Code postal,Ville,Type d'emplacement,Unités matérielles max.,Latitude,Longitude";
  await dialog
    .locator('input[type="file"]')
    .setInputFiles(
      csv(
        [
          header,
          'Kiosque Court,Norvège,Nouveau,123,Oslo,Kiosque,1,62.1,12.1',
          'Kiosque Château,Norvège,Nouveau,0155,Oslo,Château,1,62.2,12.2',
        ].join('\n'),
      ),
    );
  await expect(dialog.getByText('2 lignes : 0 valide, 2 invalides, 0 répétée.')).toBeVisible();
  const preview = dialog.getByRole('table', { name: 'Lignes à importer' });
  await expect(preview.getByRole('row').filter({ hasText: 'Kiosque Court' })).toContainText('Longueur : ');
  await expect(preview.getByRole('row').filter({ hasText: 'Kiosque Château' })).toContainText(
    'Invalide : Nom inconnu : Château',
  );

  await dialog
    .locator('input[type="file"]')
    .setInputFiles(csv(`${header}\nKiosque Fjord,Norvège,Nouveau,0155,Oslo,Kiosque,1,62.3,12.3\n`));
  await expect(dialog.getByText('1 ligne : 1 valide, 0 invalide, 0 répétée.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('textbox', { name: 'Rechercher' }).fill('Kiosque Fjord');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.locator('tbody tr').first().click();
  await expect(page).toHaveURL(/\/service-points\/\d+/);
  const sheet = await downloadSheet(page, 'Fiche PDF');
  expect(sheet).toContain('Fiche du point de service');
  expect(sheet).toContain('Kiosque Fjord');
  expect(sheet).toContain('Norvège');
  expect(sheet).toContain("Heures d'ouverture");
  await page.context().close();
});
