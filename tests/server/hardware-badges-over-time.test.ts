import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../../server/db/adapter.ts';
import { createJobQueue, SCHEDULE_OWNER, type JobQueue } from '../../server/gateway/background-jobs.ts';
import { deriveHardwareFields } from '../../server/gateway/rules/hardware/hardware-badges.ts';
import {
  HARDWARE_BADGES_JOB,
  hardwareBadgesWork,
  refreshHardwareOverTime,
} from '../../server/gateway/rules/hardware/hardware-badges-refresh.ts';
import { HARDWARE_UNITS } from '../../server/gateway/rules/shared/hardware-store.ts';
import { Warranty } from '../../src/types/generated/codes.ts';

/**
 * Issue 33.5: a hardware unit's warranty and sync badges change with time alone. The gateway's hourly job
 * derives them again; here with a moved clock, on a database of its own holding one service point and units.
 */

type Doc = Record<string, unknown>;
const T0 = new Date('2026-03-10T12:00:00Z');
const HOUR = 3600_000;

let db: Db;
const queues: JobQueue[] = [];

const unit = (key: string, extra: Doc) => ({
  hardware_id: Number(key),
  name: `Unit ${key}`,
  status: 4,
  service_point_id: 900001,
  is_terminated: false,
  removal_state: 0,
  license_status: 1,
  ...extra,
});

async function storeUnit(key: string, doc: Doc) {
  const derived = { ...doc, ...deriveHardwareFields(doc, [], { servicePointStatus: 6, now: T0 }) };
  await db.query(
    `INSERT INTO records (resource, key, doc, search) VALUES ($1, $2, $3, '')
     ON CONFLICT (resource, key) DO UPDATE SET doc = EXCLUDED.doc`,
    [HARDWARE_UNITS, key, JSON.stringify(derived)],
  );
}

async function unitDoc(key: string) {
  const found = await db.query<{ doc: Doc; version: number }>(
    'SELECT doc, version FROM records WHERE resource = $1 AND key = $2',
    [HARDWARE_UNITS, key],
  );
  return found.rows[0];
}

beforeAll(async () => {
  db = await openDb();
  await migrate(db);
  await db.query(`INSERT INTO records (resource, key, doc, search) VALUES ('service_points', '900001', $1, '')`, [
    JSON.stringify({ service_point_id: 900001, name: 'Clock point', status: 6 }),
  ]);
});
afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
  await db.query('DELETE FROM background_jobs');
  await db.query('DELETE FROM job_schedules');
});
afterAll(() => db.close());

describe('hardware badges as time passes', () => {
  it('a unit synchronised 23 hours ago gets its sync alert an hour later, and its warranty expires the next day', async () => {
    await storeUnit('91', unit('91', { last_sync_at: new Date(T0.getTime() - 23 * HOUR).toISOString() }));
    await storeUnit('92', unit('92', { last_sync_at: T0.toISOString(), warranty_expiry_date: '2026-03-10' }));
    expect((await unitDoc('91')).doc.badges_v2).toEqual(['active', 'all_ok']);
    expect((await unitDoc('92')).doc.warranty_expiry_badge).toBe(Warranty.UnderWarranty);

    // At the time the units were derived, nothing is stale.
    expect(await refreshHardwareOverTime(db, T0)).toEqual({ changed: 0 });

    const later = new Date(T0.getTime() + 2 * HOUR);
    const before = await unitDoc('91');
    expect((await refreshHardwareOverTime(db, later)).changed).toBe(1);
    const after = await unitDoc('91');
    expect(after.doc.badges_v2).toEqual(['active', 'sync_alert']);
    expect(after.doc.alert).toBe(true);
    expect(after.version).toBe(before.version + 1);
    expect((await unitDoc('92')).doc.warranty_expiry_badge).toBe(Warranty.UnderWarranty);

    const nextDay = new Date('2026-03-11T00:30:00Z');
    await refreshHardwareOverTime(db, nextDay);
    expect((await unitDoc('92')).doc.warranty_expiry_badge).toBe(Warranty.WarrantyExpired);
    // Run again at the same time: nothing left to change, nothing written.
    expect(await refreshHardwareOverTime(db, nextDay)).toEqual({ changed: 0 });
  });

  it('the schedule runs the job once an hour, once across processes, on the moved clock', async () => {
    await storeUnit('93', unit('93', { last_sync_at: new Date(T0.getTime() - 23.5 * HOUR).toISOString() }));
    let now = T0;
    const clock = () => now;
    const process = () => {
      const queue = createJobQueue({
        db,
        work: { [HARDWARE_BADGES_JOB]: hardwareBadgesWork(db, clock) },
        schedules: [{ kind: HARDWARE_BADGES_JOB, everySeconds: 3600 }],
        scheduleCheckMs: 3_600_000,
        pollMs: 20,
        now: clock,
      });
      queues.push(queue);
      return queue;
    };
    const [first, second] = [process(), process()];
    await Promise.all([first.checkSchedules(), second.checkSchedules()]);
    const scheduled = async () =>
      Number(
        (
          await db.query<{ n: string }>('SELECT count(*) AS n FROM background_jobs WHERE kind = $1 AND owner = $2', [
            HARDWARE_BADGES_JOB,
            SCHEDULE_OWNER,
          ])
        ).rows[0].n,
      );
    // Not due yet: the first run is an hour after the schedule was first seen.
    expect(await scheduled()).toBe(0);
    expect((await unitDoc('93')).doc.badges_v2).toEqual(['active', 'all_ok']);

    now = new Date(T0.getTime() + HOUR + 1000);
    await Promise.all([first.checkSchedules(), second.checkSchedules()]);
    expect(await scheduled()).toBe(1);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (((await unitDoc('93')).doc.badges_v2 as string[]).includes('sync_alert')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await unitDoc('93')).doc.badges_v2).toEqual(['active', 'sync_alert']);

    // Half an hour on: not due again.
    now = new Date(now.getTime() + HOUR / 2);
    await first.checkSchedules();
    expect(await scheduled()).toBe(1);
    now = new Date(now.getTime() + HOUR);
    await second.checkSchedules();
    expect(await scheduled()).toBe(2);
  });
});
