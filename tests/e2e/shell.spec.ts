import { DEMO_PASSWORD, expect, mailCount, nextCode, signedInPage, signIn, test } from './support.ts';

test('leaving unsaved work asks stay or leave; saving and deleting do not ask', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  await page.goto('/carriers');
  await page.getByRole('cell', { name: 'FjordFrakt' }).click();
  const radius = page.getByRole('spinbutton', { name: 'Service point radius (km)' });
  await radius.fill('6.5');

  await page.getByRole('menuitem', { name: 'Couriers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Stay' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(radius).toHaveValue('6.5');

  await page.getByRole('menuitem', { name: 'Couriers' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);

  await page.goto('/carriers');
  await page.getByRole('cell', { name: 'FjordFrakt' }).click();
  await radius.fill('7');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Short Lived Carrier');
  await page.getByRole('combobox', { name: 'Primary country' }).click();
  await page.getByRole('option', { name: 'Norway' }).click();
  await page.getByRole('spinbutton', { name: 'Service point radius (km)' }).fill('3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await page.getByRole('cell', { name: 'Short Lived Carrier' }).click();
  await radius.fill('4');
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/carriers(\?.*)?$/);
  await expect(page.getByRole('dialog', { name: 'Unsaved changes' })).toBeHidden();
});

test('the last super admin cannot be deleted; a new webtool user gets a login e-mail', async ({ browser }) => {
  const page = await signedInPage(browser, 'operator');
  // The demo has more users than a page holds (every partner's administrator): find them by name.
  const findUser = async (username: string) => {
    await page.goto('/webtool-users');
    await page.getByRole('textbox', { name: 'Search' }).fill(username);
    await expect(page.getByRole('cell', { name: username, exact: true })).toBeVisible();
  };
  await findUser('superadmin');
  await page.getByRole('cell', { name: 'superadmin', exact: true }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Cannot delete this user; there must be one Super Admin.')).toBeVisible();
  await findUser('superadmin');
  await page.goto('/webtool-users');

  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Nora Field');
  await page.getByRole('textbox', { name: 'E-mail' }).fill('nora.field@demo.locker.test');
  await page.getByRole('combobox', { name: 'Role' }).fill('operator_infinity_admin');
  await page.getByRole('option', { name: 'operator_infinity_admin' }).click();
  const since = Date.now();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/webtool-users(\?.*)?$/);
  const outbox = (await (await page.request.get('/__dev/outbox')).json()) as {
    to: string;
    sentAt: string;
    subject: string;
  }[];
  expect(outbox.some((m) => m.to === 'nora.field@demo.locker.test' && Date.parse(m.sentAt) >= since - 1000)).toBe(true);

  await page.getByRole('link', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Nora Again');
  await page.getByRole('textbox', { name: 'E-mail' }).fill('NORA.FIELD@demo.locker.test');
  await page.getByRole('combobox', { name: 'Role' }).fill('operator_infinity_admin');
  await page.getByRole('option', { name: 'operator_infinity_admin' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('This email is already registered.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Nora Again');

  await findUser('carrier2');
  await page.getByRole('cell', { name: 'carrier2', exact: true }).click();
  await page.getByRole('button', { name: 'Disable' }).click();
  const disabledToast = page.getByText('The user is disabled.');
  await expect(disabledToast).toBeVisible();
  await expect(disabledToast).toBeHidden({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('The user is enabled.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();
});

test('forgot password, then change it back on the profile page', async ({ page }) => {
  const email = 'analyst@demo.locker.test';
  const newPassword = 'Fresh#Start2026';
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Username or email').fill('analyst');
  const seen = await mailCount(page.request, email);
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page).toHaveURL(/\/confirm-password\?username=analyst/);
  const code = await nextCode(page.request, email, seen);
  await page.getByLabel('Reset code').fill(code);
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel('Confirm new password').fill('Fresh#Start2025');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Confirm password does not match.');
  await page.getByLabel(/^New password/).fill('short');
  await page.getByLabel('Confirm new password').fill('short');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password constraints are not met.');
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, 'analyst', newPassword);
  await expect(page).toHaveURL(/\/shipments$/);
  await page.goto('/profile');
  await page.getByLabel('Current password').fill(newPassword);
  await page.getByLabel(/^New password/).fill(DEMO_PASSWORD);
  await page.getByLabel('Confirm new password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveValue('');

  await page.getByLabel('Current password').fill('Wrong#Password1');
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Old password is incorrect.' })).toBeVisible();
});

test('signing in works in French, with the French menu', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await signIn(page, 'carrier');
  await expect(page.getByRole('menuitem', { name: 'Coursiers' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Coursiers' }).click();
  await expect(page.getByRole('columnheader', { name: 'Code coursier' })).toBeVisible();
  // A carrier sees its own couriers only: NordPost's, none of the other carriers'.
  await expect(page.locator('tbody tr').first()).toContainText('NordPost');
  await expect(page.locator('tbody tr').filter({ hasNotText: 'NordPost' })).toHaveCount(0);

  await page.getByRole('link', { name: 'Créer' }).click();
  await page.getByRole('textbox', { name: 'Code coursier' }).fill('x');
  await page.getByRole('textbox', { name: 'Téléphone' }).fill('12-34');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Doit contenir au moins 2 caractères')).toBeVisible();
  await expect(page.getByText('Saisissez un numéro de 7 à 15 chiffres, éventuellement précédé de +')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Code coursier' })).toHaveValue('x');

  // French typography: a space before the colon.
  await page.goto('/profile');
  await expect(page.getByText('Rôle : Administrateur de NordPost (carrier_1_admin)')).toBeVisible();
  await expect(page.getByText('Partenaire : NordPost')).toBeVisible();

  // Lookup lists come from the gateway in English; the French screen names them in French.
  await page.goto('/service-points');
  // One of the columns a person chooses (issue 24).
  await page.getByRole('button', { name: 'Colonnes' }).click();
  await page.getByRole('menu').getByRole('checkbox', { name: "Type d'emplacement" }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: "Type d'emplacement" })).toBeVisible();
  // Other journeys may have imported points without a location type, so look past the first rows.
  await expect(
    page
      .locator('tbody tr')
      .filter({
        hasText: /Supermarché|Kiosque|Station-service|Centre commercial|Gare ferroviaire|Bibliothèque|Pharmacie/,
      })
      .first(),
  ).toBeVisible();
  await context.close();
});

test('the password screens speak French too', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
  await expect(page.getByRole('heading', { name: 'Réinitialiser votre mot de passe' })).toBeVisible();
  await page.getByRole('button', { name: 'Envoyer le code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Ce champ est obligatoire');
  await page.goto('/confirm-password?username=analyst');
  await page.getByLabel('Code de réinitialisation').fill('123456');
  await page.getByLabel(/^Nouveau mot de passe/).fill('Fresh#Start2026');
  await page.getByLabel(/^Confirmer le nouveau mot de passe/).fill('Fresh#Start2025');
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(page.getByRole('alert')).toHaveText('La confirmation du mot de passe ne correspond pas.');
  await page.getByLabel(/^Confirmer le nouveau mot de passe/).fill('Fresh#Start2026');
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(page.getByRole('alert')).toHaveText('Code de validation invalide.');
  await context.close();
});
