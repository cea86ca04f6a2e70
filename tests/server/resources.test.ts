import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';
import { countRecords, partnerIdOf, readRecord } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let maintenance: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier, maintenance } = await signInAll(stack, ['operator', 'carrier', 'maintenance']));
});
afterAll(() => stack.close());

const validCarrier = {
  name: 'Gateway Test Carrier',
  primary_country_code: 'SE',
  service_point_radius: 5,
  // A local gateway delivers to loopback receivers only (issue 28): a carrier's URL is one.
  webhook_url: 'https://127.0.0.1:9443/in',
  webhook_retry_attempts: 2,
};

async function auditRows(resource: string, key: string) {
  return (
    await stack.db.query<{ action: string; changes: Record<string, { from: unknown; to: unknown }>; username: string }>(
      'SELECT action, changes, username FROM audit_log WHERE resource = $1 AND key = $2 ORDER BY id',
      [resource, key],
    )
  ).rows;
}

const count = (resource: string) => countRecords(stack.db, resource);

describe('carriers', () => {
  it('are created with an id, an API key and an audit entry, then updated and deleted', async () => {
    const created = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/partners/carrier',
      body: validCarrier,
    });
    expect(created.status).toBe(201);
    const data = created.body.data as Record<string, unknown>;
    expect(data).toMatchObject({ name: 'Gateway Test Carrier', version: 1 });
    expect(typeof data.carrier_id).toBe('number');
    expect(String(data.api_key)).toMatch(/^[\w-]{20,}$/);

    const key = String(data.carrier_id);
    const updated = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/partners/carrier',
      body: { carrier_id: data.carrier_id, version: 1, service_point_radius: 7.5, api_key: 'forged' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ service_point_radius: 7.5, version: 2, api_key: data.api_key });

    const removed = await stack.send(operator, {
      method: 'DELETE',
      path: 'webtool/partners/carrier',
      body: { carrier_id: data.carrier_id, version: 2 },
    });
    expect(removed.status).toBe(200);
    const audit = await auditRows('partners/carrier', key);
    expect(audit.map((row) => row.action)).toEqual(['create', 'update', 'delete']);
    expect(audit[1].changes.service_point_radius).toEqual({ from: 5, to: 7.5 });
    expect(audit[1].username).toBe('operator');
  });

  it.each([
    ['radius below 0.1 km', { service_point_radius: 0.05 }, 'service_point_radius', 'validation.min', { min: 0.1 }],
    ['radius above 20 km', { service_point_radius: 20.5 }, 'service_point_radius', 'validation.max', { max: 20 }],
    [
      'a webhook URL that is not https',
      { webhook_url: 'http://hooks.example.com' },
      'webhook_url',
      'validation.https_url',
      {},
    ],
    [
      'a webhook URL outside loopback on a local gateway',
      { webhook_url: 'https://hooks.example.com/in' },
      'webhook_url',
      'validation.webhook_url_loopback',
      {},
    ],
    ['0 retry attempts', { webhook_retry_attempts: 0 }, 'webhook_retry_attempts', 'validation.min', { min: 1 }],
    ['4 retry attempts', { webhook_retry_attempts: 4 }, 'webhook_retry_attempts', 'validation.max', { max: 3 }],
    ['a 21-minute interval', { webhook_retry_interval: 21 }, 'webhook_retry_interval', 'validation.max', { max: 20 }],
    ['a 0-minute interval', { webhook_retry_interval: 0 }, 'webhook_retry_interval', 'validation.min', { min: 1 }],
    ['a 121-minute first delay', { webhook_first_delay: 121 }, 'webhook_first_delay', 'validation.max', { max: 120 }],
    ['a negative first delay', { webhook_first_delay: -1 }, 'webhook_first_delay', 'validation.min', { min: 0 }],
    ['a 9-hour cycle', { webhook_cycle_repeat: 9 }, 'webhook_cycle_repeat', 'validation.min', { min: 10 }],
    ['a 25-hour cycle', { webhook_cycle_repeat: 25 }, 'webhook_cycle_repeat', 'validation.max', { max: 24 }],
    ['no name', { name: '   ' }, 'name', 'validation.required', undefined],
  ])('refuses %s with 422 on the field and writes nothing', async (_label, change, field, message, args) => {
    const before = await count('partners/carrier');
    const { status, body } = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/partners/carrier',
      body: { ...validCarrier, ...change },
    });
    expect(status).toBe(422);
    const errors = body.errors as Record<string, { message: string; args?: object }>;
    expect(errors[field].message).toBe(message);
    if (args && Object.keys(args).length) expect(errors[field].args).toEqual(args);
    expect(await count('partners/carrier')).toBe(before);
  });

  it('refuses a carrier’s own edit to a webhook URL outside loopback on a local gateway; keeps a stored one', async () => {
    // The signed-in carrier's own record.
    const stored = async () => readRecord(stack.db, 'partners/carrier', await partnerIdOf(stack.db, 'carrier'));

    const before = await stored();
    // The seeded URL is not a loopback one: a save that leaves it as it is passes.
    expect(String(before.doc.webhook_url)).not.toMatch(/127\.0\.0\.1|localhost/);
    const kept = await stack.send(carrier, {
      method: 'PATCH',
      path: 'webtool/partners/carrier',
      body: { carrier_id: 1, version: before.version, service_point_radius: 6 },
    });
    expect(kept.status).toBe(200);
    const edited = await stored();
    for (const url of ['https://hooks.nordpost.example/new', 'https://10.0.0.5/hook', 'https://[::2]/hook']) {
      const refused = await stack.send(carrier, {
        method: 'PATCH',
        path: 'webtool/partners/carrier',
        body: { carrier_id: 1, version: edited.version, webhook_url: url },
      });
      expect(refused.status).toBe(422);
      expect((refused.body.errors as Record<string, { message: string }>).webhook_url.message).toBe(
        'validation.webhook_url_loopback',
      );
    }
    expect(await stored()).toEqual(edited);
    const loopback = await stack.send(carrier, {
      method: 'PATCH',
      path: 'webtool/partners/carrier',
      body: { carrier_id: 1, version: edited.version, webhook_url: 'https://127.0.0.1:9443/nordpost' },
    });
    expect(loopback.status).toBe(200);
  });

  it('refuses a stale update with 409 and keeps the newer data', async () => {
    const created = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/partners/carrier',
      body: validCarrier,
    });
    const id = (created.body.data as { carrier_id: number }).carrier_id;
    const first = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/partners/carrier',
      body: { carrier_id: id, version: 1, name: 'First editor' },
    });
    expect(first.status).toBe(200);
    const second = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/partners/carrier',
      body: { carrier_id: id, version: 1, name: 'Second editor' },
    });
    expect(second.status).toBe(409);
    const now = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/partners/carrier',
      query: { carrier_id: id },
    });
    expect((now.body.data as { name: string }[])[0].name).toBe('First editor');
  });

  it('a carrier sees only its own carrier record; a maintenance provider none', async () => {
    const own = await stack.send(carrier, { method: 'GET', path: 'webtool/partners/carrier' });
    expect(own.status).toBe(200);
    expect((own.body.data as { carrier_id: number }[]).map((c) => c.carrier_id)).toEqual([1]);
    const other = await stack.send(maintenance, { method: 'GET', path: 'webtool/partners/carrier' });
    expect(other.status).toBe(403);
  });
});

describe('couriers', () => {
  it('a carrier lists only its own couriers, and cannot read another carrier’s by id (404)', async () => {
    const own = await stack.send(carrier, { method: 'GET', path: 'webtool/couriers', query: { limit: 100 } });
    const rows = own.body.data as { carrier_id: number }[];
    expect(own.body.total).toBe(8);
    expect(new Set(rows.map((r) => r.carrier_id))).toEqual(new Set([1]));
    const foreign = await stack.send(carrier, { method: 'GET', path: 'webtool/couriers', query: { carrier_id: 2 } });
    expect(foreign.body.total).toBe(0);
    const patch = await stack.send(carrier, {
      method: 'PATCH',
      path: 'webtool/couriers',
      body: { courier_id: 9, version: 1, phone: '+4512345678' },
    });
    expect(patch.status).toBe(404);
    const remove = await stack.send(carrier, { method: 'DELETE', path: 'webtool/couriers', body: { courier_id: 9 } });
    expect(remove.status).toBe(404);
  });

  it('a carrier creates couriers for itself only', async () => {
    const mine = await stack.send(carrier, { method: 'POST', path: 'webtool/couriers', body: { code: 'np-7777' } });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ carrier_id: 1, code: 'np-7777' });
    const forged = await stack.send(carrier, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { code: 'FJ-1', carrier_id: 2 },
    });
    expect(forged.status).toBe(403);
  });

  it('refuses a duplicate code for the same carrier, a bad phone and an unknown carrier', async () => {
    const duplicate = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { carrier_id: 1, code: 'NP-7777' },
    });
    expect(duplicate.status).toBe(422);
    expect((duplicate.body.errors as Record<string, { message: string }>).code.message).toBe(
      'catalogue.courier_code_exists',
    );
    const phone = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { carrier_id: 1, code: 'NP-8888', phone: '12-34' },
    });
    expect((phone.body.errors as Record<string, { message: string }>).phone.message).toBe('validation.mobile_format');
    const unknown = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { carrier_id: 999, code: 'NP-9999' },
    });
    expect(unknown.status).toBe(422);
  });

  it('upper-cases the code when the couriers policy says so', async () => {
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{permissions}', (
         SELECT jsonb_agg(CASE WHEN (p->>'feature_id')::int = 256
           THEN jsonb_set(p, '{configurations}', '[{"type":"uppercase_courier_code","show":true}]') ELSE p END)
         FROM jsonb_array_elements(doc->'permissions') p))
       WHERE resource = 'identity_access/roles' AND key = 'carrier_2_admin'`,
    );
    const carrier2 = await stack.signIn('carrier2');
    const created = await stack.send(carrier2, {
      method: 'POST',
      path: 'webtool/couriers',
      body: { code: 'fj-lower' },
    });
    expect(created.body.data).toMatchObject({ code: 'FJ-LOWER', carrier_id: 2 });
  });

  it('a maintenance provider may not reach couriers at all', async () => {
    expect((await stack.send(maintenance, { method: 'GET', path: 'webtool/couriers' })).status).toBe(403);
  });
});

describe('service point groups', () => {
  it('need a unique name and at least one existing service point', async () => {
    const ok = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/service_points/service_point_groups',
      body: { group_name: 'Test group', service_point_ids: [8, 18] },
    });
    expect(ok.status).toBe(201);
    const clash = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/service_points/service_point_groups',
      body: { group_name: 'test GROUP', service_point_ids: [8] },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.message).toBe('Service point group name already exists');
    const empty = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/service_points/service_point_groups',
      body: { group_name: 'Empty group', service_point_ids: [] },
    });
    expect((empty.body.errors as Record<string, { message: string }>).service_point_ids.message).toBe(
      'validation.min_items',
    );
    const unknown = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/service_points/service_point_groups',
      body: { group_name: 'Ghost group', service_point_ids: [999999] },
    });
    expect(unknown.status).toBe(422);
  });

  it('cannot be deleted while carriers use them', async () => {
    const list = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/service_points/service_point_groups',
      query: { limit: 500 },
    });
    const withCarriers = (list.body.data as { service_point_group_id: number; carrier_ids: number[] }[]).find(
      (g) => g.carrier_ids.length > 0,
    )!;
    const refused = await stack.send(operator, {
      method: 'DELETE',
      path: 'webtool/service_points/service_point_groups',
      body: { service_point_group_id: withCarriers.service_point_group_id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Active shipments or carriers block service point group deletion');
    const still = await stack.send(operator, {
      method: 'GET',
      path: 'webtool/service_points/service_point_groups',
      query: { service_point_group_id: withCarriers.service_point_group_id },
    });
    expect(still.body.total).toBe(1);
  });

  it('are for the operator only', async () => {
    const response = await stack.send(carrier, { method: 'GET', path: 'webtool/service_points/service_point_groups' });
    expect(response.status).toBe(403);
  });
});
