import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { countRecords } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
});
afterAll(() => stack.close());

type Row = Record<string, unknown>;

async function list(path: string, query: Record<string, string | number> = {}, session = operator) {
  const { status, body } = await stack.send(session, { method: 'GET', path, query: { limit: 1000, ...query } });
  return { status, body, rows: (body.data ?? []) as Row[], total: body.total as number };
}

const servicePoints = (query: Record<string, string | number>) => list('webtool/service_points', query);

describe('lookup lists of partners and groups', () => {
  it.each([
    ['location_owners', 'Coop Nord', 1],
    ['maintenance_providers', 'FixIt Services', 1],
    ['support_providers', 'HelpDesk Nordic', 1],
    ['hardware_owners', 'LockerWorks', 1],
    ['carrier_list', 'NordPost', 1],
    ['service_point_groups', 'København central', 1],
  ])('%s names its records, ordered by name', async (type, name, id) => {
    const { status, rows } = await list('webtool/lists', { type });
    expect(status).toBe(200);
    // A carrier also carries its colour (see service-point-hardware-tab.test.ts).
    expect(rows).toContainEqual(expect.objectContaining({ column_id: id, column_name: name }));
    const names = rows.map((row) => String(row.column_name).toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('partner names are those of the partners whose users the caller sees', async () => {
    const everyone = await list('webtool/lists', { type: 'partner_names' });
    expect(everyone.rows).toContainEqual({ column_id: 'Infinity Lockers', column_name: 'Infinity Lockers' });
    expect(everyone.rows).toContainEqual({ column_id: 'Coop Nord', column_name: 'Coop Nord' });
    const own = await list('webtool/lists', { type: 'partner_names' }, await stack.signIn('carrier2'));
    expect(own.rows).toEqual([{ column_id: 'FjordFrakt', column_name: 'FjordFrakt' }]);
  });

  it('are there for every partner type, as lookups are', async () => {
    const { status, rows } = await list('webtool/lists', { type: 'carrier_list' }, await stack.signIn('locationowner'));
    expect(status).toBe(200);
    expect(rows.length).toBe(6);
  });
});

describe('service point filters narrow the list', () => {
  let all: number;
  beforeAll(async () => {
    all = (await servicePoints({ limit: 1 })).total;
  });

  it.each([
    ['status', 7],
    ['country', 'NO'],
    ['location_type_id', 2],
    ['location_owner_id', 1],
    ['maintenance_provider_id', 2],
    ['support_provider_id', 1],
    ['parked', 'true'],
    ['test_sp', 'true'],
    ['is_terminated', 'true'],
    ['service_point_group_id', 1],
  ])('%s=%s gives only, and all, the matching service points', async (field, value) => {
    const { status, rows, total } = await servicePoints({ [field]: value, limit: 1000 });
    expect(status).toBe(200);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(all);
    const expected = value === 'true' ? true : value;
    expect(rows.filter((row) => row[field] !== expected)).toEqual([]);
    expect(total).toBe(await countRecords(stack.db, 'service_points', { [field]: expected }));
  });

  it('terminated gives the terminated service points, and false the others', async () => {
    const terminated = await countRecords(stack.db, 'service_points', { is_terminated: true });

    expect(terminated).toBeGreaterThan(0);
    expect((await servicePoints({ is_terminated: 'true' })).total).toBe(terminated);
    expect((await servicePoints({ is_terminated: 'false' })).total).toBe(all - terminated);
  });

  it('city matches whatever the case', async () => {
    const upper = await servicePoints({ city: 'AARHUS' });
    const lower = await servicePoints({ city: 'aarhus' });
    expect(upper.total).toBeGreaterThan(0);
    expect(lower.total).toBe(upper.total);
    expect(new Set(upper.rows.map((row) => row.city))).toEqual(new Set(['Aarhus']));
    expect((await servicePoints({ city: 'Aar' })).total).toBe(0);
  });

  it('carrier gives the service points open to that carrier', async () => {
    const { rows, total } = await servicePoints({ carriers_access: 5 });
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(all);
    expect(rows.filter((row) => !(row.carriers_access as number[]).includes(5))).toEqual([]);
  });

  it('filters combine', async () => {
    const { rows, total } = await servicePoints({ status: 7, location_owner_id: 2, country: 'DK' });
    expect(total).toBeGreaterThan(0);
    expect(rows.every((row) => row.status === 7 && row.location_owner_id === 2 && row.country === 'DK')).toBe(true);
  });

  it.each([
    ['status', 'seven'],
    ['parked', 'maybe'],
    ['is_terminated', 'yes please'],
    ['carriers_access', 'NordPost'],
    ['location_owner_id', '1; DROP TABLE records'],
    ['no_such_field', '1'],
  ])('%s=%s is a clean 400', async (field, value) => {
    const { status, body } = await servicePoints({ [field]: value });
    expect(status).toBe(400);
    expect(body.success).toBe(false);
  });

  it.each([
    ['status', 99],
    ['location_owner_id', 999],
    ['service_point_group_id', 999],
    ['carriers_access', 999],
    ['country', 'XX'],
    ['city', "O'Brien%"],
  ])('%s=%s matches nothing', async (field, value) => {
    const { status, total } = await servicePoints({ [field]: value });
    expect(status).toBe(200);
    expect(total).toBe(0);
  });
});

describe('carrier, courier and user filters', () => {
  it('carriers by active and country', async () => {
    const { rows, total } = await list('webtool/partners/carrier', { primary_country_code: 'NO' });
    const all = await list('webtool/partners/carrier');
    expect(total).toBeLessThan(all.total);
    expect(rows.every((row) => row.primary_country_code === 'NO')).toBe(true);
    expect((await list('webtool/partners/carrier', { active: 'true' })).total).toBe(all.total);
    expect((await list('webtool/partners/carrier', { active: 'false' })).total).toBe(0);
  });

  it('couriers by carrier, box inspection and active', async () => {
    const byCarrier = await list('webtool/couriers', { carrier_id: 2 });
    expect(byCarrier.total).toBe(8);
    expect(byCarrier.rows.every((row) => row.carrier_id === 2)).toBe(true);
    const inspected = await list('webtool/couriers', { box_inspection: 'true' });
    expect(inspected.total).toBeGreaterThan(0);
    expect(inspected.rows.every((row) => row.box_inspection === true)).toBe(true);
    expect((await list('webtool/couriers', { box_inspection: 'sometimes' })).status).toBe(400);
  });

  it('webtool users by partner type, role and status, each showing its partner by name', async () => {
    const carriers = await list('webtool/identity_access/users', { partner_type: 'carrier' });
    expect(carriers.total).toBeGreaterThan(0);
    expect(carriers.rows.every((row) => row.partner_type === 'carrier')).toBe(true);
    expect(carriers.rows.find((row) => row.username === 'carrier')?.partner_name).toBe('NordPost');
    expect(carriers.rows.find((row) => row.username === 'carrier2')?.partner_name).toBe('FjordFrakt');

    const operators = await list('webtool/identity_access/users', { role_name: 'operator_infinity_admin' });
    expect(operators.rows.map((row) => row.username)).toContain('operator');
    expect(operators.rows.every((row) => row.partner_name === 'Infinity Lockers')).toBe(true);

    const nordPost = await list('webtool/identity_access/users', { partner_name: 'NordPost' });
    expect(nordPost.rows.map((row) => row.username)).toContain('carrier');
    expect(nordPost.rows.every((row) => row.partner_type === 'carrier' && row.partner === '1')).toBe(true);

    const confirmed = await list('webtool/identity_access/users', { status: 'CONFIRMED' });
    expect(confirmed.total).toBeGreaterThan(0);
    expect(confirmed.rows.every((row) => row.status === 'CONFIRMED')).toBe(true);
    expect((await list('webtool/identity_access/users', { enabled: 'often' })).status).toBe(400);
  });
});

describe('a service point names only partners, groups and carriers that exist', () => {
  async function edit(changes: Row) {
    const { rows } = await servicePoints({ service_point_id: 2 });
    const [record] = rows;
    return stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/service_points',
      body: { ...changes, service_point_id: 2, version: record.version },
    });
  }

  it.each([
    ['location_owner_id', 999],
    ['maintenance_provider_id', 999],
    ['support_provider_id', 999],
    ['service_point_group_id', 999],
    ['carriers_access', [1, 999]],
  ])('an unknown %s is refused with a translated message, and nothing is saved', async (field, value) => {
    const before = (await servicePoints({ service_point_id: 2 })).rows[0];
    const { status, body } = await edit({ [field]: value });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ [field]: { message: 'validation.unknown_reference' } });
    expect((await servicePoints({ service_point_id: 2 })).rows[0]).toEqual(before);
  });

  it('a known one is saved', async () => {
    const { status, body } = await edit({
      location_owner_id: 3,
      carriers_access: [2, 4],
      carrier_settings: [],
      service_point_group_id: 2,
    });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ location_owner_id: 3, carriers_access: [2, 4], service_point_group_id: 2 });
  });
});

describe('a service point naming a partner removed since', () => {
  it('can still be edited; only a new unknown id is refused', async () => {
    await stack.db.query(
      `UPDATE records SET doc = jsonb_set(doc, '{support_provider_id}', '77') WHERE resource = 'service_points' AND key = '5'`,
    );
    const [record] = (await servicePoints({ service_point_id: 5 })).rows;
    const { status } = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/service_points',
      body: { service_point_id: 5, version: record.version, comments: 'Checked on site' },
    });
    expect(status).toBe(200);
  });
});
