import { mkdirSync, rmSync, statSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  test as base,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
} from '@playwright/test';

export const DEMO_PASSWORD = 'Demo#Locker2026';

/**
 * The journeys' `test`: Playwright closes the page and context it hands a test, not the contexts a test opens from
 * `browser` itself (`signedInPage`, a second user, a French browser). Those stayed open for the rest of the worker's
 * life, dozens by its end, each page with its live stream, its session check every 2 s and whatever it was showing,
 * and Chromium drew them all beside the journey running. Every context a test opened is closed when it ends.
 */
export const test = base.extend<{ ownContextsClosed: void }>({
  ownContextsClosed: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close().catch(() => undefined)));
    },
    { auto: true },
  ],
});

export { expect };

/** The live updates' stream (`GET webtool/stream`): open for as long as a signed-in page lists or edits records. */
const LIVE_STREAM = /\/webtool\/stream(\?|$)/;
const openRequests = new WeakMap<Page, Set<Request>>();

/** Follows a page's requests from now on, for `settled` (signedInPage does it for its pages). */
export function followRequests(page: Page) {
  if (openRequests.has(page)) return;
  const open = new Set<Request>();
  openRequests.set(page, open);
  page.on('request', (request) => {
    if (!LIVE_STREAM.test(request.url())) open.add(request);
  });
  const done = (request: Request) => open.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Waits until every request the page has started (but the live stream) has ended, then lets the page draw what they
 * brought: for a journey on the page's fake clock (`page.clock.install`), where `settled`'s half second of quiet is
 * real time the page's timers do not see.
 */
export async function requestsEnded(page: Page, timeoutMs = 30_000) {
  followRequests(page);
  const open = openRequests.get(page)!;
  await expect.poll(() => open.size, { timeout: timeoutMs, intervals: [25] }).toBe(0);
  // React renders on a message channel, which the fake clock leaves alone: one real moment is enough.
  await page.waitForTimeout(50);
}

/**
 * Waits until no request of the page but the live stream has run for half a second: what
 * `waitForLoadState('networkidle')` did before the live updates, whose stream never ends (a signed-in list
 * keeps it open), so that Playwright's network idle never comes. Unlike it, this also waits after an
 * in-app navigation.
 */
export async function settled(page: Page, timeoutMs = 30_000) {
  followRequests(page);
  const open = openRequests.get(page)!;
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500) {
    if (Date.now() > deadline) {
      throw new Error(`still loading after ${timeoutMs} ms: ${[...open].map((request) => request.url()).join(', ')}`);
    }
    if (open.size) quietSince = Date.now();
    await page.waitForTimeout(100);
  }
}

interface OutboxMessage {
  to: string;
  subject: string;
  body: string;
  code?: string;
  sentAt: string;
}

/** How many e-mails `to` has received so far (the identity stand-in's local outbox). */
export async function mailCount(request: APIRequestContext, to: string): Promise<number> {
  const outbox = (await (await request.get('/__dev/outbox')).json()) as OutboxMessage[];
  return outbox.filter((m) => m.to === to).length;
}

/** The code of the first e-mail `to` receives after the `seen` ones. */
export async function nextCode(request: APIRequestContext, to: string, seen: number): Promise<string> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await request.get('/__dev/outbox')).json()) as OutboxMessage[];
      found = outbox.filter((m) => m.to === to)[seen];
      return Boolean(found?.code);
    })
    .toBe(true);
  return found!.code!;
}

const SIGN_IN_TURN = '.tmp/e2e-sign-in-turn';
/** A turn left by a worker that was killed mid-sign-in is taken over after this long. */
const SIGN_IN_TURN_STALE_MS = 90_000;

/**
 * Runs `signInSteps` while no other worker signs in through the form. A sign-in reads the code of the next e-mail
 * its user receives: two workers signing in as the same user at once would read each other's code (a wrong code,
 * three of which block the account). The turn is a folder, made by one worker at a time (mkdir fails if it exists).
 */
export async function inSignInTurn<T>(page: Page, signInSteps: () => Promise<T>): Promise<T> {
  mkdirSync('.tmp', { recursive: true });
  for (;;) {
    try {
      mkdirSync(SIGN_IN_TURN);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(SIGN_IN_TURN).mtimeMs > SIGN_IN_TURN_STALE_MS)
          rmSync(SIGN_IN_TURN, { force: true, recursive: true });
      } catch {
        // Released meanwhile: try again at once.
      }
      await page.waitForTimeout(100);
    }
  }
  try {
    return await signInSteps();
  } finally {
    rmSync(SIGN_IN_TURN, { force: true, recursive: true });
  }
}

/** Signs in through the UI; `fromLogin` false stays on the current /login?returnUrl=... page. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD, fromLogin = true) {
  await inSignInTurn(page, () => signInSteps(page, username, password, fromLogin));
}

async function signInSteps(page: Page, username: string, password: string, fromLogin: boolean) {
  if (fromLogin) await page.goto('/login');
  const email = username.includes('@') ? username : `${username}@demo.locker.test`;
  const seen = await mailCount(page.request, email);
  await page.getByLabel(/Username or email|Nom d'utilisateur/).fill(username);
  await page.getByLabel(/^Password|^Mot de passe/).fill(password);
  await page.getByRole('button', { name: /^(Sign in|Se connecter)$/ }).click();
  const code = await nextCode(page.request, email, seen);
  await page.getByLabel(/Validation code|Code de validation/).fill(code);
  await page.getByRole('button', { name: /Verify|Vérifier/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
const signedInStates = new Map<string, StorageState>();

/**
 * A new page already signed in as `username`: the first call of a worker signs in through the UI
 * (the emailed code included), later ones reuse the stored session (the tokens live in local
 * storage, as Amplify keeps them), so that a file of journeys does not sign in for every test.
 */
export async function signedInPage(browser: Browser, username: string, options: BrowserContextOptions = {}) {
  let state = signedInStates.get(username);
  if (!state) {
    const context = await browser.newContext();
    await signIn(await context.newPage(), username);
    state = await context.storageState();
    signedInStates.set(username, state);
    await context.close();
  }
  const context = await browser.newContext({ ...options, storageState: state });
  const page = await context.newPage();
  followRequests(page);
  return page;
}

/**
 * Starts a record action of a page head: its button when it fits on the line, else its item of the
 * head's More menu, where the actions that do not fit are folded (issue 24).
 */
export async function startRecordAction(page: Page, name: string) {
  const inline = page.getByRole('button', { name, exact: true });
  const more = page.getByRole('button', { name: 'More', exact: true });
  const item = page.getByRole('menuitem', { name, exact: true });
  // The head draws its inline actions and its More menu together, once it has measured them; it measures
  // again when its line narrows or widens as the page settles (the title, a scrollbar), so an action seen
  // inline may have moved into the menu by the time it is clicked: look again until one click lands.
  await expect(inline.or(more).first()).toBeVisible();
  await expect(async () => {
    if (await item.isVisible()) return item.click({ timeout: 2_000 });
    if (await page.getByRole('menu').isVisible()) await page.keyboard.press('Escape');
    if (await inline.isVisible()) return inline.click({ timeout: 2_000 });
    await more.click({ timeout: 2_000 });
    await item.click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The serious and critical accessibility violations (axe) of the page, each as `rule: targets`;
 * `within` limits the check to a part of the page, `without` leaves one out of it, `skipRules` names axe
 * rules not run.
 */
export async function seriousViolations(
  page: Page,
  within?: string,
  without?: string,
  skipRules: readonly string[] = [],
): Promise<string[]> {
  // Only the violations are gathered (axe's `resultTypes` option): axe then keeps one node of each passed or
  // inapplicable rule instead of every node it looked at, about a tenth of the sweeps' time here.
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (skipRules.length) builder = builder.disableRules([...skipRules]);
  if (within) builder = builder.include(within);
  if (without) builder = builder.exclude(without);
  const { violations } = await builder.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Every request of the page, from now on, that leaves the app's own `origin` (the maps call no outside host). */
export function outsideRequests(page: Page, origin: string): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  return outside;
}
