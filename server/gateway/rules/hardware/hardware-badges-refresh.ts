import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { JobWork } from '../../background-jobs.ts';
import { COMPARTMENTS, HARDWARE_UNITS, SERVICE_POINTS, type StoredUnit } from '../shared/hardware-store.ts';
import { deriveHardwareFields } from './hardware-badges.ts';
import { refreshServicePointHardware } from './service-point-hardware-derived.ts';
import { inStore } from '../shared/endpoints.ts';

/** The background job (server/gateway/background-jobs.ts) that derives the units' fields again as time passes. */
export const HARDWARE_BADGES_JOB = 'hardware_badges_refresh';

/**
 * Some of a unit's derived fields change with time alone: a warranty badge turns Expired the day after its
 * date, and an installed unit that has not synchronised for 24 hours gets its sync alert (and loses All OK).
 * Writes derive them again (hardware-store.ts), and this job, run every hour by the gateway's schedule
 * (app.ts), does so for every unit whose fields came out different at `now`, a page at a time, so that the
 * list, its filters and its badges stay true on a day nobody touched the unit. Nothing the user did changed:
 * the refresh is not audited, as a write's own derivation is not.
 */
export async function refreshHardwareOverTime(db: Db, now: Date, pageSize = 500): Promise<{ changed: number }> {
  let changed = 0;
  let after = '';
  for (;;) {
    const page = await db.query<{ key: string; doc: StoredUnit }>(
      `SELECT key, doc FROM records WHERE ${inStore(HARDWARE_UNITS)} AND key > $1
       ORDER BY key LIMIT $2`,
      [after, pageSize],
    );
    if (!page.rows.length) break;
    after = page.rows[page.rows.length - 1].key;
    const keys = page.rows.map((row) => row.key);
    const points = [...new Set(page.rows.map((row) => row.doc.service_point_id).filter((id) => id != null))];
    const [compartments, statuses] = await Promise.all([
      db.query<{ doc: Compartment }>(
        `SELECT doc FROM records WHERE ${inStore(COMPARTMENTS)} AND doc->>'hardware_id' = ANY($1::text[])`,
        [keys],
      ),
      db.query<{ key: string; status: number | null }>(
        `SELECT key, (doc->>'status')::int AS status FROM records WHERE ${inStore(SERVICE_POINTS)}
         AND key = ANY($1::text[])`,
        [points.map(String)],
      ),
    ]);
    const byUnit = new Map<string, Compartment[]>();
    for (const { doc } of compartments.rows) {
      const list = byUnit.get(String(doc.hardware_id)) ?? [];
      list.push(doc);
      byUnit.set(String(doc.hardware_id), list);
    }
    const statusOf = new Map(statuses.rows.map((row) => [row.key, row.status ?? undefined]));
    const stale = page.rows.flatMap(({ key, doc }) => {
      const servicePointStatus = doc.service_point_id == null ? undefined : statusOf.get(String(doc.service_point_id));
      const refreshed = { ...doc, ...deriveHardwareFields(doc, byUnit.get(key) ?? [], { servicePointStatus, now }) };
      return JSON.stringify(refreshed) === JSON.stringify(doc) ? [] : [{ key, doc: refreshed }];
    });
    if (!stale.length) continue;
    await db.transaction(async (tx) => {
      for (const { key, doc } of stale) {
        await tx.query(
          `UPDATE records SET doc = $3, version = version + 1, updated_at = now() WHERE resource = $1 AND key = $2`,
          [HARDWARE_UNITS, key, JSON.stringify(doc)],
        );
      }
      // A service point shows its units' badges: the points of the changed units follow.
      await refreshServicePointHardware(
        tx,
        stale.map((unit) => unit.doc.service_point_id),
      );
    });
    changed += stale.length;
  }
  return { changed };
}

/** The job's work: the refresh at the clock's time. */
export const hardwareBadgesWork =
  (db: Db, now: () => Date = () => new Date()): JobWork =>
  async () =>
    refreshHardwareOverTime(db, now());
