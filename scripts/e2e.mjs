// Builds the app, finds a Chromium, seeds a fresh database, then runs Playwright, whose web server
// starts the gateway on it.
import { mkdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { findChromium } from './find-chromium.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const run = (command, args, env = process.env) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;

const chromium = findChromium();
console.log(`Chromium for the browser tests: ${chromium}`);
if (run(bin('vite'), ['build', '--logLevel', 'warn']) !== 0) process.exit(1);
const dataDir = '.tmp/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
// PGlite makes the data folder but not its parent: a fresh clone has no .tmp yet.
mkdirSync('.tmp', { recursive: true });
// The demo seed is made here, timed, rather than by the gateway under Playwright's web server
// timeout: on a busy machine it takes minutes (about 60 s idle), which is not a failed start.
const seedStarted = Date.now();
const seedEnv = { ...process.env, DATA_DIR: dataDir, WEBTOOL_LOCAL: 'true', LOG_LEVEL: 'warn' };
delete seedEnv.DATABASE_URL;
if (run('node', ['--import', 'tsx', 'server/seed/cli.ts'], seedEnv) !== 0) process.exit(1);
console.log(`Demo database for the journeys seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
process.exit(
  run(bin('playwright'), ['test', ...process.argv.slice(2)], {
    ...process.env,
    CHROMIUM_PATH: chromium,
    E2E_DATA_DIR: dataDir,
  }),
);
