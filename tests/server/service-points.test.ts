import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import { loadSchemas } from '../../server/gateway/resource-registry.ts';
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

type RowErrors = { index: number; line: number; errors: Record<string, { message: string; args?: object }> }[];

const servicePoint = (overrides: Record<string, unknown> = {}) => ({
  name: 'Bulk Kiosk Oslo',
  country: 'NO',
  status: 1,
  address: 'Storgata 1',
  zip: '0155',
  city: 'Oslo',
  latitude: 59.91,
  longitude: 10.75,
  max_hardware_units: 2,
  ...overrides,
});

const bulk = (session: SigningSession, body: Record<string, unknown>) =>
  stack.send(session, { method: 'POST', path: 'webtool/service_points', body: { opname: 'bulk_import', ...body } });

async function stored(where: string, params: unknown[] = []) {
  return (
    await stack.db.query<{ doc: Record<string, unknown>; version: number; key: string }>(
      `SELECT key, doc, version FROM records WHERE resource = 'service_points' AND ${where}`,
      params,
    )
  ).rows;
}

async function count() {
  return Number(
    (await stack.db.query<{ n: string }>(`SELECT count(*) AS n FROM records WHERE resource = 'service_points'`)).rows[0]
      .n,
  );
}

describe('the demo network', () => {
  it('holds only service points that pass their schema, so every one of them can be edited', async () => {
    const registry = createSchemaRegistry(loadSchemas());
    const docs = await stored('true');
    const failing = docs
      .map((row) => ({ key: row.key, errors: validateRecord(registry, 'service-point', row.doc).errors }))
      .filter((row) => Object.keys(row.errors).length);
    expect(failing.slice(0, 3)).toEqual([]);
  });
});

describe('service point rules', () => {
  const patch = (session: SigningSession, body: Record<string, unknown>) =>
    stack.send(session, { method: 'PATCH', path: 'webtool/service_points', body });

  it('refuses a status change while the service point is on hold', async () => {
    const [parked] = await stored(`(doc->>'parked')::boolean LIMIT 1`);
    const answer = await patch(operator, {
      service_point_id: parked.doc.service_point_id,
      version: parked.version,
      status: 5,
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      message: 'The status cannot be edited because the service point is on hold',
      errors: { status: { message: 'catalogue.status_on_hold' } },
    });
    const ok = await patch(operator, {
      service_point_id: parked.doc.service_point_id,
      version: parked.version,
      parked: false,
    });
    expect(ok.status).toBe(200);
  });

  it('keeps a test service point a test one, and a terminated one terminated', async () => {
    const [test] = await stored(`(doc->>'test_sp')::boolean LIMIT 1`);
    const live = await patch(operator, {
      service_point_id: test.doc.service_point_id,
      version: test.version,
      test_sp: false,
    });
    expect(live.status).toBe(422);
    expect(live.body.errors).toEqual({ test_sp: { message: 'catalogue.test_sp_permanent' } });

    const [terminated] = await stored(`(doc->>'is_terminated')::boolean LIMIT 1`);
    const revived = await patch(operator, {
      service_point_id: terminated.doc.service_point_id,
      version: terminated.version,
      is_terminated: false,
    });
    expect(revived.status).toBe(422);
    expect(revived.body.errors).toEqual({ is_terminated: { message: 'catalogue.termination_permanent' } });
  });

  it('refuses to terminate or delete a service point with installed hardware', async () => {
    const [equipped] = await stored(
      `key IN (SELECT doc->>'service_point_id' FROM records WHERE resource = 'service_points/hardware_units')
       AND NOT (doc->>'is_terminated')::boolean AND NOT coalesce((doc->>'parked')::boolean, false) LIMIT 1`,
    );
    const terminate = await patch(operator, {
      service_point_id: equipped.doc.service_point_id,
      version: equipped.version,
      is_terminated: true,
    });
    expect(terminate.status).toBe(422);
    expect(terminate.body.message).toBe('Service point contains active shipments or installed hardware');
    const removal = await stack.send(operator, {
      method: 'DELETE',
      path: 'webtool/service_points',
      body: { service_point_id: equipped.doc.service_point_id, version: equipped.version },
    });
    expect(removal.status).toBe(422);
  });
});

describe('POST webtool/service_points opname bulk_import', () => {
  it('imports all rows, as test service points when the toggle is on', async () => {
    const before = await count();
    const answer = await bulk(operator, {
      data: [
        servicePoint({ name: 'Toggle Kiosk One', hardware_models: ['Locker 12', 'Locker 24'], location_owner_id: 1 }),
        servicePoint({ name: 'Toggle Kiosk Two', latitude: 59.92, location_owner_id: 1 }),
      ],
      fileName: 'points.csv',
      import_from: 'csv',
      is_toggle_enabled: true,
    });
    expect(answer).toMatchObject({ status: 200, body: { success: true, imported: 2 } });
    expect(await count()).toBe(before + 2);
    const rows = await stored(`doc->>'name' LIKE 'Toggle Kiosk%'`);
    expect(rows.map((row) => [row.doc.test_sp, row.doc.location_owner_id])).toEqual([
      [true, 1],
      [true, 1],
    ]);
  });

  it('imports nothing when a row breaks a limit, repeats a name or coordinates, or lists too many models', async () => {
    const before = await count();
    const answer = await bulk(operator, {
      data: [
        // Away from the place the first test imported: a stored place is flagged as existing.
        servicePoint({ name: 'Limit Kiosk', latitude: 58.5 }),
        servicePoint({ name: 'x'.repeat(71), latitude: 1 }),
        servicePoint({ name: 'Limit Kiosk', latitude: 2 }),
        servicePoint({ name: 'Other Kiosk', latitude: 58.5 }),
        servicePoint({ name: 'Models Kiosk', latitude: 3, max_hardware_units: 1, hardware_models: ['A', 'B'] }),
        servicePoint({ name: 'Zip Kiosk', latitude: 4, zip: '123456789', municipality: 'm'.repeat(101) }),
        servicePoint({ name: 'Dot Kiosk', latitude: 5, address: '.Storgata', city: 'Os#lo' }),
        servicePoint({
          name: 'Contact Kiosk',
          latitude: 6,
          owner_contact_phone: '+47 123 456 7890',
          email: 'nope',
        }),
      ],
      is_toggle_enabled: false,
    });
    expect(answer.status).toBe(422);
    expect(await count()).toBe(before);
    const errors = Object.fromEntries((answer.body.row_errors as RowErrors).map((row) => [row.line, row.errors]));
    expect(errors[3]).toEqual({ name: { message: 'validation.max_length', args: { max: 70 } } });
    expect(errors[4]).toEqual({ name: { message: 'import.errors.repeated', args: { line: 2 } } });
    expect(errors[5]).toEqual({ latitude: { message: 'import.errors.repeated', args: { line: 2 } } });
    expect(errors[6]).toEqual({ hardware_models: { message: 'validation.count_mismatch' } });
    expect(errors[7]).toMatchObject({
      zip: { message: 'validation.max_length' },
      municipality: { message: 'validation.max_length' },
    });
    expect(errors[8]).toEqual({
      address: { message: 'validation.no_period_start' },
      city: { message: 'validation.special_characters' },
    });
    expect(errors[9]).toMatchObject({
      owner_contact_phone: { message: 'validation.max_length' },
      email: { message: 'validation.email' },
    });
    expect(errors[2]).toBeUndefined();
  });

  it('refuses a toggle that is not a boolean, and a location owner importing, even for itself', async () => {
    expect((await bulk(operator, { data: [servicePoint()], is_toggle_enabled: 'yes' })).status).toBe(400);
    const before = await count();
    for (const owner of [1, 2]) {
      const refused = await bulk(locationOwner, { data: [servicePoint({ name: 'Own', location_owner_id: owner })] });
      expect(refused).toMatchObject({ status: 403, body: { message: 'You have no permission for this request.' } });
    }
    expect(await count()).toBe(before);
  });
});

describe('who may change service points (x-resource.actions: the operator company, advance level)', () => {
  /** Every stored service point and audit entry: a refused write leaves both as they were. */
  async function fingerprint() {
    const found = await stack.db.query<{ records: string; audit: string }>(
      `SELECT (SELECT md5(string_agg(key || '@' || version || doc::text, ',' ORDER BY key))
                 FROM records WHERE resource = 'service_points') AS records,
              (SELECT count(*)::text FROM audit_log) AS audit`,
    );
    return found.rows[0];
  }

  it.each(['carrier', 'maintenance', 'locationowner', 'support', 'hardware'])(
    '%s reads the service points it has access to but cannot create, rename, delete or import one',
    async (username) => {
      const session = await stack.signIn(username);
      const listed = await stack.send(session, { method: 'GET', path: 'webtool/service_points', query: { limit: 1 } });
      expect(listed.status).toBe(200);
      const [target] = listed.body.data as { service_point_id: number; version: number; name: string }[];
      expect(target).toBeDefined();
      const before = await fingerprint();
      const attempts = [
        { method: 'POST' as const, body: servicePoint({ name: 'Partner Kiosk' }) },
        {
          method: 'PATCH' as const,
          body: { service_point_id: target.service_point_id, version: target.version, name: 'Renamed By Partner' },
        },
        { method: 'DELETE' as const, body: { service_point_id: target.service_point_id, version: target.version } },
        { method: 'POST' as const, body: { opname: 'bulk_import', data: [servicePoint({ name: 'Partner Import' })] } },
      ];
      for (const attempt of attempts) {
        const answer = await stack.send(session, { ...attempt, path: 'webtool/service_points' });
        expect(answer, `${attempt.method} ${JSON.stringify(attempt.body).slice(0, 40)}`).toMatchObject({
          status: 403,
          body: { message: 'You have no permission for this request.', message_key: 'http.no_permission' },
        });
      }
      expect(await fingerprint()).toEqual(before);
    },
  );

  it('the operator renames a service point', async () => {
    const [target] = await stored(`true ORDER BY key LIMIT 1`);
    const answer = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/service_points',
      body: { service_point_id: target.doc.service_point_id, version: target.version, name: 'Renamed By Operator' },
    });
    expect(answer.status).toBe(200);
    expect((await stored(`key = $1`, [target.key]))[0].doc.name).toBe('Renamed By Operator');
  });
});
