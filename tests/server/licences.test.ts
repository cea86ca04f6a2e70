import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { parseReportFile } from '../../src/schema/report-file.ts';
import { badgeDays, licenceClock } from '../../server/gateway/rules/integrations/licences.ts';
import { pdfPages } from './support/pdf-text.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/**
 * The hardware licence search (issue 27.6): the period's rules in the gateway with their catalogue messages
 * (nothing queued when refused), who may search, the day counts of a hand-made badge history across month
 * boundaries and a change in mid-month, the badge history written with the unit's own writes, and the PDF.
 */

type Doc = Record<string, unknown>;
let stack: Stack;
let operator: SigningSession;
let hardware: SigningSession;
let scout: SigningSession;
let fingerprint: () => Promise<{ records: string; audit: string }>;
const LICENCES = 'webtool/hardware/license';
const UNITS = 'webtool/service_points/hardware_units';

beforeAll(async () => {
  stack = await startStack();
  fingerprint = await recordsFingerprint(stack.db);
  ({ operator, hardware, scout } = await signInAll(stack, ['operator', 'hardware', 'scout']));
});
afterAll(() => stack?.close());
const realNow = licenceClock.now;
afterEach(() => {
  licenceClock.now = realNow;
});

const search = (session: SigningSession, values: Record<string, string>) =>
  stack.send(session, { method: 'GET', path: LICENCES, query: { opname: 'search', ...values } });
const jobCount = async () =>
  Number((await stack.db.query<{ n: string }>(`SELECT count(*) AS n FROM background_jobs`)).rows[0].n);

/** A refused search: the status, nothing written, no job queued; answers the body. */
async function refused(session: SigningSession, values: Record<string, string>, status = 422) {
  const [snapshot, jobs] = [await fingerprint(), await jobCount()];
  const answer = await search(session, values);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await fingerprint()).toEqual(snapshot);
  expect(await jobCount()).toBe(jobs);
  return answer.body;
}
const fieldErrors = (body: Doc) => body.errors as Record<string, { message: string }>;

async function finished(reportId: string) {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const polled = await stack.send(operator, {
      method: 'GET',
      path: LICENCES,
      query: { opname: 'find', report_id: reportId },
    });
    expect(polled.status).toBe(200);
    if (polled.body.status !== 'pending') return polled.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the licence search did not finish');
}

const at = (iso: string) => () => new Date(iso);

describe('licence days from a badge history', () => {
  it('counts each badge from its day to the next change, within the period, across month boundaries', () => {
    const history = [
      { day: '2026-01-10', status: 4 },
      { day: '2026-01-20', status: 1 },
      { day: '2026-02-15', status: 2 },
      { day: '2026-03-01', status: 1 },
    ];
    // January: 10 days before the unit existed, 10 pending, 12 activated; February: 14 activated, 14 no fee.
    expect(badgeDays(history, '2026-01-01', '2026-02-28')).toEqual({
      activated: 26,
      no_fee: 14,
      terminated: 0,
      pending: 10,
    });
    // March alone: the last change holds to the end (31 days); a period before the unit: nothing.
    expect(badgeDays(history, '2026-03-01', '2026-03-31')).toEqual({
      activated: 31,
      no_fee: 0,
      terminated: 0,
      pending: 0,
    });
    expect(badgeDays(history, '2025-12-01', '2025-12-31')).toEqual({
      activated: 0,
      no_fee: 0,
      terminated: 0,
      pending: 0,
    });
    // Two changes on one day: the later one holds that day; a leap February has 29 days.
    expect(
      badgeDays(
        [
          { day: '2024-02-10', status: 1 },
          { day: '2024-02-10', status: 3 },
        ],
        '2024-02-01',
        '2024-02-29',
      ),
    ).toEqual({ activated: 0, no_fee: 0, terminated: 20, pending: 0 });
  });
});

describe('the licence search', () => {
  it('refuses every broken period with its catalogue message and queues nothing', async () => {
    licenceClock.now = at('2026-04-05T08:00:00Z');
    const owners = { hardware_owners: '1' };
    const endBeforeStart = await refused(operator, {
      ...owners,
      from_year: '2026',
      from_month: '2',
      to_year: '2026',
      to_month: '1',
    });
    expect(fieldErrors(endBeforeStart).to_month.message).toBe('catalogue.licence_end_before_start');
    const yearBeforeStart = await refused(operator, {
      ...owners,
      from_year: '2026',
      from_month: '1',
      to_year: '2025',
      to_month: '12',
    });
    expect(fieldErrors(yearBeforeStart).to_year.message).toBe('catalogue.licence_end_before_start');
    const thisMonth = await refused(operator, {
      ...owners,
      from_year: '2026',
      from_month: '1',
      to_year: '2026',
      to_month: '4',
    });
    expect(fieldErrors(thisMonth).to_month.message).toBe('catalogue.licence_end_not_past');
    const future = await refused(operator, {
      ...owners,
      from_year: '2026',
      from_month: '1',
      to_year: '2027',
      to_month: '1',
    });
    expect(fieldErrors(future).to_year.message).toBe('catalogue.licence_end_not_past');
    const missing = await refused(operator, owners);
    expect(Object.keys(fieldErrors(missing)).sort()).toEqual(['from_month', 'from_year', 'to_month', 'to_year']);
    const noOwner = await refused(operator, { from_year: '2026', from_month: '1', to_year: '2026', to_month: '2' });
    expect(fieldErrors(noOwner).hardware_owners).toBeDefined();
    const unknownOwner = await refused(operator, {
      hardware_owners: '1,99999',
      from_year: '2026',
      from_month: '1',
      to_year: '2026',
      to_month: '2',
    });
    expect(fieldErrors(unknownOwner).hardware_owners.message).toBe('validation.choice');
    // The month before "now" is the latest end: accepted.
    const accepted = await search(operator, {
      ...owners,
      from_year: '2026',
      from_month: '3',
      to_year: '2026',
      to_month: '3',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    // The spec's form of the call, without an opname, searches the same way.
    const plain = await stack.send(operator, {
      method: 'GET',
      path: LICENCES,
      query: { ...owners, from_year: '2026', from_month: '3', to_year: '2026', to_month: '3' },
    });
    expect(plain.status).toBe(200);
    expect(plain.body.report_id).toEqual(expect.any(String));
  });

  it('is refused to a hardware owner (even for its own units) and to an operator without the licence permission', async () => {
    const period = { hardware_owners: '1', from_year: '2025', from_month: '1', to_year: '2025', to_month: '3' };
    const owner = await refused(hardware, period, 403);
    expect(owner.message_key).toBeDefined();
    await refused(scout, period, 403);
  });

  it('counts a unit hand-made history per badge, sums the totals and draws the same result as a PDF', async () => {
    licenceClock.now = at('2026-04-05T08:00:00Z');
    const unit = (
      await stack.db.query<{ key: string; name: string; owner: string }>(
        `SELECT key, doc->>'name' AS name, doc->>'hardware_owner_id' AS owner FROM records
          WHERE resource = 'service_points/hardware_units' AND doc->>'hardware_owner_id' = '2'
          ORDER BY key::int LIMIT 1`,
      )
    ).rows[0];
    await stack.db.query(`DELETE FROM licence_badge_history WHERE hardware_key = $1`, [unit.key]);
    for (const [day, status] of [
      ['2026-01-10', 4],
      ['2026-01-20', 1],
      ['2026-02-15', 2],
      ['2026-03-01', 1],
    ] as const) {
      await stack.db.query(
        `INSERT INTO licence_badge_history (hardware_key, license_status, valid_from) VALUES ($1, $2, $3)`,
        [unit.key, status, day],
      );
    }
    const requested = await search(operator, {
      hardware_owners: '2',
      from_year: '2026',
      from_month: '1',
      to_year: '2026',
      to_month: '2',
    });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const result = await finished(String(requested.body.report_id));
    expect(result.status).toBe('ready');
    expect(result).toMatchObject({ from: '2026-01-01', to: '2026-02-28', period_days: 59 });
    const table = parseReportFile(String(result.file));
    const rows = table.rows.map((row) => Object.fromEntries(table.columns.map((column, i) => [column, row[i]])));
    const mine = rows.find((row) => row.hardware_name === unit.name)!;
    expect(mine).toMatchObject({ licence_days: '26', no_fee: '14', terminated: '0', pending: '10' });
    // Words, never ids: the owner by name, the model by name.
    expect(mine.hardware_owner).not.toMatch(/^\d+$/);
    expect(rows.every((row) => row.hardware_owner === mine.hardware_owner)).toBe(true);
    const totals = result.totals as Record<string, number>;
    expect(totals.units).toBe(rows.length);
    for (const column of ['licence_days', 'no_fee', 'terminated', 'pending']) {
      expect(totals[column]).toBe(rows.reduce((sum, row) => sum + Number(row[column]), 0));
    }
    for (const row of rows) {
      const counted = ['licence_days', 'no_fee', 'terminated', 'pending'].reduce((sum, c) => sum + Number(row[c]), 0);
      expect(counted).toBeLessThanOrEqual(59);
    }

    const pdf = await stack.send(operator, {
      method: 'GET',
      path: LICENCES,
      query: { opname: 'export_pdf', report_id: String(requested.body.report_id), lang: 'fr-FR' },
    });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(String(pdf.body.data), 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfPages(bytes).join('\n');
    expect(text).toContain('Licences du matériel');
    expect(text).toContain(unit.name);
    expect(text).toContain(String(totals.licence_days));
    // Another user cannot read someone else's search.
    const foreign = await stack.send(await stack.signIn('superadmin'), {
      method: 'GET',
      path: LICENCES,
      query: { opname: 'export_pdf', report_id: String(requested.body.report_id) },
    });
    expect(foreign.status).toBe(404);
  });

  it('writes a history row with the unit own write, and none when the write is refused', async () => {
    const history = (key: string) =>
      stack.db
        .query<{ license_status: number; changed_by: string }>(
          `SELECT license_status, changed_by FROM licence_badge_history WHERE hardware_key = $1 ORDER BY id`,
          [key],
        )
        .then((found) => found.rows);
    const warehouse = (
      await stack.db.query<{ key: string; version: number }>(
        `SELECT key, version FROM records WHERE resource = 'service_points/hardware_units'
            AND coalesce(doc->>'service_point_id', '') = '' AND doc->>'is_terminated' = 'false'
            AND NOT EXISTS (SELECT 1 FROM records t WHERE t.resource = 'maintenance/tickets' AND t.doc->>'hardware_unit_id' = records.key)
          ORDER BY key::int LIMIT 1`,
      )
    ).rows[0];
    const before = await history(warehouse.key);
    const terminate = (version: number) =>
      stack.send(operator, {
        method: 'PATCH',
        path: UNITS,
        body: { opname: 'terminate_hardware', hardware_id: Number(warehouse.key), version },
      });
    // A stale version is refused: no history row.
    expect((await terminate(warehouse.version + 5)).status).toBe(409);
    expect(await history(warehouse.key)).toEqual(before);
    const done = await terminate(warehouse.version);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body.data as Doc).license_status).toBe(3);
    expect(await history(warehouse.key)).toEqual([...before, { license_status: 3, changed_by: 'operator' }]);
  });
});

describe('production orders (issue 27.4)', () => {
  it('answers the production queue to an operator with hardware orders and refuses a hardware owner and the scout', async () => {
    const queue = {
      method: 'GET' as const,
      path: 'webtool/service_points/hardware_order/sub_orders',
      query: { production: 'true' },
    };
    const allowed = await stack.send(operator, queue);
    expect(allowed.status).toBe(200);
    expect((allowed.body.data as Doc[]).length).toBeGreaterThan(0);
    for (const session of [hardware, scout]) {
      const answer = await stack.send(session, queue);
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    }
  });
});
