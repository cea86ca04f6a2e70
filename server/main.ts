import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { configProblem, loadConfig, type ServerConfig } from './config.ts';
import { migrate, openDb, type Db } from './db/adapter.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { createIdentity, type Identity } from './identity/index.ts';
import { buildApp } from './app.ts';
import { prepareLists } from './gateway/record-store.ts';
import { loadResources } from './gateway/resource-registry.ts';
import { isSeeded, seedDemo } from './seed/index.ts';

const config = loadConfig();
const problem = configProblem(config);
if (problem) {
  console.error(problem);
  process.exit(1);
}

/** Opens the database with the identity stand-in over it. */
async function openStorage(settings: ServerConfig) {
  if (!settings.databaseUrl) mkdirSync(settings.dataDir, { recursive: true });
  const db = await openDb({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    pool: settings.pool,
    onIdleConnectionError: (error) => console.warn(`Lost an idle database connection: ${error.message}`),
  });
  return { db, identity: createIdentity(db, { local: settings.local }) };
}

/** Migrations and the demo seed, once per database however many gateways start at the same time. */
async function prepareDatabase(settings: ServerConfig, db: Db, identity: Identity) {
  await withStartupLock(settings.databaseUrl, async () => {
    await migrate(db);
    if (!(await isSeeded(db))) {
      await withSeedingDb(settings, db, async (seeding) => {
        const counts = await seedDemo(seeding, identity, { size: settings.seedSize });
        console.log(`Seeded the demo network: ${JSON.stringify(counts)}`);
      });
    }
    // On the gateway's own connections: what it learns (sort keys ready, statistics fresh) is kept per connection pool.
    await readyLists(db);
  });
}

/**
 * Runs the demo seed, on PostgreSQL over connections of its own without the requests' statement timeout: a seed
 * is no request, and one of its statements writes 25,000 piece events and their dashboard rollups, which a busy
 * two-core machine took past the pool's 30 s. PGlite sets no timeout.
 */
async function withSeedingDb(settings: ServerConfig, db: Db, work: (seeding: Db) => Promise<void>) {
  if (!settings.databaseUrl) return work(db);
  const seeding = await openDb({
    databaseUrl: settings.databaseUrl,
    pool: { ...settings.pool, size: 2, statementTimeoutMs: 0 },
  });
  try {
    await work(seeding);
  } finally {
    await seeding.close();
  }
}

async function readyLists(db: Db) {
  const listsStarted = performance.now();
  await prepareLists(db, loadResources().values());
  console.log(`Lists ready (sort keys, statistics) in ${Math.round(performance.now() - listsStarted)} ms`);
}

const where = (settings: ServerConfig) => (settings.databaseUrl ? 'PostgreSQL' : `PGlite in ${settings.dataDir}`);

/** One gateway process: it prepares the database itself unless a supervising process did. */
async function serve(settings: ServerConfig, { prepared }: { prepared: boolean }) {
  const { db, identity } = await openStorage(settings);
  if (prepared) await readyLists(db);
  else await prepareDatabase(settings, db, identity);

  const app = await buildApp({
    db,
    identity,
    distDir: settings.distDir,
    webhooks: { local: settings.local, dispatchMs: settings.webhookDispatchMs },
    jobs: { leaseSeconds: settings.jobLeaseSeconds },
    logger: {
      level: settings.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-auth-token"]', 'req.headers.cookie'],
    },
  });

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      await db.close();
      process.exit(0);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: settings.port, host: settings.host });
  if (cluster.isWorker) console.log(`Gateway process ${process.pid} ready`);
  else console.log(`Webtool running at http://localhost:${settings.port}/ (${where(settings)})`);
}

/**
 * Node's options of each gateway process of `WORKERS=N` beyond its supervisor's: semi-spaces of 64 MB (V8's default
 * 16 MB), as a call allocates briefly (its request, rows and answer) and a larger young generation collects it
 * less often and moves less of it on: under `npm run load` with 200 clients, 0.62-0.65 ms of a gateway process's CPU
 * per call against 0.70-0.72 ms (issue 32). An option given to the supervisor's own node wins.
 */
const GATEWAY_PROCESS_NODE_OPTIONS = ['--max-semi-space-size=64'];

/** Gateway processes that start in a row without ever listening: a setting is wrong, so stop trying. */
const MAX_FAILED_STARTS = 3;
const RESTART_DELAY_MS = 500;

/**
 * The supervising process of `WORKERS=N`: it migrates and seeds, then runs N gateway processes that
 * share the port (node:cluster hands them the connections in turn), and starts a new one when one
 * dies. Everything a request needs between calls is in the database, so any process serves any call.
 */
async function supervise(settings: ServerConfig) {
  const { db, identity } = await openStorage(settings);
  try {
    await prepareDatabase(settings, db, identity);
  } finally {
    await db.close();
  }

  const given = (option: string) => process.execArgv.some((arg) => arg.split('=')[0] === option.split('=')[0]);
  cluster.setupPrimary({
    execArgv: [...process.execArgv, ...GATEWAY_PROCESS_NODE_OPTIONS.filter((option) => !given(option))],
  });
  let stopping = false;
  let failedStarts = 0;
  let announced = false;
  const listened = new Set<number>();

  function start() {
    const worker = cluster.fork();
    worker.once('listening', () => {
      listened.add(worker.id);
      failedStarts = 0;
      if (!announced && listened.size >= settings.workers) {
        announced = true;
        console.log(
          `Webtool running at http://localhost:${settings.port}/ (${where(settings)}, ${settings.workers} gateway processes)`,
        );
      }
    });
  }

  cluster.on('exit', (worker, code, signal) => {
    const pid = worker.process.pid;
    if (stopping) {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit();
      return;
    }
    if (!listened.delete(worker.id)) failedStarts += 1;
    if (failedStarts >= MAX_FAILED_STARTS) {
      console.error(`${failedStarts} gateway processes in a row ended before serving; stopping.`);
      void shutdown(1);
      return;
    }
    console.error(`Gateway process ${pid} ended (${signal ?? `exit code ${code}`}); starting another.`);
    setTimeout(() => {
      if (!stopping) start();
    }, RESTART_DELAY_MS);
  });

  function shutdown(exitCode: number) {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (!workers.length) process.exit(exitCode);
    process.exitCode = exitCode;
    for (const worker of workers) worker?.process.kill('SIGTERM');
  }
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  for (let n = 0; n < settings.workers; n += 1) start();
}

if (config.workers > 1 && cluster.isPrimary) await supervise(config);
else await serve(config, { prepared: cluster.isWorker });
