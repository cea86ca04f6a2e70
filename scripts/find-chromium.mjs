// Finds a Chromium for the browser tests: CHROMIUM_PATH, Playwright's own build if installed,
// Debian's /usr/bin/chromium, else installs Debian's package when running as root.
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
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(candidate)) return candidate;
  }
  if (installDebianPackage('chromium') && existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error(
    'No Chromium for the browser tests: install one (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(findChromium());
