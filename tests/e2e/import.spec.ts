import { expect, signedInPage, test } from './support.ts';

const csv = (text: string) => ({ name: 'couriers.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

test('a courier CSV is previewed with each row judged; only a fully valid file imports', async ({ browser }) => {
  const page = await signedInPage(browser, 'carrier');
  await page.goto('/couriers');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog');
  const picker = dialog.locator('input[type="file"]');

  await picker.setInputFiles(
    csv('\uFEFFcode,phone\nNP-IMP1,+4511223344\nNP-IMP1,+4511223355\nx,12\n=cmd(),+4511223366\n'),
  );
  await expect(dialog.getByText('4 rows: 1 valid, 2 invalid, 1 repeated.')).toBeVisible();
  await expect(dialog.getByText('Repeats line 2')).toBeVisible();
  await expect(dialog.getByText(/may not start with =/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  await picker.setInputFiles(csv('phone\n+4511223344\n'));
  await expect(dialog.getByText(/missing required columns/)).toBeVisible();

  // A long file is previewed a page at a time; its last page holds what is left.
  const many = Array.from({ length: 40 }, (_, i) => `NP-PG${10 + i},+451122${3310 + i}`).join('\n');
  await picker.setInputFiles(csv(`code,phone\n${many}\n`));
  await expect(dialog.getByText('40 rows: 40 valid, 0 invalid, 0 repeated.')).toBeVisible();
  const preview = dialog.getByRole('table', { name: 'Rows to import' });
  await expect(preview.locator('tbody tr')).toHaveCount(25);
  await dialog.getByRole('button', { name: 'Go to next page' }).click();
  await expect(preview.locator('tbody tr')).toHaveCount(15);
  await expect(preview.getByRole('cell', { name: 'NP-PG49' })).toBeVisible();

  await picker.setInputFiles(csv('code,phone\n"NP-IMP2","+45 11 22 33 77"\n"NP-IMP3","+45 11 22 33 88"\n'));
  await expect(dialog.getByText('2 rows: 2 valid, 0 invalid, 0 repeated.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('2 rows imported')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('NP-IMP');
  await expect(page.locator('tbody tr')).toHaveCount(2);
});

test('in French, counts agree in number, rows keep their spreadsheet numbers and errors read as French', async ({
  browser,
}) => {
  const page = await signedInPage(browser, 'carrier', { locale: 'fr-FR' });
  await page.goto('/couriers');
  await page.getByRole('button', { name: 'Importer' }).click();
  const dialog = page.getByRole('dialog');
  // A blank row before the bad one: it keeps its line number 4, as in the spreadsheet.
  await dialog.locator('input[type="file"]').setInputFiles(csv('code,phone\nFR-IMP1,+4511223344\n,\nx,12\n'));
  await expect(dialog.getByText('2 lignes : 1 valide, 1 invalide, 0 répétée.')).toBeVisible();
  const preview = dialog.getByRole('table', { name: 'Lignes à importer' });
  await expect(preview.getByRole('columnheader', { name: 'Résultat' })).toBeVisible();
  const bad = preview.getByRole('row').filter({ hasText: /^4/ });
  await expect(bad).toContainText('Invalide : ');
  await expect(bad.getByRole('cell').first()).toHaveText('4');
});
