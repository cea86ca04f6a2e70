// A throw-away PostgreSQL server from Debian's packages: a data folder under the system temp
// directory, a loopback port, trust authentication, stopped (and its folder removed) by `stop()`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The bin folder of the newest installed server, or undefined. */
export function findPostgres() {
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const versions = readdirSync(DEBIAN_ROOT)
    .filter((name) => existsSync(path.join(DEBIAN_ROOT, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(DEBIAN_ROOT, versions[0], 'bin') : undefined;
}

/** PostgreSQL refuses to run as root: as root, the server runs as the `postgres` system user. */
function asServerUser(bin, args) {
  const command = path.join(bin, args[0]);
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', command, ...args.slice(1)]]
    : [command, args.slice(1)];
}

function run(bin, args) {
  const [command, rest] = asServerUser(bin, args);
  const result = spawnSync(command, rest, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
}

/**
 * Starts a server on `port` and answers its admin URL (user postgres, database postgres).
 * `settings` become `-c name=value` server options.
 */
export function startPostgres({ port, settings = {} }) {
  const bin = findPostgres();
  if (!bin) throw new Error(`No PostgreSQL server under ${DEBIAN_ROOT} (apt-get install postgresql).`);
  const folder = mkdtempSync(path.join(tmpdir(), 'webtool-pg-'));
  const dataDir = path.join(folder, 'data');
  if (process.getuid?.() === 0) {
    execFileSync('chown', ['postgres', folder]);
    chmodSync(folder, 0o700);
  }
  run(bin, ['initdb', '-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${folder}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  run(bin, ['pg_ctl', '-D', dataDir, '-o', options, '-l', path.join(folder, 'server.log'), '-w', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(bin, ['pg_ctl', '-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
