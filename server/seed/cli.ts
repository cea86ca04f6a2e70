import { openDb } from '../db/adapter.ts';
import { loadConfig } from '../config.ts';
import { createIdentity } from '../identity/index.ts';
import { resetDatabase, seedDemo } from './index.ts';

const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await resetDatabase(db);
  const identity = await createIdentity(db, { local: config.local });
  const counts = await seedDemo(db, identity);
  console.log(`Demo network seeded: ${JSON.stringify(counts)}`);
} finally {
  await db.close();
}
