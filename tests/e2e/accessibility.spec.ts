import { type Page } from '@playwright/test';
import {
  DEMO_PASSWORD,
  expect,
  inSignInTurn,
  mailCount,
  nextCode,
  seriousViolations,
  settled,
  signedInPage,
  test,
} from './support.ts';

// Each journey signs in for itself and only reads (the keyboard one changes a courier's phone): the two workers
// share them, so that the longest file of the journeys does not hold one worker for nine minutes.
test.describe.configure({ mode: 'parallel' });

const screens = [
  '/service-points',
  '/service-point-groups',
  '/hardware',
  '/hardware/create',
  '/pinpad',
  '/pinpad/create',
  '/carriers',
  '/carriers/create',
  '/couriers',
  '/couriers/create',
  '/webtool-users',
  '/webtool-users/create',
  '/roles',
  '/profile',
  '/shipments',
  '/location-owners',
  '/hardware-owners',
  '/maintenance-providers',
  '/support-providers',
  '/hotline-providers',
  '/price-structure',
  '/invoicing-report',
  '/hardware-orders',
  '/production-orders',
  '/license',
  '/notifications',
  '/webhooks',
  '/test-app-users',
  '/locations',
  '/location-generator',
  '/logs',
  '/dashboard',
  '/debug',
  '/no-such-page',
];

/**
 * Opens `path` in the page: the app is loaded once (the page's first address), every later screen is
 * reached through the router, as a menu link does, without loading the app again. Waits for the
 * router to draw the screen (two frames after the navigation), then for its requests to end.
 */
async function open(page: Page, path: string) {
  if (page.url() === 'about:blank') {
    await page.goto(path);
  } else {
    await page.evaluate(async (target) => {
      window.history.pushState({}, '', target);
      window.dispatchEvent(new PopStateEvent('popstate'));
      for (let frame = 0; frame < 2; frame += 1) await new Promise((drawn) => requestAnimationFrame(drawn));
    }, path);
  }
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
}

// The screens in two halves, each its own journey, so that the two workers share them.
const halves = [screens.slice(0, screens.length / 2), screens.slice(screens.length / 2)];

/**
 * The axe rules left out of a language's sweeps. Colour contrast is the theme's, the same in both languages, and
 * most of axe's time (65-80 % of each analysis, about a second a screen): the French sweeps check what the language
 * changes (names, labels, the page's language, text that wraps) and leave contrast to the English ones.
 */
const violations = (page: Page, locale: string) =>
  seriousViolations(page, undefined, undefined, locale === 'en-US' ? [] : ['color-contrast']);

for (const locale of ['en-US', 'fr-FR']) {
  for (const [index, half] of halves.entries()) {
    test(`every screen has no serious or critical accessibility violation (${locale}, part ${index + 1} of 2)`, async ({
      browser,
    }) => {
      // Some seventeen screens, each analysed in full: more than the default minute on a busy machine.
      test.setTimeout(300_000);
      if (index === 0) {
        const context = await browser.newContext({ locale });
        const page = await context.newPage();
        for (const path of ['/login', '/forgot-password', '/help']) {
          await open(page, path);
          await expect(page.locator('main').first()).toBeVisible();
          await settled(page);
          expect(await violations(page, locale), path).toEqual([]);
        }
        await context.close();
      }
      // The signed-in screens reuse the operator's stored session: the sign-in has its own journeys.
      const signedIn = await signedInPage(browser, 'operator', { locale });
      for (const path of half) {
        const page = signedIn;
        await open(page, path);
        await expect(
          page.locator('[data-testid="not-found"], [data-testid="not-available"], .RaList-main, form, main').first(),
        ).toBeVisible();
        await settled(page);
        expect(await violations(page, locale), path).toEqual([]);
      }
      await signedIn.context().close();
    });
  }
}

/** The first record of a list, opened by its link: an edit page for the operator. */
async function openFirstRecord(page: Page, list: string) {
  await open(page, list);
  const link = page.locator('tbody tr').first().getByRole('link').first();
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.locator('form')).toBeVisible();
  await settled(page);
}

for (const locale of ['en-US', 'fr-FR']) {
  test(`edit pages, each tab of them, have no serious or critical accessibility violation (${locale})`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const page = await signedInPage(browser, 'operator', { locale });
    for (const list of ['/service-points', '/hardware', '/carriers', '/location-owners']) {
      await openFirstRecord(page, list);
      const tabs = page.locator('form [role="tab"]');
      const count = await tabs.count();
      expect(await violations(page, locale), list).toEqual([]);
      for (let index = 1; index < count; index += 1) {
        await tabs.nth(index).click();
        await settled(page);
        const tab = (await tabs.nth(index).textContent()) ?? String(index);
        expect(await violations(page, locale), `${list} ${tab}`).toEqual([]);
      }
    }
    await page.context().close();
  });
}

test('sign in, find a record, edit and save with the keyboard alone', async ({ page }) => {
  await inSignInTurn(page, async () => {
    await page.goto('/login');
    const seen = await mailCount(page.request, 'operator@demo.locker.test');
    // The form takes the focus once drawn; keys pressed before then are lost (the password went into the
    // username field on a busy machine).
    await expect(page.getByLabel('Username or email')).toBeFocused();
    await page.keyboard.type('operator');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    const code = await nextCode(page.request, 'operator@demo.locker.test', seen);
    await expect(page.getByLabel('Validation code')).toBeFocused();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await expect(page).not.toHaveURL(/\/login/);
  });

  await page.goto('/couriers');
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.focus();
  await page.keyboard.type('NO0001');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  const inTable = () => page.evaluate(() => document.activeElement?.closest('tbody a') !== null);
  for (let i = 0; i < 40 && !(await inTable()); i += 1) await page.keyboard.press('Tab');
  expect(await inTable()).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/couriers\/\d+$/);
  const phone = page.getByRole('textbox', { name: 'Phone' });
  // A number other than the one saved, so that the form has a change to save on a database used before.
  const typed = (await phone.inputValue()) === '+4799887766' ? '+4799887767' : '+4799887766';
  await phone.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(typed);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/couriers(\?.*)?$/);
});
