import type { Db } from '../db/adapter.ts';
import { migrate } from '../db/adapter.ts';
import type { Identity } from '../identity/index.ts';
import { DEMO_PASSWORD, demoUsers, seedNetwork } from './demo-network.ts';
import type { SeedSize } from './seed-size.ts';
import { partnerAdminUsers } from './partner-network.ts';
import { carriers, hardwareProviders, locationOwners, maintenanceProviders, supportProviders } from './network-data.ts';

export async function isSeeded(db: Db) {
  const result = await db.query<{ n: string }>('SELECT count(*) AS n FROM records');
  return Number(result.rows[0].n) > 0;
}

/**
 * Demo network plus one signed-in-able user per partner type, all in one go. `size`: the demo's
 * volume (the default, what `npm start` shows) or the tests' smaller network (see SEED_SIZES).
 */
export async function seedDemo(db: Db, identity: Identity, options: { size?: SeedSize } = {}) {
  const counts = await seedNetwork(db, options);
  for (const user of demoUsers) {
    await identity.createUser({
      username: user.username,
      email: user.email,
      password: DEMO_PASSWORD,
      familyName: user.familyName,
      groups: user.role ? [user.role] : [],
    });
  }
  // Every other demo partner's administrator (issue 26), with the demo password.
  const admins = partnerAdminUsers(
    {
      carrier: carriers,
      location_owner: locationOwners,
      hardware_provider: hardwareProviders,
      maintenance_provider: maintenanceProviders,
      support_provider: supportProviders,
    },
    new Set(demoUsers.map((user) => user.role ?? '')),
  );
  for (const { role, ...admin } of admins) {
    await identity.createUser({ ...admin, password: DEMO_PASSWORD, groups: [role] });
  }
  return { ...counts, users: demoUsers.length + admins.length };
}

/** Empties the database (tables and all) and applies the migrations again. */
export async function resetDatabase(db: Db) {
  await db.query('DROP SCHEMA public CASCADE');
  await db.query('CREATE SCHEMA public');
  await migrate(db);
}
