// The journeys' app build and demo database, made once: `npm test` makes them before the unit and server
// tests (the seed-validity test reads a copy of that database instead of seeding the demo a second time,
// which took a test worker 230 s), and scripts/e2e.mjs makes them itself when run alone.
import { mkdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The folder of the journeys' PGlite database: seeded with the demo, then used by the journeys' gateway. */
export const journeyDataDir = '.tmp/e2e-data';

/** Runs a command to its end: its exit status and the seconds it took. */
const timed = (command, args, env = process.env) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: 'inherit', env });
    const done = (status) => resolve({ status, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    child.once('error', () => done(1));
    child.once('exit', (code) => done(code ?? 1));
  });

/**
 * Builds the app, then seeds a fresh demo database in journeyDataDir; true when both worked. The seed is made
 * here, timed, rather than by the gateway under Playwright's web server timeout: on a busy machine it takes
 * minutes (about 60 s idle), which is not a failed start. The build first, then the seed: side by side they
 * took longer on two cores (162.8 s against 117 s).
 */
export async function prepareJourneys() {
  rmSync(journeyDataDir, { recursive: true, force: true });
  // PGlite makes the data folder but not its parent: a fresh clone has no .tmp yet.
  mkdirSync('.tmp', { recursive: true });
  const seedEnv = { ...process.env, DATA_DIR: journeyDataDir, WEBTOOL_LOCAL: 'true', LOG_LEVEL: 'warn' };
  delete seedEnv.DATABASE_URL;
  const build = await timed('node_modules/.bin/vite', ['build', '--logLevel', 'warn']);
  const seed = build.status === 0 ? await timed('node', ['--import', 'tsx', 'server/seed/cli.ts'], seedEnv) : build;
  console.log(`App built in ${build.seconds} s; demo database for the journeys seeded in ${seed.seconds} s`);
  return build.status === 0 && seed.status === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit((await prepareJourneys()) ? 0 : 1);
}
