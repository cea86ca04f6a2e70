import type { Db } from '../db/adapter.ts';
import { migrate } from '../db/adapter.ts';
import type { Identity } from '../identity/index.ts';
import { DEMO_PASSWORD, demoUsers, seedNetwork } from './demo-network.ts';

export async function isSeeded(db: Db) {
  const result = await db.query<{ n: string }>('SELECT count(*) AS n FROM records');
  return Number(result.rows[0].n) > 0;
}

/** Demo network plus one signed-in-able user per partner type, all in one go. */
export async function seedDemo(db: Db, identity: Identity) {
  const counts = await seedNetwork(db);
  for (const user of demoUsers) {
    await identity.createUser({
      username: user.username,
      email: user.email,
      password: DEMO_PASSWORD,
      familyName: user.familyName,
      groups: user.role ? [user.role] : [],
    });
  }
  return { ...counts, users: demoUsers.length };
}

/** Empties the database (tables and all) and applies the migrations again. */
export async function resetDatabase(db: Db) {
  await db.query('DROP SCHEMA public CASCADE');
  await db.query('CREATE SCHEMA public');
  await migrate(db);
}
