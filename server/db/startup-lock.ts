/** Any number both sides agree on: it names the "migrating and seeding" lock among advisory locks. */
const STARTUP_LOCK_KEY = 1_770_117;

/**
 * Runs `fn` while holding a PostgreSQL advisory lock, so that gateways started together against one
 * server migrate and seed one after the other, and the later ones find the work done. The lock lives
 * in a connection of its own: a pool hands each query any connection, and a session lock must be
 * released by the session that took it. PGlite belongs to one process, so it needs no lock.
 */
export async function withStartupLock<T>(databaseUrl: string | undefined, fn: () => Promise<T>): Promise<T> {
  if (!databaseUrl) return fn();
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await fn();
  } finally {
    // Ending the session releases the lock even when the unlock cannot be sent.
    await client.end();
  }
}
