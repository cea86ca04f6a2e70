import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let locationOwner: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, locationowner: locationOwner } = await signInAll(stack, ['operator', 'locationowner']));
});
afterAll(() => stack.close());

const query = (session: SigningSession, params: Record<string, string>) =>
  stack.send(session, { method: 'GET', path: 'webtool/service_points', query: params });

/** Polls as the app does, until the job leaves `pending`. */
async function finished(session: SigningSession, requestId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { status, body } = await query(session, { opname: 'report_status', request_id: requestId });
    expect(status).toBe(200);
    if (body.status !== 'pending') return body;
    expect(body.progress).toBeGreaterThanOrEqual(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The report never finished');
}

/** Every service point the caller's list shows, page by page. */
async function visibleIds(session: SigningSession) {
  const ids: string[] = [];
  for (;;) {
    const { body } = await query(session, { offset: String(ids.length), limit: '1000' });
    const page = body.data as { service_point_id: number }[];
    ids.push(...page.map((row) => String(row.service_point_id)));
    if (!page.length || ids.length >= Number(body.total)) return ids.sort();
  }
}

describe('service point report job (request, then poll)', () => {
  it('answers a request id at once, then the file of the caller service points, one row each', async () => {
    const requested = await query(operator, { opname: 'report_request' });
    expect(requested.status).toBe(200);
    const requestId = String(requested.body.request_id);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const report = await finished(operator, requestId);
    expect(report.status).toBe('ready');
    const [header, ...rows] = String(report.file).split('#');
    expect(header).toBe('service_point_id|sp_id|name|status|city|zip');
    expect(rows).toHaveLength(Number(report.rows));
    expect(rows.every((row) => row.split('|').length === 6)).toBe(true);
    expect(rows.map((row) => row.split('|')[0]).sort()).toEqual(await visibleIds(operator));
  });

  it('holds only the service points the caller may see (a location owner its own)', async () => {
    const { body } = await query(locationOwner, { opname: 'report_request' });
    const report = await finished(locationOwner, String(body.request_id));
    const ids = String(report.file)
      .split('#')
      .slice(1)
      .map((row) => row.split('|')[0])
      .sort();
    const own = await visibleIds(locationOwner);
    expect(ids).toEqual(own);
    expect(ids.length).toBeLessThan((await visibleIds(operator)).length);
  });

  it('lets no one else poll a request, and names an unknown or missing one', async () => {
    const { body } = await query(operator, { opname: 'report_request' });
    const other = await query(locationOwner, { opname: 'report_status', request_id: String(body.request_id) });
    expect(other.status).toBe(404);
    expect((await query(operator, { opname: 'report_status', request_id: 'nope' })).status).toBe(404);
    expect((await query(operator, { opname: 'report_status' })).status).toBe(400);
  });
});
