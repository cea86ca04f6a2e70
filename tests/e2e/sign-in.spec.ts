import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, mailCount, nextCode, signIn } from './support.ts';

test('a super admin signs in with the emailed code, sees service points and signs out', async ({ page }) => {
  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, 'superadmin');
  await expect(page.getByTestId('not-available')).toContainText('Dashboard');
  await page.getByRole('menuitem', { name: 'Service points', exact: true }).click();
  await expect(page).toHaveURL(/\/service-points/);
  await expect(page.getByRole('columnheader', { name: 'SP ID' })).toBeVisible();
  // 2,400 seeded; the import journey may have added a few.
  await expect(page.getByText(/1-15 of 2[,.]?4\d\d/)).toBeVisible();

  await page.getByLabel('Search').fill('Kraków');
  await expect(page.locator('tbody tr').first()).toContainText('Kraków');

  await page.getByRole('button', { name: /Profile|superadmin@demo/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login/);
});

test('a wrong password is refused with the catalogue message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill('operator');
  await page.getByLabel('Password').fill('Wrong#Password1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Username or password incorrect.');
});

test('a wrong code is refused, the right one then signs in', async ({ page }) => {
  await page.goto('/login');
  const seen = await mailCount(page.request, 'carrier@demo.locker.test');
  await page.getByLabel('Username or email').fill('carrier@demo.locker.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = await nextCode(page.request, 'carrier@demo.locker.test', seen);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Validation code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid validation code.');
  await page.getByLabel('Validation code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByTestId('not-available')).toContainText('Dashboard');
});

test('the sign-in screen is in French when the browser asks for it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: "Connexion à l'outil web" })).toBeVisible();
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill('operator');
  await page.getByLabel('Mot de passe').fill('Wrong#Password1');
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText("Nom d'utilisateur ou mot de passe incorrect.");
  await expect(page.getByText(`© ${new Date().getFullYear()} Infinity Lockers`)).toBeVisible();
  await context.close();
});
