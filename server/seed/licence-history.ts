import type { Db } from '../db/adapter.ts';
import { LicenseBadge } from '../../src/types/generated/codes.ts';
import { seededRandom } from './random.ts';

/**
 * A year and more of licence badge history for the seeded units (issue 27.7), ending in each unit's present
 * badge, so that a licence search over any recent period has activations, no-fee months, terminations and
 * pending units to count: every unit starts Pending when it is made, most are activated some days later;
 * some pause on No fee for a while, no-fee units went there from Activated, terminated ones were activated
 * before. Deterministic (its own seeded generator, days relative to `now`).
 */

const DAY_MS = 86_400_000;

export interface SeededBadgeChange {
  hardware_key: string;
  license_status: number;
  valid_from: string;
}

interface UnitBadge {
  hardware_id: number;
  license_status: number;
}

export function buildLicenceHistory(units: readonly UnitBadge[], now: Date): SeededBadgeChange[] {
  const random = seededRandom(20261127);
  const today = Math.floor(now.getTime() / DAY_MS);
  const day = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);
  const changes: SeededBadgeChange[] = [];
  for (const unit of units) {
    const key = String(unit.hardware_id);
    // Most units are older than the year; a third were made during it.
    const made = random.chance(0.65) ? today - random.int(380, 900) : today - random.int(20, 360);
    const steps: { at: number; status: number }[] = [{ at: made, status: LicenseBadge.Pending }];
    const left = today - 1 - made;
    const activated = made + Math.min(random.int(4, 45), Math.max(1, Math.floor(left / 3)));
    const final = unit.license_status;
    if (final !== LicenseBadge.Pending) {
      steps.push({ at: activated, status: LicenseBadge.Activated });
      // A spell on No fee (a free trial month, a dispute) for some of the activated ones.
      if (final === LicenseBadge.Activated && random.chance(0.15) && today - activated > 120) {
        const from = random.int(activated + 10, today - 60);
        steps.push({ at: from, status: LicenseBadge.NoFee });
        steps.push({ at: from + random.int(20, 50), status: LicenseBadge.Activated });
      }
      if (final === LicenseBadge.NoFee || final === LicenseBadge.Terminated) {
        steps.push({ at: random.int(Math.min(activated + 1, today - 1), today - 1), status: final });
      }
    }
    for (const step of steps) {
      changes.push({ hardware_key: key, license_status: step.status, valid_from: day(Math.min(step.at, today - 1)) });
    }
  }
  return changes;
}

/** Stores the history in batches of one statement each. */
export async function insertLicenceHistory(db: Db, changes: readonly SeededBadgeChange[], chunk = 5000) {
  for (let start = 0; start < changes.length; start += chunk) {
    const part = changes.slice(start, start + chunk);
    await db.query(
      `INSERT INTO licence_badge_history (hardware_key, license_status, valid_from, changed_at, changed_by)
       SELECT k, s, d::date, d::timestamptz, 'seed'
         FROM unnest($1::text[], $2::smallint[], $3::text[]) AS t(k, s, d)`,
      [
        part.map((change) => change.hardware_key),
        part.map((change) => change.license_status),
        part.map((c) => c.valid_from),
      ],
    );
  }
}
