import { type Page, type Request } from '@playwright/test';
import { DEMO_PASSWORD, expect, test } from './support.ts';

const JWT = '[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+';

/** From the login page through the corporate directory's sign-in form, back to /callback. */
async function ssoSignIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await expect(page).toHaveURL(/\/__identity\/oauth2\/authorize\?/);
  await expect(page.getByRole('heading', { name: 'Corporate directory' })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const sessionTokens = (page: Page) =>
  page.evaluate(() => ({
    id: localStorage.getItem('wt.id_token'),
    access: localStorage.getItem('wt.access_token'),
    refresh: localStorage.getItem('wt.refresh_token'),
    sso: localStorage.getItem('wt.sso'),
  }));

test('sso.carrier signs in with single sign-on, lists couriers through unsigned calls and signs out', async ({
  page,
}) => {
  const webtoolCalls: Request[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    // The live updates' stream (a documented extension) accepts text/event-stream; the contract's calls are checked.
    if (path.startsWith('/webtool/') && path !== '/webtool/stream') webtoolCalls.push(request);
  });

  await page.goto('/couriers');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fcouriers/);
  await ssoSignIn(page, 'sso.carrier');

  // Back on /callback, the group check passes and the app opens the address asked for first.
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);
  await expect(page.locator('.RaList-main')).toBeVisible();
  await expect(page.locator('tbody tr').first()).toBeVisible();

  const tokens = await sessionTokens(page);
  expect(tokens.sso).toBe('1');
  expect(tokens.refresh).toBeTruthy();
  const courierCalls = webtoolCalls.filter((request) => request.url().includes('/webtool/couriers'));
  expect(courierCalls.length).toBeGreaterThan(0);
  expect(webtoolCalls.some((request) => request.url().includes('/webtool/identity_access/nav_drawer'))).toBe(true);
  for (const request of webtoolCalls) {
    const headers = await request.allHeaders();
    // Single sign-on: no SigV4, `Authorization: <access token>,<id token>` (spec 01 §7, ARCHITECTURE.md).
    expect(headers.authorization).toMatch(new RegExp(`^${JWT},${JWT}$`));
    expect(headers.authorization).toBe(`${tokens.access},${tokens.id}`);
    expect(headers['x-auth-token']).toBe(tokens.id);
    expect(headers['x-amz-date']).toBeUndefined();
    expect(headers.accept).toBe('application/x-www-form-urlencoded');
    if (request.method() !== 'GET') expect(headers['content-type']).toBe('application/json');
  }

  // A reload keeps the single-sign-on session.
  await page.reload();
  await expect(page.locator('.RaList-main')).toBeVisible();
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);

  // Signing out goes through the provider's logout endpoint, back to /callback.
  const logout = page.waitForRequest((request) => new URL(request.url()).pathname === '/__identity/logout');
  await page.getByRole('button', { name: /Profile|sso\.carrier@demo/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  const logoutUrl = new URL((await logout).url());
  expect(logoutUrl.searchParams.get('logout_uri')).toBe(new URL('/callback', page.url()).toString());
  await expect(page).toHaveURL(/\/callback$/);
  await expect(page.getByRole('status')).toHaveText('You have been signed out of single sign-on.');
  await expect.poll(() => sessionTokens(page)).toEqual({ id: null, access: null, refresh: null, sso: null });

  // The refresh token of that sign-in no longer works.
  const refreshed = await page.request.post('/__identity/oauth2/token', {
    form: { grant_type: 'refresh_token', client_id: 'localwebtoolclient', refresh_token: tokens.refresh! },
  });
  expect(refreshed.status()).toBe(400);
  expect((await refreshed.json()).error).toBe('invalid_grant');

  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/couriers');
  await expect(page).toHaveURL(/\/login/);
});

for (const [username, message] of [
  ['sso.nogroup', 'Single sign-on failed: your account has no group. Please contact your administrator.'],
  [
    'sso.mismatch',
    "Single sign-on failed: your account's group does not match your organisation. Please contact your administrator.",
  ],
]) {
  test(`${username} is refused after single sign-on and stays signed out`, async ({ page }) => {
    const webtoolCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/webtool/')) webtoolCalls.push(request.url());
    });
    await page.goto('/login');
    const logout = page.waitForRequest((request) => new URL(request.url()).pathname === '/__identity/logout');
    await ssoSignIn(page, username);
    await logout;
    await expect(page).toHaveURL(/\/callback$/);
    await expect(page.getByRole('alert')).toHaveText(message);
    await expect.poll(() => sessionTokens(page)).toEqual({ id: null, access: null, refresh: null, sso: null });
    // Never entered the app: no webtool call was made.
    expect(webtoolCalls).toEqual([]);

    await page.goto('/couriers');
    await expect(page).toHaveURL(/\/login/);
    // The notice is shown once.
    await page.goto('/callback');
    await expect(page.getByRole('status')).toHaveText('You have been signed out of single sign-on.');
  });
}

test('the corporate directory refuses a wrong password and keeps the user on its form', async ({ page }) => {
  await page.goto('/login');
  await ssoSignIn(page, 'sso.carrier', 'Wrong#Password1');
  await expect(page).toHaveURL(/\/__identity\/oauth2\/authorize/);
  await expect(page.getByRole('alert')).toHaveText('Incorrect username or password.');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in: the carrier's home is the dashboard at /.
  await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
});

test('a forged callback is refused and nothing is stored', async ({ page }) => {
  await page.goto('/callback?code=forged&state=forged');
  await expect(page.getByRole('alert')).toHaveText('Single sign-on failed. Please try again.');
  await expect.poll(() => sessionTokens(page)).toEqual({ id: null, access: null, refresh: null, sso: null });
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the sign-on option is offered in French too', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: "Se connecter avec l'authentification unique" })).toBeVisible();
  await context.close();
});
