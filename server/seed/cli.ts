import { openDb } from '../db/adapter.ts';
import { loadConfig } from '../config.ts';
import { createIdentity } from '../identity/index.ts';
import { resetDatabase, seedDemo } from './index.ts';
import { isSeedSize } from './seed-size.ts';

// `npm run seed -- --size test`: the tests' smaller network instead of the demo's (SEED_SIZES).
const sizeAt = process.argv.indexOf('--size');
const size = sizeAt === -1 ? 'demo' : process.argv[sizeAt + 1];
if (!isSeedSize(size)) {
  console.error(`Unknown seed size ${String(size)}: demo or test`);
  process.exit(1);
}

const config = loadConfig();
// A seed is no request: on PostgreSQL its statements (25,000 piece events and their rollups) run without the
// requests' statement timeout, which a busy machine can exceed.
const db = await openDb({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  pool: { ...config.pool, statementTimeoutMs: 0 },
});
try {
  await resetDatabase(db);
  const identity = await createIdentity(db, { local: config.local });
  const counts = await seedDemo(db, identity, { size });
  console.log(`Demo network seeded: ${JSON.stringify(counts)}`);
} finally {
  await db.close();
}
