// Builds the app, finds a Chromium, starts the gateway on a fresh database and runs Playwright.
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { findChromium } from './find-chromium.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const run = (command, args, env = process.env) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

const chromium = findChromium();
console.log(`Chromium for the browser tests: ${chromium}`);
if (run(bin('vite'), ['build', '--logLevel', 'warn']) !== 0) process.exit(1);
const dataDir = '.tmp/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
process.exit(
  run(bin('playwright'), ['test', ...process.argv.slice(2)], {
    ...process.env,
    CHROMIUM_PATH: chromium,
    E2E_DATA_DIR: dataDir,
  }),
);
