import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter.ts';
import { demoRoles, demoUsers, SEED_SIZES } from '../../server/seed/demo-network.ts';
import { DEMO_CASES } from '../../server/seed/piece-network.ts';
import common from '../../schemas/common.schema.json';
import { openSeededTestDb } from './support/test-db.ts';

/**
 * The server tests run on the seed's `test` size (SEED_SIZES), far smaller than the demo's. It must
 * still hold every kind of connected record the tests look for by shape: a test that finds none
 * would pass on nothing or fail for the wrong reason. This file says what the smaller seed keeps.
 */

let db: Db;
beforeAll(async () => {
  db = await openSeededTestDb();
});
afterAll(() => db.close());

async function values(sql: string): Promise<unknown[]> {
  return (await db.query<{ v: unknown }>(sql)).rows.map((row) => row.v);
}

async function count(sql: string, params: unknown[] = []) {
  return Number((await db.query<{ n: string }>(sql, params)).rows[0].n);
}

describe('the test seed', () => {
  it('is far smaller than the demo seed', async () => {
    const servicePoints = await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points'`);
    // The seeded network, and the few service points the demo's location generator report converted.
    const converted = await count(`SELECT count(*) AS n FROM generator_locations WHERE service_point_id IS NOT NULL`);
    expect(converted).toBeGreaterThan(0);
    expect(servicePoints).toBe(SEED_SIZES.test.servicePoints + converted);
    expect(servicePoints * 4).toBeLessThanOrEqual(SEED_SIZES.demo.servicePoints);
  });

  it('holds every service point status, parked and test points, and service point groups', async () => {
    expect(
      await values(
        `SELECT DISTINCT (doc->>'status')::int AS v FROM records WHERE resource = 'service_points' ORDER BY 1`,
      ),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND (doc->>'parked')::boolean`),
    ).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND (doc->>'test_sp')::boolean`),
    ).toBeGreaterThan(0);
    const emptyGroups = await values(
      `SELECT key AS v FROM records WHERE resource = 'service_points/service_point_groups'
       AND jsonb_array_length(doc->'service_point_ids') = 0`,
    );
    expect(emptyGroups).toEqual([]);
  });

  it('holds every hardware badge on a unit, and every hardware status', async () => {
    const badges = await values(
      `SELECT DISTINCT jsonb_array_elements_text(doc->'badges_v2') AS v FROM records
       WHERE resource = 'service_points/hardware_units' AND jsonb_typeof(doc->'badges_v2') = 'array'`,
    );
    expect([...badges].sort()).toEqual([...common.$defs.hardwareBadge.enum].sort());
    expect(
      await values(
        `SELECT DISTINCT (doc->>'status')::int AS v FROM records WHERE resource = 'service_points/hardware_units' ORDER BY 1`,
      ),
    ).toEqual([1, 2, 3, 4, 5]);
  });

  it('holds the named stuck cases of the README, and pieces in every state', async () => {
    const named = (
      await db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = 'shipments' AND key = ANY($1::text[]) ORDER BY key`,
        [Object.values(DEMO_CASES)],
      )
    ).rows.map((row) => row.key);
    expect(named).toEqual(Object.values(DEMO_CASES).sort());
    expect(
      await values(`SELECT DISTINCT (doc->>'state')::int AS v FROM records WHERE resource = 'shipments' ORDER BY 1`),
    ).toEqual([101, 103, 106, 110, 201, 203, 204, 205, 206, 207]);
  });

  it('gives every demo user’s partner its records: roles, service points it serves, pieces of a carrier', async () => {
    const roles = new Map(demoRoles().map((role) => [role.role_name, role]));
    for (const user of demoUsers.filter((candidate) => candidate.role)) {
      const role = roles.get(user.role!)!;
      expect(
        await count(`SELECT count(*) AS n FROM records WHERE resource = 'identity_access/roles' AND key = $1`, [
          role.role_name,
        ]),
      ).toBe(1);
      const served: Record<string, string> = {
        carrier: `doc->'carriers_access' @> to_jsonb($1::int)`,
        support_provider: `doc->>'support_provider_id' = $1`,
        maintenance_provider: `doc->>'maintenance_provider_id' = $1`,
        location_owner: `doc->>'location_owner_id' = $1`,
      };
      const where = served[role.partner_type];
      if (where) {
        const points = await count(`SELECT count(*) AS n FROM records WHERE resource = 'service_points' AND ${where}`, [
          role.partner,
        ]);
        expect(points, `${user.username}'s service points`).toBeGreaterThan(10);
      }
      if (role.partner_type === 'carrier') {
        const pieces = await count(
          `SELECT count(*) AS n FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = $1`,
          [role.partner],
        );
        expect(pieces, `${user.username}'s pieces`).toBeGreaterThan(100);
      }
      if (role.partner_type === 'hardware_provider') {
        const units = await count(
          `SELECT count(*) AS n FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'hardware_owner_id' = $1`,
          [role.partner],
        );
        expect(units, `${user.username}'s units`).toBeGreaterThan(10);
      }
    }
  });
});
