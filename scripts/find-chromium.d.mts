/** A Chromium for the browser tests and the bench: CHROMIUM_PATH, Playwright's own, Debian's. */
export function findChromium(): string;
