import { type Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, followRequests, mailCount, nextCode, requestsEnded, signIn, test } from './support.ts';

test('a super admin signs in with the emailed code, sees service points and signs out', async ({ page }) => {
  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login/);

  // Notes whether the password field shows again once the code is accepted (it used to flash empty).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const accepted = sessionStorage.getItem('code.accepted') === 'yes';
      if (accepted && document.querySelector('input[autocomplete="current-password"]')) {
        sessionStorage.setItem('seen.sign_in_again', 'yes');
      }
      if (document.querySelector('input[autocomplete="one-time-code"]')) sessionStorage.setItem('code.accepted', 'yes');
    }).observe(document, { childList: true, subtree: true });
  });
  await signIn(page, 'superadmin');
  // The day starts on the dashboard (permission 177, spec 01 §2.3).
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('not-available')).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('seen.sign_in_again'))).toBeNull();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.locator('#react-admin-title')).toHaveText('Dashboard');
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

test('the sign-in screen loads no admin code; a signed-in user who reloads never sees it', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const adminChunks = () => scripts.filter((script) => /\/assets\/(admin|schema-pages)-/.test(script));
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(adminChunks()).toEqual([]);

  await signIn(page, 'operator', DEMO_PASSWORD, false);
  await page.goto('/service-points');
  await expect(page.getByRole('columnheader', { name: 'SP ID' })).toBeVisible();
  // The same names, once signed in: the pattern above does match the admin's chunks.
  expect(adminChunks().length).toBeGreaterThan(0);

  // Notes whether the password field of the sign-in screen is ever on the page during the reload.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.querySelector('input[autocomplete="current-password"]')) localStorage.setItem('seen.sign_in', 'yes');
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'SP ID' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('seen.sign_in'))).toBeNull();
  await expect(page).toHaveURL(/\/service-points$/);
});

test('a wrong password is refused with the catalogue message; a blank one is not sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill('operator');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('This field is required')).toHaveCount(1);
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveCount(0);
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
  // A carrier's day starts on its dashboard (permission 177), not on a "not available" page.
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the sign-in screen is in French when the browser asks for it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: "Connexion à l'outil web" })).toBeVisible();
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page.getByText('Ce champ est obligatoire')).toHaveCount(2);
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill('operator');
  await page.getByLabel('Mot de passe').fill('Wrong#Password1');
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText("Nom d'utilisateur ou mot de passe incorrect.");
  await expect(page.getByText(`© ${new Date().getFullYear()} Infinity Lockers`)).toBeVisible();
  await context.close();
});

/**
 * Every distinct message (toast or inline alert) on screen while `ms` pass on the page's clock, which the journey
 * installed (`page.clock.install`) before the page loaded: a toast queued behind another shows only when the first
 * has gone, so one look at one moment would miss it. The clock is moved on half a second at a time, and each step
 * waits for the requests its timers started (the token check) to end, so the page shows what `ms` of real time
 * would show without the journey waiting them out.
 */
async function messagesSeenDuring(page: Page, ms: number): Promise<string[]> {
  const seen = new Set<string>();
  for (let passed = 0; passed <= ms; passed += 500) {
    await requestsEnded(page);
    for (const text of await page.getByRole('alert').allTextContents()) seen.add(text);
    await page.clock.runFor(500);
  }
  return [...seen];
}

/** Longer than a toast (6 s) and than the 2 s token check: whatever follows would show by then. */
const TOAST_AND_CHECK_MS = 8000;

test('a first visit goes to the sign-in screen without any error', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  followRequests(page);
  await page.clock.install();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await messagesSeenDuring(page, TOAST_AND_CHECK_MS)).toEqual([]);

  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fservice-points$/);
  expect(await messagesSeenDuring(page, TOAST_AND_CHECK_MS)).toEqual([]);
  await context.close();
});

test('a session that ends while the app is open says so once', async ({ page }) => {
  await page.clock.install();
  await signIn(page, 'analyst');
  await expect(page.getByRole('menuitem', { name: 'Service points', exact: true })).toBeVisible();
  // The refresh token is revoked elsewhere, then the hour of the id token passes.
  const accessToken = await page.evaluate(() => localStorage.getItem('wt.access_token'));
  const signedOut = await page.request.post('/__identity/cognito-idp', {
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.GlobalSignOut',
    },
    data: JSON.stringify({ AccessToken: accessToken }),
  });
  expect(signedOut.status()).toBe(200);
  await page.clock.fastForward('01:00:00');

  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('alert')).toHaveText('Token is expired and need to login again.');
  // The page's clock is fake: the toast's own time-out runs only as the clock is moved on.
  const seen = new Set<string>();
  for (let second = 0; second < 10; second++) {
    for (const text of await page.getByRole('alert').allTextContents()) seen.add(text);
    await page.clock.runFor(1000);
  }
  expect([...seen]).toEqual(['Token is expired and need to login again.']);
});

test('coming back after the session expired says so once on the sign-in screen', async ({ page }) => {
  followRequests(page);
  await page.clock.install();
  await signIn(page, 'analyst');
  await expect(page.getByRole('menuitem', { name: 'Service points', exact: true })).toBeVisible();
  // What Amplify leaves after a refresh the identity service refused: its tokens gone, ours not.
  // Done on the public help page, where no session check runs that would notice it first.
  await page.goto('/help');
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('CognitoIdentityServiceProvider.')) localStorage.removeItem(key);
    }
  });
  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fservice-points$/);
  expect(await messagesSeenDuring(page, TOAST_AND_CHECK_MS)).toEqual(['Login is expired.']);

  // Said once: the next visit is a plain one.
  await page.goto('/service-points');
  await expect(page).toHaveURL(/\/login/);
  expect(await messagesSeenDuring(page, TOAST_AND_CHECK_MS)).toEqual([]);
});

test('wrong passwords lock the user out for a while, even the right one, as Cognito does', async ({ page }) => {
  // Each try from a fresh screen, so that each refusal is its own message.
  for (let attempt = 1; attempt <= 4; attempt++) {
    await page.goto('/login');
    await page.getByLabel('Username or email').fill('support');
    await page.getByLabel('Password').fill('Wrong#Password1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Username or password incorrect.');
  }
  await page.goto('/login');
  await page.getByLabel('Username or email').fill('support');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Attempt limit exceeded, please try after some time.');

  // The first lockout is 15 s; then the right password signs in, and clears the count.
  await page.waitForTimeout(15_000);
  await signIn(page, 'support');
});

test('wrong codes block the account: the code form waits with the time left, then the sign-in goes on', async ({
  page,
}) => {
  // The block lasts the catalogue's 2 minutes, on the identity service's clock. The journey does
  // not wait them out: the browser's clock is moved on and the stand-in ends the block (local only).
  followRequests(page);
  await page.clock.install();
  const email = 'locationowner@demo.locker.test';
  await page.goto('/login');
  const seen = await mailCount(page.request, email);
  await page.getByLabel('Username or email').fill('locationowner');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const code = await nextCode(page.request, email, seen);
  const wrong = code === '000000' ? '111111' : '000000';
  const codeField = page.getByLabel('Validation code');
  for (let attempt = 1; attempt <= 2; attempt++) {
    await codeField.fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    // A refused code is cleared from the field.
    await expect(codeField).toHaveValue('');
    await expect(page.getByRole('alert')).toHaveText('Invalid validation code.');
  }
  await codeField.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('Account is blocked for 2 minutes.');
  await expect(page.getByText(/^You can try again in (2:00|1:5\d)\.$/)).toBeVisible();
  await expect(codeField).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Verify' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send a new code' })).toBeDisabled();
  // The count goes down on the page's clock, moved on rather than waited out.
  await page.clock.runFor(11_000);
  await expect(page.getByText(/^You can try again in 1:[0-4]\d\.$/)).toBeVisible();
  expect(await messagesSeenDuring(page, TOAST_AND_CHECK_MS)).toEqual(['Account is blocked for 2 minutes.']);

  const ended = await page.request.post('/__dev/identity/end-block', { data: { username: 'locationowner' } });
  expect(ended.status()).toBe(204);
  await page.clock.fastForward('02:00');
  await expect(page.getByText('You can go on: ask for a new code.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(codeField).toBeEnabled();
  const resent = await mailCount(page.request, email);
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(page.getByText('A new validation code has been sent.')).toBeVisible();
  await codeField.fill(await nextCode(page.request, email, resent));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByText('Login is expired.')).toHaveCount(0);
});
