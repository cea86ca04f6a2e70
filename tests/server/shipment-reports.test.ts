import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import {
  REPORT_COLUMNS,
  REPORT_LINK_SECONDS,
  type ReportKind,
} from '../../server/gateway/rules/shipments/shipment-reports.ts';
import { startStack, type Stack } from './support/stack.ts';

/**
 * Issue 16: shipment reports (spec 02 §4, §7): `GET webtool/shipments?opname=reports` answers a
 * request id at once; `opname=report_file` is polled until the file exists (rows by `#`, fields by
 * `|`, the column names first), valid 600 s; a carrier's report holds its own pieces only.
 */

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let support: SigningSession;
let locationOwner: SigningSession;

type Doc = Record<string, unknown>;

beforeAll(async () => {
  stack = await startStack();
  [operator, carrier, support, locationOwner] = await Promise.all(
    ['operator', 'carrier', 'support', 'locationowner'].map((user) => stack.signIn(user)),
  );
}, 120_000);
afterAll(() => stack?.close());

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString().slice(0, 10);

const request = (session: SigningSession, query: Record<string, string>) =>
  stack.send(session, { method: 'GET', path: 'webtool/shipments', query: { opname: 'reports', ...query } });
const poll = (session: SigningSession, requestId: string) =>
  stack.send(session, {
    method: 'GET',
    path: 'webtool/shipments',
    query: { opname: 'report_file', request_id: requestId },
  });

/** Polls until the report is no longer pending; answers the last answer and the progress values seen. */
async function settled(session: SigningSession, requestId: string) {
  const progress: number[] = [];
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const answer = await poll(session, requestId);
    expect(answer.status).toBe(200);
    if (answer.body.status !== 'pending') return { answer: answer.body, progress };
    progress.push(Number(answer.body.progress ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`report ${requestId} still pending`);
}

/** A report requested and polled to its file, split into the column names and the rows. */
async function report(session: SigningSession, kind: ReportKind, query: Record<string, string> = {}) {
  const requested = await request(session, { kind, from_date: day(30), to_date: day(0), ...query });
  expect(requested.status).toBe(200);
  const requestId = String(requested.body.request_id);
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const { answer, progress } = await settled(session, requestId);
  expect(answer.status).toBe('ready');
  const file = String(answer.file);
  const [header, ...rows] = file.split('#');
  return { requestId, answer, progress, header: header.split('|'), rows: rows.map((row) => row.split('|')) };
}

async function count(sql: string, params: unknown[]) {
  return (await stack.db.query<{ n: number }>(sql, params)).rows[0].n;
}

describe('request, poll, file', () => {
  it('builds the parcels report of a period: a header row, then one row per piece, `#` and `|`', async () => {
    const { header, rows, answer, requestId } = await report(operator, 'generate_parcels_rpt');
    expect(header).toEqual(REPORT_COLUMNS.generate_parcels_rpt);
    const expected = await count(
      `SELECT count(*)::int AS n FROM records WHERE resource = 'shipments' AND doc->>'created_at' BETWEEN $1 AND $2`,
      [`${day(30)}T00:00:00Z`, `${day(0)}T23:59:59.999Z`],
    );
    expect(expected).toBeGreaterThan(100);
    expect(rows.length).toBe(expected);
    expect(rows.every((row) => row.length === header.length)).toBe(true);
    const carrierColumn = header.indexOf('carrier');
    expect(new Set(rows.map((row) => row[carrierColumn]))).toContain('NordPost');
    // Valid 600 s from when it was built.
    const left = (Date.parse(String(answer.expires_at)) - Date.now()) / 1000;
    expect(left).toBeGreaterThan(REPORT_LINK_SECONDS - 60);
    expect(left).toBeLessThanOrEqual(REPORT_LINK_SECONDS);

    // Only the requester polls it.
    const other = await poll(carrier, requestId);
    expect(other.status).toBe(404);
  });

  it('builds the events report with the event names, and honours the event id range', async () => {
    const { header, rows } = await report(carrier, 'generate_events_rpt', { from_date: day(7) });
    expect(header).toEqual(REPORT_COLUMNS.generate_events_rpt);
    expect(rows.length).toBeGreaterThan(10);
    const code = header.indexOf('event_code');
    const name = header.indexOf('event');
    expect(rows.find((row) => row[code] === '101')?.[name]).toBe('HardReserved');
    const ids = rows.map((row) => Number(row[header.indexOf('event_id')]));
    const [min, max] = [ids[Math.floor(ids.length / 4)], ids[Math.floor(ids.length / 2)]].sort((a, b) => a - b);
    const ranged = await report(carrier, 'generate_events_rpt', {
      from_date: day(7),
      min_event_id: String(min),
      max_event_id: String(max),
    });
    const rangedIds = ranged.rows.map((row) => Number(row[0]));
    expect(rangedIds.length).toBeGreaterThan(0);
    for (const id of rangedIds) {
      expect(id).toBeGreaterThanOrEqual(min);
      expect(id).toBeLessThanOrEqual(max);
    }
    expect(rangedIds.length).toBe(ids.filter((id) => id >= min && id <= max).length);
  });

  it('builds the inventory report: the pieces still waiting', async () => {
    const { header, rows } = await report(operator, 'generate_inventory_rpt', { from_date: day(90) });
    expect(header).toEqual(REPORT_COLUMNS.generate_inventory_rpt);
    const expected = await count(
      `SELECT count(*)::int AS n FROM records WHERE resource = 'shipments' AND doc->>'created_at' >= $1
         AND coalesce((doc->>'active')::boolean, false)`,
      [`${day(90)}T00:00:00Z`],
    );
    expect(rows.length).toBe(expected);
    const piece = header.indexOf('piece_id');
    expect(rows.map((row) => row[piece])).toContain('DEMO-WAITING-1');
  });

  it('expires the file after its validity', async () => {
    const { requestId } = await report(operator, 'generate_parcels_rpt', { from_date: day(2) });
    await stack.db.query(`UPDATE background_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      requestId,
    ]);
    const expired = await poll(operator, requestId);
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({
      message: 'The report file has expired.',
      message_key: 'catalogue.report_expired',
    });
  });
});

describe('tenancy', () => {
  it("gives a carrier its own pieces only, and refuses another carrier's report", async () => {
    const { header, rows } = await report(carrier, 'generate_parcels_rpt');
    const carrierColumn = header.indexOf('carrier');
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row[carrierColumn]))).toEqual(new Set(['NordPost']));
    const expected = await count(
      `SELECT count(*)::int AS n FROM records WHERE resource = 'shipments' AND doc->>'carrier_id' = '1'
         AND doc->>'created_at' BETWEEN $1 AND $2`,
      [`${day(30)}T00:00:00Z`, `${day(0)}T23:59:59.999Z`],
    );
    expect(rows.length).toBe(expected);
    const refused = await request(carrier, {
      kind: 'generate_parcels_rpt',
      from_date: day(3),
      to_date: day(0),
      carrier_id: '2',
    });
    expect(refused.status).toBe(403);
  });

  it('gives a support provider the pieces at its service points; a location owner no report', async () => {
    const { header, rows } = await report(support, 'generate_parcels_rpt', { from_date: day(10) });
    const expected = await count(
      `SELECT count(*)::int AS n FROM records WHERE resource = 'shipments' AND doc->>'support_provider_id' = '1'
         AND doc->>'created_at' BETWEEN $1 AND $2`,
      [`${day(10)}T00:00:00Z`, `${day(0)}T23:59:59.999Z`],
    );
    expect(rows.length).toBe(expected);
    expect(header[0]).toBe('piece_id');
    const refused = await request(locationOwner, { kind: 'generate_parcels_rpt', from_date: day(3), to_date: day(0) });
    expect(refused.status).toBe(403);
  });
});

describe('bad input', () => {
  it('refuses a report whose end is before its start, with its message on the field, and queues nothing', async () => {
    const before = await count('SELECT count(*)::int AS n FROM background_jobs', []);
    const refused = await request(operator, { kind: 'generate_parcels_rpt', from_date: day(1), to_date: day(5) });
    expect(refused.status).toBe(422);
    const errors = refused.body.errors as Record<string, Doc>;
    expect(Object.keys(errors)).toEqual(['to_date']);
    expect(errors.to_date.message).toBe('validation.not_before');
    const ids = await request(operator, {
      kind: 'generate_events_rpt',
      from_date: day(5),
      to_date: day(1),
      min_event_id: '500',
      max_event_id: '100',
    });
    expect(ids.status).toBe(422);
    expect(Object.keys(ids.body.errors as Doc)).toEqual(['max_event_id']);
    expect(await count('SELECT count(*)::int AS n FROM background_jobs', [])).toBe(before);
  });

  it('refuses an unknown report kind, a missing date and a request id that was never given', async () => {
    const kind = await request(operator, { kind: 'generate_secrets_rpt', from_date: day(5), to_date: day(1) });
    expect(kind.status).toBe(422);
    expect(Object.keys(kind.body.errors as Doc)).toEqual(['kind']);
    const date = await request(operator, { kind: 'generate_parcels_rpt', to_date: day(1) });
    expect(date.status).toBe(422);
    expect((date.body.errors as Record<string, Doc>).from_date.message).toBe('validation.required');
    expect((await poll(operator, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const none = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/shipments',
      query: { opname: 'report_file' },
    });
    expect(none.status).toBe(400);
  });
});
