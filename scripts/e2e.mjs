// Builds the app and seeds a fresh database (scripts/journey-database.mjs), finds a Chromium, then runs
// Playwright, whose web server starts the gateway on that database. With E2E_PREPARED=1 (set by `npm test`,
// which made them before the unit tests) the build and the database are taken as they are.
import { spawnSync } from 'node:child_process';
import { findChromium } from './find-chromium.mjs';
import { journeyDataDir, prepareJourneys } from './journey-database.mjs';

const chromium = findChromium();
console.log(`Chromium for the browser tests: ${chromium}`);
if (process.env.E2E_PREPARED !== '1' && !(await prepareJourneys())) process.exit(1);
const { E2E_PREPARED: _prepared, ...env } = process.env;
process.exit(
  spawnSync('node_modules/.bin/playwright', ['test', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...env, CHROMIUM_PATH: chromium, E2E_DATA_DIR: journeyDataDir },
  }).status ?? 1,
);
