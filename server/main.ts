import { mkdirSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { migrate, openDb } from './db/adapter.ts';
import { createIdentity } from './identity/index.ts';
import { buildApp } from './app.ts';
import { prepareLists } from './gateway/record-store.ts';
import { loadResources } from './gateway/resource-registry.ts';
import { isSeeded, seedDemo } from './seed/index.ts';

const config = loadConfig();
if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const db = await openDb({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  pool: config.pool,
  onIdleConnectionError: (error) => console.warn(`Lost an idle database connection: ${error.message}`),
});
await migrate(db);
const identity = await createIdentity(db, { local: config.local });
if (!(await isSeeded(db))) {
  const counts = await seedDemo(db, identity);
  console.log(`Seeded the demo network: ${JSON.stringify(counts)}`);
}

const listsStarted = performance.now();
await prepareLists(db, loadResources().values());
console.log(`Lists ready (sort keys, statistics) in ${Math.round(performance.now() - listsStarted)} ms`);

const app = await buildApp({
  db,
  identity,
  distDir: config.distDir,
  logger: {
    level: config.logLevel,
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

await app.listen({ port: config.port, host: config.host });
console.log(
  `Webtool running at http://localhost:${config.port}/ (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`,
);
