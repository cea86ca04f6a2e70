import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { countRecords, findRecord, readRecord } from './support/seed-finders.ts';

/** Spec 02 §5: "alert comment required, max 500 characters, not editable after saving". */

let stack: Stack;
let operator: SigningSession;
let maintenance: SigningSession;
let carrier: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, maintenance, carrier } = await signInAll(stack, ['operator', 'maintenance', 'carrier']));
});
afterAll(() => stack?.close());

const PATH = 'webtool/alerts';
type Doc = Record<string, unknown>;

const count = () => countRecords(stack.db, 'alerts');

async function installedUnit() {
  return (await findRecord(stack.db, 'service_points/hardware_units', `doc->>'service_point_id' IS NOT NULL`)).doc;
}

const add = (session: SigningSession, body: Doc) => stack.send(session, { method: 'POST', path: PATH, body });

describe('alerts', () => {
  it('adds an alert on a hardware unit with who, when, the service point and its providers', async () => {
    const unit = await installedUnit();
    const answer = await add(operator, {
      record_type: 'hardware',
      hardware_id: unit.hardware_id,
      comment: 'Door stuck',
    });
    expect(answer.status).toBe(201);
    const sp = await readRecord(stack.db, 'service_points', String(unit.service_point_id));
    expect(answer.body.data).toMatchObject({
      record_type: 'hardware',
      hardware_id: unit.hardware_id,
      // The unit's name, for a maintenance provider who may not read the hardware screens.
      hardware_name: unit.name,
      service_point_id: unit.service_point_id,
      maintenance_provider_id: sp.doc.maintenance_provider_id,
      created_by: 'operator',
      comment: 'Door stuck',
    });
    expect(Date.now() - Date.parse(String((answer.body.data as Doc).created_at))).toBeLessThan(60_000);
  });

  it('refuses a missing, blank or 501-character comment and an unknown unit, writing nothing', async () => {
    const unit = await installedUnit();
    const before = await count();
    const blank = await add(operator, { record_type: 'hardware', hardware_id: unit.hardware_id, comment: '    ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ comment: { message: 'validation.required' } });
    const long = await add(operator, {
      record_type: 'hardware',
      hardware_id: unit.hardware_id,
      comment: 'x'.repeat(501),
    });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ comment: { message: 'validation.max_length', args: { max: 500 } } });
    const exact = 'y'.repeat(500);
    const unknown = await add(operator, { record_type: 'hardware', hardware_id: 99_999_999, comment: exact });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ hardware_id: { message: 'validation.unknown_reference' } });
    const noUnit = await add(operator, { record_type: 'hardware', comment: exact });
    expect(noUnit.status).toBe(422);
    expect(noUnit.body.errors).toEqual({ hardware_id: { message: 'validation.required' } });
    expect(await count()).toBe(before);
  });

  it('keeps the comment once saved, takes a troubleshooting comment of at least 3 non-space characters', async () => {
    const [alert] = (await stack.send(operator, { method: 'GET', path: PATH, query: { offset: '0', limit: '1' } })).body
      .data as Doc[];
    const changed = await stack.send(operator, {
      method: 'PATCH',
      path: PATH,
      body: { alert_id: alert.alert_id, version: alert.version, comment: 'Rewritten' },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual({ comment: { message: 'catalogue.alert_comment_locked' } });
    const short = await stack.send(operator, {
      method: 'PATCH',
      path: PATH,
      body: { alert_id: alert.alert_id, version: alert.version, troubleshooting_comment: ' o k ' },
    });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({
      troubleshooting_comment: { message: 'validation.min_non_space', args: { min: 3 } },
    });
    const stored = await readRecord(stack.db, 'alerts', String(alert.alert_id));
    expect(stored.version).toBe(alert.version);

    const done = await stack.send(operator, {
      method: 'PATCH',
      path: PATH,
      body: { alert_id: alert.alert_id, version: alert.version, troubleshooting_comment: 'Replaced the lock.' },
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ comment: alert.comment, troubleshooting_comment: 'Replaced the lock.' });
  });

  it('shows a maintenance provider only the alerts at its service points; refuses a carrier; never deletes', async () => {
    const own = (await stack.send(maintenance, { method: 'GET', path: PATH, query: { offset: '0', limit: '100' } }))
      .body.data as Doc[];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((alert) => alert.maintenance_provider_id === 1)).toBe(true);
    const hardware = await add(maintenance, {
      record_type: 'hardware',
      hardware_id: (await installedUnit()).hardware_id,
      comment: 'Not my unit to see',
    });
    expect(hardware.status).toBe(422);
    expect((await stack.send(carrier, { method: 'GET', path: PATH })).status).toBe(403);
    const before = await count();
    const removed = await stack.send(operator, { method: 'DELETE', path: PATH, body: { alert_id: own[0].alert_id } });
    expect(removed.status).toBe(403);
    expect(await count()).toBe(before);
  });
});
