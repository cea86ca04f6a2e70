// A throw-away PostgreSQL server for the tests: Debian's server binaries (installed as root when
// missing), a data folder under the system temp directory, a free loopback port, settings that
// trade durability for speed, and stop() / remove() to end it.
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installDebianPackage, runsAsRoot } from './debian-package.mjs';

const SERVER_BINARIES = ['initdb', 'pg_ctl', 'postgres'];
/** initdb and postgres refuse to run as root; Debian's package creates this user. */
const SERVER_USER = 'postgres';

/** The newest `<root>/<version>/bin` that holds initdb, pg_ctl and postgres, if any. */
export function postgresBinDir(root = '/usr/lib/postgresql') {
  const configured = process.env.POSTGRES_BIN_DIR;
  const candidates = configured
    ? [configured]
    : (existsSync(root) ? readdirSync(root) : [])
        .filter((version) => /^\d+(\.\d+)?$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => path.join(root, version, 'bin'));
  return candidates.find((dir) => SERVER_BINARIES.every((binary) => existsSync(path.join(dir, binary))));
}

/**
 * The server binaries' folder, installing Debian's postgresql first when root; throws the reason
 * when neither works. `root` and `install` are there for tests.
 */
export function findPostgres({ root = '/usr/lib/postgresql', install = installDebianPackage } = {}) {
  const found = postgresBinDir(root);
  if (found) return found;
  if (install('postgresql')) {
    const installed = postgresBinDir(root);
    if (installed) return installed;
    throw new Error(`Debian's postgresql package left no initdb, pg_ctl and postgres under ${root}`);
  }
  throw new Error(
    `no initdb, pg_ctl and postgres under ${root} and not root to install them (Debian: apt-get install postgresql, or set POSTGRES_BIN_DIR)`,
  );
}

function listensFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address();
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * A loopback port nobody listens on right now: any, or with POSTGRES_TEST_PORT the first free one
 * from it up, for a shared machine where each developer keeps to a range.
 */
export async function freePort(from = Number(process.env.POSTGRES_TEST_PORT) || undefined) {
  if (!from) return listensFree(0);
  for (let port = from; port < from + 20; port += 1) {
    const free = await listensFree(port);
    if (free) return free;
  }
  throw new Error(`no free port from POSTGRES_TEST_PORT=${from} to ${from + 19}`);
}

function serverUserIds() {
  try {
    const id = (flag) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(`running as root and there is no '${SERVER_USER}' user to run the server as`);
  }
}

/**
 * Server options. Durability is off because the data is thrown away. The collation, character
 * type and time zone are PGlite's (C, C.UTF-8, UTC), so both engines sort and print alike and a
 * difference between them is one of SQL, not of set-up.
 */
function serverOptions(port, socketDir) {
  return [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories='${socketDir}'`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c timezone=UTC',
  ].join(' ');
}

/**
 * Starts a fresh server; `port` defaults to a free one. The returned handle stops and starts it
 * again on the same port and data (to test the gateway through a database outage) and removes it.
 */
export async function startPostgres({ port, binDir = findPostgres() } = {}) {
  const owner = runsAsRoot() ? serverUserIds() : undefined;
  const folder = mkdtempSync(path.join(tmpdir(), 'webtool-pg-'));
  const dataDir = path.join(folder, 'data');
  const socketDir = path.join(folder, 'socket');
  const logFile = path.join(folder, 'server.log');
  mkdirSync(socketDir);
  if (owner) for (const dir of [folder, socketDir]) chownSync(dir, owner.uid, owner.gid);
  const serverPort = port ?? (await freePort());

  const run = (binary, args) => {
    const command = path.join(binDir, binary);
    try {
      execFileSync(
        owner ? 'runuser' : command,
        owner ? ['-u', SERVER_USER, '--', command, ...args] : args,
        // The server user may not enter the caller's folder.
        { cwd: folder, stdio: 'pipe', encoding: 'utf8' },
      );
    } catch (error) {
      const output = `${error.stderr ?? ''}${error.stdout ?? ''}`.trim();
      throw new Error(`${binary} ${args[0]} failed: ${output || error.message}`);
    }
  };

  const isRunning = () => {
    try {
      run('pg_ctl', ['status', '-D', dataDir]);
      return true;
    } catch {
      return false;
    }
  };
  let running = false;
  const handle = {
    url: `postgres://${SERVER_USER}@127.0.0.1:${serverPort}/postgres`,
    // node-postgres takes a `host` parameter naming a folder as the folder of the socket `.s.PGSQL.<port>`.
    socketUrl: `postgres://${SERVER_USER}@127.0.0.1:${serverPort}/postgres?host=${encodeURIComponent(socketDir)}`,
    port: serverPort,
    folder,
    logFile,
    start() {
      run('pg_ctl', [
        'start',
        '--wait',
        '--timeout=60',
        '-D',
        dataDir,
        '-l',
        logFile,
        '-o',
        serverOptions(serverPort, socketDir),
      ]);
      running = true;
    },
    /** `fast` ends the sessions cleanly; `immediate` is a crash as far as the clients can tell. */
    stop(mode = 'fast') {
      if (!running) return;
      running = false;
      run('pg_ctl', ['stop', '--wait', '--timeout=60', '-m', mode, '-D', dataDir]);
    },
    remove() {
      try {
        handle.stop('immediate');
      } catch (error) {
        // Ctrl-C in a terminal reaches the server too, which may have stopped already.
        if (isRunning()) throw error;
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };

  try {
    run('initdb', [
      '-D',
      dataDir,
      `--username=${SERVER_USER}`,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--lc-ctype=C.UTF-8',
      '--no-sync',
    ]);
    handle.start();
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return handle;
}

/** Removes the server when this process ends, normally, by an error or by Ctrl-C. */
export function removeOnExit(server) {
  process.once('exit', () => server.remove());
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => process.exit(code));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startPostgres({ port: process.argv[2] ? Number(process.argv[2]) : undefined });
  removeOnExit(server);
  console.log(`${server.url} (data in ${server.folder}; Ctrl-C stops and removes it)`);
  setInterval(() => {}, 1 << 30);
}
