// Builds the app, then seeds a fresh database, finds a Chromium, then runs Playwright, whose web
// server starts the gateway on that database.
import { mkdirSync, rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { findChromium } from './find-chromium.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const run = (command, args, env = process.env) => spawnSync(command, args, { stdio: 'inherit', env }).status ?? 1;
/** The same as run, without waiting: resolves to the exit status and the seconds it took. */
const start = (command, args, env = process.env) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: 'inherit', env });
    const done = (status) => resolve({ status, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    child.once('error', () => done(1));
    child.once('exit', (code) => done(code ?? 1));
  });

const chromium = findChromium();
console.log(`Chromium for the browser tests: ${chromium}`);
const dataDir = '.tmp/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
// PGlite makes the data folder but not its parent: a fresh clone has no .tmp yet.
mkdirSync('.tmp', { recursive: true });
// The demo seed is made here, timed, rather than by the gateway under Playwright's web server
// timeout: on a busy machine it takes minutes (about 60 s idle), which is not a failed start. The
// build first, then the seed: side by side they took longer on two cores (162.8 s against 117 s).
const seedEnv = { ...process.env, DATA_DIR: dataDir, WEBTOOL_LOCAL: 'true', LOG_LEVEL: 'warn' };
delete seedEnv.DATABASE_URL;
const build = await start(bin('vite'), ['build', '--logLevel', 'warn']);
const seed = build.status === 0 ? await start('node', ['--import', 'tsx', 'server/seed/cli.ts'], seedEnv) : build;
console.log(`App built in ${build.seconds} s; demo database for the journeys seeded in ${seed.seconds} s`);
if (build.status !== 0 || seed.status !== 0) process.exit(1);
process.exit(
  run(bin('playwright'), ['test', ...process.argv.slice(2)], {
    ...process.env,
    CHROMIUM_PATH: chromium,
    E2E_DATA_DIR: dataDir,
  }),
);
