import type { Page, Request } from 'playwright-core';

/** The live updates' stream (Server-Sent Events): a signed-in page keeps it open for good. */
const LIVE_STREAM = /\/webtool\/stream(\?|$)/;

/**
 * Follows a page's requests from now on and returns `settled()`, which waits until no request of the
 * page but the live stream has run for half a second: what `waitForLoadState('networkidle')` did before
 * the live updates, whose stream never ends, so that Playwright's network idle never comes on a
 * signed-in page. The same wait as the journeys' `settled` (tests/e2e/support.ts). Call it before the
 * navigation whose requests it should wait for.
 */
export function followRequests(page: Page): { settled: (timeoutMs?: number) => Promise<void> } {
  const open = new Set<Request>();
  page.on('request', (request) => {
    if (!LIVE_STREAM.test(request.url())) open.add(request);
  });
  const done = (request: Request) => open.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async settled(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let quietSince = Date.now();
      while (Date.now() - quietSince < 500) {
        if (Date.now() > deadline) {
          throw new Error(
            `still loading after ${timeoutMs} ms: ${[...open].map((request) => request.url()).join(', ')}`,
          );
        }
        if (open.size) quietSince = Date.now();
        await page.waitForTimeout(100);
      }
    },
  };
}
