// Finds a Chromium for the browser tests: CHROMIUM_PATH, Playwright's own build if installed,
// Debian's headless shell, Debian's /usr/bin/chromium, else installs Debian's `chromium` with its
// headless shell when running as root.
//
// The headless shell (`chromium-headless-shell`, built from the same Chromium source) is what
// Playwright itself runs for headless tests: the browser without its windowing layer. The journeys'
// time is mostly Chromium drawing the app, and the same accessibility journeys took about a tenth less
// in it (244 s against 270 s of journey time, 2 cores).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { installDebianPackage } from './debian-package.mjs';

function playwrightOwnBuild() {
  try {
    const path = createRequire(import.meta.url)('playwright-core').chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  const own = playwrightOwnBuild();
  if (own) return own;
  const candidates = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) {
    if (existsSync(candidate)) return candidate;
  }
  if (installDebianPackage('chromium', 'chromium-headless-shell')) {
    const installed = candidates.find((candidate) => existsSync(candidate));
    if (installed) return installed;
  }
  throw new Error(
    'No Chromium for the browser tests: install one (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(findChromium());
