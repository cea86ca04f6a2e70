import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { Compartment } from '../../src/types/generated/compartment.ts';
import type { HardwareUnit } from '../../src/types/generated/hardware-unit.ts';
import { refreshHardwareUnits } from '../../server/gateway/rules/shared/hardware-store.ts';
import { hardwareModels } from '../../server/seed/hardware-catalogue.ts';
import common from '../../schemas/common.schema.json';
import { startStack, type Stack } from './support/stack.ts';
import { refusalChecks, type ExpectRefused } from './support/refusals.ts';
import { signInAll } from './support/sessions.ts';

type Doc = Record<string, unknown>;
type Unit = HardwareUnit & { version: number };

const UNITS = 'webtool/service_points/hardware_units';
const SERVICE_POINTS = 'webtool/service_points';

let stack: Stack;
let expectRefused: ExpectRefused;
let sessions: Record<string, SigningSession>;

beforeAll(async () => {
  stack = await startStack();
  ({ expectRefused } = await refusalChecks(stack.db));
  sessions = await signInAll(stack, ['operator', 'hardware', 'carrier', 'support', 'locationowner', 'maintenance']);
});
afterAll(() => stack.close());

const get = (user: string, path: string, query: Record<string, string | number> = {}) =>
  stack.send(sessions[user], {
    method: 'GET',
    path,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
const write = (user: string, method: 'POST' | 'PATCH' | 'DELETE', body: Doc, path = UNITS) =>
  stack.send(sessions[user], { method, path, body });

async function units(where: string, params: unknown[] = [], limit = 100_000) {
  const found = await stack.db.query<{ doc: HardwareUnit; version: number }>(
    `SELECT doc, version FROM records WHERE resource = 'service_points/hardware_units' AND ${where}
     ORDER BY (doc->>'hardware_id')::int LIMIT ${limit}`,
    params,
  );
  return found.rows.map((row) => ({ ...row.doc, version: row.version }) as Unit);
}
const unit = async (where: string, params: unknown[] = []) => (await units(where, params, 1))[0];
const warehouseUnit = (owner = 1) =>
  unit(`doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean AND doc->>'hardware_owner_id' = $1`, [
    String(owner),
  ]);
const installedUnit = () => unit(`(doc->>'status')::int = 4`);

async function compartmentsOf(hardwareId: number) {
  const found = await stack.db.query<{ doc: Compartment }>(
    // In the grid's order: the table keeps rows in no particular order.
    `SELECT doc FROM records WHERE resource = 'compartments' AND doc->>'hardware_id' = $1
      ORDER BY (doc->>'column')::int, (doc->>'position')::int`,
    [String(hardwareId)],
  );
  return found.rows.map((row) => row.doc);
}

const newUnit = (overrides: Doc = {}) => ({
  name: 'Test locker Aarhus',
  hardware_type: 1,
  hardware_model_id: 3,
  hardware_owner_id: 2,
  serial_ids: ['LW999001'],
  firmware_version: '4.3.2',
  warranty_expiry_date: '2099-12-31',
  ...overrides,
});

describe('the demo network’s hardware', () => {
  it('represents every one of the sixteen badges', async () => {
    const found = await stack.db.query<{ badge: string }>(
      `SELECT DISTINCT jsonb_array_elements_text(doc->'badges_v2') AS badge FROM records
       WHERE resource = 'service_points/hardware_units'`,
    );
    expect(found.rows.map((row) => row.badge).sort()).toEqual([...common.$defs.hardwareBadge.enum].sort());
  });

  it('gives every service point from ready for installation to inactive 1 to 7 units, within its maximum', async () => {
    const found = await stack.db.query<{ status: number; units: string; max: number }>(
      `WITH counted AS (
         SELECT doc->>'service_point_id' AS sp, count(*) AS n FROM records
         WHERE resource = 'service_points/hardware_units' GROUP BY 1
       )
       SELECT (sp.doc->>'status')::int AS status, (sp.doc->>'max_hardware_units')::int AS max,
              coalesce(counted.n, 0) AS units
       FROM records sp LEFT JOIN counted ON counted.sp = sp.key WHERE sp.resource = 'service_points'`,
    );
    const wrong = found.rows.filter((row) => {
      const count = Number(row.units);
      if (row.status >= 5 && row.status <= 8) return count < 1 || count > 7 || count > row.max;
      return count !== 0;
    });
    expect(wrong).toEqual([]);
    expect(new Set(found.rows.map((row) => Number(row.units))).size).toBeGreaterThanOrEqual(5);
  });

  it('fills compartment grids from the models, with parcels, reservations, faults and the rest', async () => {
    const found = await stack.db.query<{ flag: string; n: string }>(
      `SELECT flag, count(*) AS n FROM records, LATERAL (VALUES ('is_occupied'), ('is_reserved'), ('is_faulty'),
         ('is_disabled'), ('is_inactive_comp'), ('is_locked')) AS flags(flag)
       WHERE resource = 'compartments' AND (doc->>flag)::boolean GROUP BY flag`,
    );
    expect(found.rows.map((row) => row.flag).sort()).toEqual(
      ['is_disabled', 'is_faulty', 'is_inactive_comp', 'is_locked', 'is_occupied', 'is_reserved'].sort(),
    );
    const sample = await installedUnit();
    const grid = await compartmentsOf(sample.hardware_id!);
    const model = hardwareModels.find((m) => m.hardware_model_id === sample.hardware_model_id)!;
    expect(grid).toHaveLength(model.layout.flatMap((column) => column.sizes).length);
    expect(sample.compartment_count).toBe(grid.length);
    expect(sample.compartment_fault_count).toBe(grid.filter((c) => c.is_faulty).length);
    const pieces = await stack.db.query<{ piece: string }>(
      `SELECT doc->>'piece_id' AS piece FROM records WHERE resource = 'compartments' AND doc->>'piece_id' IS NOT NULL`,
    );
    expect(pieces.rows.length).toBeGreaterThan(0);
    expect(new Set(pieces.rows.map((row) => row.piece)).size).toBe(pieces.rows.length);
    // Every parcel in a compartment is a stored piece (issue 16's piece store keeps them in step).
    const stray = await stack.db.query(
      `SELECT c.key FROM records c WHERE c.resource = 'compartments' AND c.doc->>'piece_id' IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM records p WHERE p.resource = 'shipments' AND p.key = c.doc->>'piece_id')`,
    );
    expect(stray.rows).toEqual([]);
  });

  it('spreads units over several owners, the demo hardware owner holding a fair share', async () => {
    const found = await stack.db.query<{ owner: string; n: string }>(
      `SELECT doc->>'hardware_owner_id' AS owner, count(*) AS n FROM records
       WHERE resource = 'service_points/hardware_units' GROUP BY 1 ORDER BY 1`,
    );
    expect(found.rows.map((row) => row.owner)).toEqual(['1', '2', '3']);
    const total = found.rows.reduce((sum, row) => sum + Number(row.n), 0);
    expect(Number(found.rows[0].n) / total).toBeGreaterThan(0.35);
  });
});

describe('the demo roles', () => {
  it('let the hardware owner and the operator staff reach hardware (190/191) and PIN pads (254)', async () => {
    const found = await stack.db.query<{ key: string; features: number[] }>(
      `SELECT key, array(SELECT (p->>'feature_id')::int FROM jsonb_array_elements(doc->'permissions') p) AS features
       FROM records WHERE resource = 'identity_access/roles'
         AND key IN ('hardware_provider_1_admin', 'operator_infinity_admin', 'operator_infinity_analyst')`,
    );
    expect(found.rows).toHaveLength(3);
    for (const role of found.rows) expect(role.features).toEqual(expect.arrayContaining([190, 191, 254]));
  });
});

describe('the hardware list', () => {
  it("answers pages of the spec's hardware list size (100) when asked, with the total", async () => {
    // The app opens a list at a page that fits a screen (issue 24); the spec's 100 stays a page size to ask for.
    const answer = await get('operator', UNITS, { limit: 100 });
    expect(answer.status).toBe(200);
    expect(answer.body.data as Doc[]).toHaveLength(100);
    expect(answer.body.total).toBe((await units('true')).length);
  });

  it('filters by a badge in the array, status, owner and model, and searches the name', async () => {
    const byBadge = await get('operator', UNITS, { badges_v2: 'low_battery', limit: 1000 });
    const lowBattery = byBadge.body.data as Unit[];
    expect(lowBattery.length).toBeGreaterThan(0);
    expect(lowBattery.every((u) => u.badges_v2!.includes('low_battery'))).toBe(true);
    expect(byBadge.body.total).toBe((await units(`doc->'badges_v2' ? 'low_battery'`)).length);

    const filtered = await get('operator', UNITS, { status: 4, hardware_owner_id: 2, hardware_model_id: 3 });
    const rows = filtered.body.data as Unit[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((u) => u.status === 4 && u.hardware_owner_id === 2 && u.hardware_model_id === 3)).toBe(true);

    const sample = await installedUnit();
    const searched = await get('operator', UNITS, { search: sample.name });
    expect((searched.body.data as Unit[]).map((u) => u.hardware_id)).toContain(sample.hardware_id);
  });

  it('refuses a filter value of the wrong type and an unknown filter', async () => {
    expect((await get('operator', UNITS, { status: 'active' })).status).toBe(400);
    expect((await get('operator', UNITS, { colour: 'red' })).status).toBe(400);
  });

  it('reads one unit by its id', async () => {
    const sample = await installedUnit();
    const answer = await get('operator', UNITS, { hardware_id: sample.hardware_id! });
    expect(answer.body.data).toEqual([sample]);
  });
});

describe('creating and editing a hardware unit', () => {
  it('starts a new unit in the warehouse with its model’s compartments and the gateway’s own fields', async () => {
    const answer = await write('operator', 'POST', {
      ...newUnit(),
      status: 4,
      badges_v2: ['all_ok'],
      compartment_count: 99,
      service_point_id: null,
      battery_level: 5,
    });
    expect(answer.status).toBe(201);
    const created = answer.body.data as Unit & { battery_level: unknown };
    const model = hardwareModels.find((m) => m.hardware_model_id === 3)!;
    const size = model.layout.flatMap((column) => column.sizes).length;
    expect(created).toMatchObject({
      status: 1,
      model_name: 'Standard 4',
      badges_v2: ['unassigned', 'license_badge'],
      compartment_count: size,
      compartment_fault_count: 0,
      warranty_expiry_badge: 2,
      battery_warranty_badge: 1,
      is_terminated: false,
      alert: false,
      service_point_id: null,
      battery_level: null,
    });
    const grid = await compartmentsOf(created.hardware_id!);
    expect(grid).toHaveLength(size);
    expect(grid.map((c) => `${c.column}.${c.position}.${c.size}`)).toEqual(
      model.layout.flatMap((column, x) => column.sizes.map((s, y) => `${x + 1}.${y + 1}.${s}`)),
    );
    expect(grid.every((c) => c.is_free && !c.is_occupied)).toBe(true);
  });

  it('refuses an unknown model, a PIN pad model for a locker, and an unknown hardware type', async () => {
    const unknown = await expectRefused(() => write('operator', 'POST', newUnit({ hardware_model_id: 999 })), 422, {
      message: 'Save failed, check the fields in error state',
    });
    expect(unknown.errors).toEqual({ hardware_model_id: { message: 'validation.unknown_reference' } });
    const mismatch = await expectRefused(() => write('operator', 'POST', newUnit({ hardware_model_id: 6 })), 422, {
      message: 'The model does not fit this kind of hardware',
      key: 'catalogue.hw_model_mismatch',
    });
    expect(mismatch.errors).toEqual({ hardware_model_id: { message: 'catalogue.hw_model_mismatch' } });
    const badType = await expectRefused(() => write('operator', 'POST', newUnit({ hardware_type: 3 })), 422, {
      message: 'Save failed, check the fields in error state',
    });
    expect(Object.keys(badType.errors as Doc)).toEqual(['hardware_type']);
    const badOwner = await expectRefused(() => write('operator', 'POST', newUnit({ hardware_owner_id: 99 })), 422, {
      message: 'Save failed, check the fields in error state',
    });
    expect(badOwner.errors).toEqual({ hardware_owner_id: { message: 'validation.unknown_reference' } });
  });

  it('refuses to take a unit away other than by ticket, and to plan one where the status does not allow it', async () => {
    // Service point 3 is Qualified (demo statuses run 0-9 by id): too early for hardware.
    await expectRefused(() => write('operator', 'POST', newUnit({ service_point_id: 3 })), 409, {
      message: 'Service point status is not ready for hardware to add',
      key: 'service_points.hardware.errors.sp_hw_status_not_ready',
    });
    const installed = await installedUnit();
    await expectRefused(
      () =>
        write('operator', 'PATCH', {
          hardware_id: installed.hardware_id,
          version: installed.version,
          service_point_id: null,
        }),
      409,
      {
        message: 'Hardware leaves a service point only through an uninstall ticket',
        key: 'catalogue.hw_detach_by_ticket',
      },
    );
    const spare = await warehouseUnit();
    await expectRefused(
      () => write('operator', 'PATCH', { hardware_id: spare.hardware_id, version: spare.version, service_point_id: 3 }),
      409,
      { message: 'Service point status is not ready for hardware to add' },
    );
    // Sending the same service point back, as an edit form does, is no change.
    const same = await write('operator', 'PATCH', {
      hardware_id: installed.hardware_id,
      version: installed.version,
      service_point_id: installed.service_point_id,
      note: 'Door 3 sticks in frost',
    });
    expect(same.status).toBe(200);
  });

  it('saves an edit based on the current version and refuses a stale one with 409', async () => {
    const spare = await warehouseUnit(2);
    const saved = await write('operator', 'PATCH', {
      hardware_id: spare.hardware_id,
      version: spare.version,
      sub_id: 'NEW-SUB',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ sub_id: 'NEW-SUB', version: spare.version + 1, status: 1 });
    await expectRefused(
      () => write('operator', 'PATCH', { hardware_id: spare.hardware_id, version: spare.version, sub_id: 'OTHER' }),
      409,
      {
        message: 'This record was changed by someone else. Reload it to see the changes.',
        key: 'catalogue.stale_version',
      },
    );
  });

  it('makes new compartments when the model changes, and refuses that while a parcel is inside', async () => {
    const spare = await warehouseUnit(3);
    const changed = await write('operator', 'PATCH', {
      hardware_id: spare.hardware_id,
      version: spare.version,
      hardware_model_id: 1,
    });
    expect(changed.status).toBe(200);
    expect((await compartmentsOf(spare.hardware_id!)).length).toBe(9);
    expect(changed.body.data).toMatchObject({ model_name: 'Compact 2', compartment_count: 9 });

    const [first] = await compartmentsOf(spare.hardware_id!);
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_occupied": true, "is_free": false, "piece_id": "37041000000000001"}'
       WHERE resource = 'compartments' AND key = $1`,
      [String(first.compartment_id)],
    );
    await expectRefused(
      () =>
        write('operator', 'PATCH', {
          hardware_id: spare.hardware_id,
          version: (changed.body.data as Unit).version,
          hardware_model_id: 2,
        }),
      409,
      {
        message: 'The hardware unit cannot be removed as it contains one or more parcels',
        key: 'catalogue.hw_contains_parcels',
      },
    );
  });
});

describe('terminating a hardware unit', () => {
  const terminate = (user: string, target: Unit) =>
    write(user, 'PATCH', { hardware_id: target.hardware_id, version: target.version, opname: 'terminate_hardware' });

  it('is refused while the unit is installed or planned at a service point', async () => {
    for (const target of [await installedUnit(), await unit(`(doc->>'status')::int = 2`)]) {
      await expectRefused(() => terminate('operator', target), 409, {
        message: 'Hardware unit requires uninstallation from service point',
        key: 'catalogue.hw_requires_uninstall',
      });
    }
  });

  it('is permanent: the unit is then refused every change and a second termination', async () => {
    const spare = await warehouseUnit();
    const answer = await terminate('operator', spare);
    expect(answer.status).toBe(200);
    const terminated = answer.body.data as Unit;
    expect(terminated).toMatchObject({ is_terminated: true, status: 5, badges_v2: ['is_terminated'] });
    const audit = await stack.db.query<{ changes: Doc }>(
      `SELECT changes FROM audit_log WHERE resource = 'service_points/hardware_units' AND key = $1 ORDER BY id DESC LIMIT 1`,
      [String(spare.hardware_id)],
    );
    expect(audit.rows[0].changes.is_terminated).toEqual({ from: false, to: true });

    await expectRefused(() => terminate('operator', terminated), 409, {
      message: 'A terminated hardware unit cannot be changed',
      key: 'catalogue.hw_terminated',
    });
    await expectRefused(
      () =>
        write('operator', 'PATCH', { hardware_id: spare.hardware_id, version: terminated.version, name: 'Revived' }),
      409,
      { message: 'A terminated hardware unit cannot be changed', key: 'catalogue.hw_terminated' },
    );
  });

  it('is refused for a unit the caller cannot see, and for a stale version', async () => {
    const foreign = await warehouseUnit(2);
    await expectRefused(() => terminate('hardware', foreign), 404, { message: 'Record not found.' });
    await expectRefused(() => terminate('operator', { ...foreign, version: foreign.version - 1 }), 409, {
      message: 'This record was changed by someone else. Reload it to see the changes.',
    });
  });
});

describe('an open ticket on a unit', () => {
  it('refuses terminating and deleting it while the ticket is open, open on hold or waiting for a photo', async () => {
    const spare = await warehouseUnit();
    for (const status of [1, 3, 4]) {
      await stack.db.query(`DELETE FROM records WHERE resource = 'maintenance/tickets'`);
      await stack.db.query(`INSERT INTO records (resource, key, doc) VALUES ('maintenance/tickets', '1', $1)`, [
        JSON.stringify({ ticket_id: 1, hardware_unit_id: spare.hardware_id, status }),
      ]);
      await expectRefused(
        () =>
          write('operator', 'PATCH', {
            hardware_id: spare.hardware_id,
            version: spare.version,
            opname: 'terminate_hardware',
          }),
        409,
        { message: 'This hardware unit has an open ticket', key: 'catalogue.hw_open_ticket' },
      );
      await expectRefused(
        () => write('operator', 'DELETE', { hardware_id: spare.hardware_id, partner_id: spare.hardware_owner_id }),
        409,
        { message: 'This hardware unit has an open ticket', key: 'catalogue.hw_open_ticket' },
      );
    }
    await stack.db.query(`UPDATE records SET doc = doc || '{"status": 2}' WHERE resource = 'maintenance/tickets'`);
    const closed = await write('operator', 'PATCH', {
      hardware_id: spare.hardware_id,
      version: spare.version,
      opname: 'terminate_hardware',
    });
    expect(closed.status).toBe(200);
    await stack.db.query(`DELETE FROM records WHERE resource = 'maintenance/tickets'`);
  });
});

describe('deleting a hardware unit', () => {
  it('needs partner_id, the unit’s owner', async () => {
    const spare = await warehouseUnit(2);
    await expectRefused(() => write('operator', 'DELETE', { hardware_id: spare.hardware_id }), 400, {
      message: 'partner_id is required.',
      key: 'gateway.param_required',
    });
    await expectRefused(() => write('operator', 'DELETE', { hardware_id: spare.hardware_id, partner_id: 1 }), 400, {
      message: 'partner_id must be the hardware owner of the record to delete',
      key: 'catalogue.hw_partner_mismatch',
    });
  });

  it('is refused while the unit is installed or holds a parcel', async () => {
    const installed = await installedUnit();
    await expectRefused(
      () =>
        write('operator', 'DELETE', { hardware_id: installed.hardware_id, partner_id: installed.hardware_owner_id }),
      409,
      { message: 'Hardware unit requires uninstallation from service point', key: 'catalogue.hw_requires_uninstall' },
    );
    const spare = await warehouseUnit(2);
    const [first] = await compartmentsOf(spare.hardware_id!);
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"is_occupied": true, "is_free": false, "piece_id": "37041000000000002"}'
       WHERE resource = 'compartments' AND key = $1`,
      [String(first.compartment_id)],
    );
    await expectRefused(
      () => write('operator', 'DELETE', { hardware_id: spare.hardware_id, partner_id: spare.hardware_owner_id }),
      409,
      {
        message: 'The hardware unit cannot be removed as it contains one or more parcels',
        key: 'catalogue.hw_contains_parcels',
      },
    );
  });

  it('removes the unit with its compartments, audited', async () => {
    const created = (await write('hardware', 'POST', newUnit({ hardware_owner_id: undefined }))).body.data as Unit;
    expect(created.hardware_owner_id).toBe(1);
    expect((await compartmentsOf(created.hardware_id!)).length).toBeGreaterThan(0);
    const answer = await write('hardware', 'DELETE', { hardware_id: created.hardware_id, partner_id: 1 });
    expect(answer.status).toBe(200);
    expect(await units(`key = $1`, [String(created.hardware_id)])).toEqual([]);
    expect(await compartmentsOf(created.hardware_id!)).toEqual([]);
    const audit = await stack.db.query(
      `SELECT 1 FROM audit_log WHERE resource = 'service_points/hardware_units' AND key = $1 AND action = 'delete'`,
      [String(created.hardware_id)],
    );
    expect(audit.rows).toHaveLength(1);
  });
});

describe('who sees and changes hardware', () => {
  it('shows a hardware owner only its own units, and refuses it another owner’s', async () => {
    const listed = await get('hardware', UNITS, { limit: 1000 });
    expect(listed.status).toBe(200);
    expect((listed.body.data as Unit[]).every((u) => u.hardware_owner_id === 1)).toBe(true);
    expect(listed.body.total).toBe((await units(`doc->>'hardware_owner_id' = '1'`)).length);
    const foreign = await warehouseUnit(2);
    expect((await get('hardware', UNITS, { hardware_id: foreign.hardware_id! })).body.data).toEqual([]);
    await expectRefused(() => write('hardware', 'POST', newUnit({ hardware_owner_id: 2 })), 403, {
      message: 'You have no permission for this request.',
    });
    await expectRefused(() => write('hardware', 'DELETE', { hardware_id: foreign.hardware_id, partner_id: 2 }), 404, {
      message: 'Record not found.',
    });
  });

  it.each(['carrier', 'support', 'locationowner'])('refuses %s the hardware endpoint', async (user) => {
    expect((await get(user, UNITS)).status).toBe(403);
    expect((await get(user, UNITS, { opname: 'warehouse' })).status).toBe(403);
    await expectRefused(() => write(user, 'POST', newUnit()), 403, {
      message: 'You have no permission for this request.',
    });
  });
});

describe('hardware models and the warehouse', () => {
  it('lists the models of a kind, 100 at most, with their layouts', async () => {
    const lockers = await get('operator', UNITS, { opname: 'hardware_models', limit: 100, hardware_type: 1 });
    expect(lockers.status).toBe(200);
    const models = lockers.body.data as {
      hardware_model_id: number;
      name: string;
      hardware_type: number;
      layout: { sizes: string[] }[];
    }[];
    expect(models.map((m) => m.name)).toEqual(['Compact 2', 'City 3', 'Standard 4', 'Outdoor 5', 'Station XL 6']);
    expect(models.every((m) => m.hardware_type === 1 && m.layout.length >= 2 && m.layout.length <= 6)).toBe(true);
    const pads = await get('hardware', UNITS, { opname: 'hardware_models', hardware_type: 2 });
    expect((pads.body.data as { name: string }[]).map((m) => m.name)).toEqual([
      'PinPad P2',
      'PinPad P3 BLE',
      'PinPad Lite',
    ]);
    expect((await get('operator', UNITS, { opname: 'hardware_models', limit: 2 })).body.data as Doc[]).toHaveLength(2);
  });

  it.each([
    [{ hardware_type: 3 }, 'hardware_type must be one of: 1, 2.'],
    [{ hardware_type: 'locker' }, 'hardware_type must be one of: 1, 2.'],
    [{ limit: 101 }, 'limit must be a whole number from 1 to 100.'],
    [{ limit: 0 }, 'limit must be a whole number from 1 to 100.'],
  ])('refuses the query %o with 400', async (query, message) => {
    const answer = await get('operator', UNITS, { opname: 'hardware_models', ...query });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
  });

  it('answers the warehouse, the caller’s units at no service point, plain or gzipped', async () => {
    const plain = await get('hardware', UNITS, { opname: 'warehouse' });
    expect(plain.status).toBe(200);
    const rows = plain.body.data as Unit[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((u) => u.service_point_id === null && !u.is_terminated && u.hardware_owner_id === 1)).toBe(true);
    const expected = await units(
      `doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean AND doc->>'hardware_owner_id' = '1'`,
    );
    expect(rows).toEqual(expected);

    const packed = await get('hardware', UNITS, { opname: 'warehouse', compressed: 'true' });
    expect(packed.body.compressed).toBe('gzip-base64');
    expect(JSON.parse(gunzipSync(Buffer.from(packed.body.data as string, 'base64')).toString('utf8'))).toEqual(rows);
    expect((await get('hardware', UNITS, { opname: 'warehouse', compressed: 'yes' })).status).toBe(400);
  });
});

describe('a service point’s hardware', () => {
  async function servicePointWithUnits(status: number) {
    return (
      await unit(
        `(SELECT (doc->>'status')::int FROM records sp WHERE sp.resource = 'service_points'
       AND sp.key = records.doc->>'service_point_id') = $1`,
        [status],
      )
    ).service_point_id!;
  }

  it('gives who may read hardware the units of a service point they see, with their compartments, in grid order', async () => {
    const servicePointId = await servicePointWithUnits(7);
    const expected = await units(`doc->>'service_point_id' = $1`, [String(servicePointId)]);
    for (const user of ['operator', 'hardware']) {
      const answer = await get(user, SERVICE_POINTS, { opname: 'get_compartments', service_point_id: servicePointId });
      expect(answer.status).toBe(200);
      const data = answer.body.data as {
        hardware_id: number;
        name: string;
        model_name: string;
        compartments: Compartment[];
      }[];
      expect(data.map((u) => u.hardware_id)).toEqual(expected.map((u) => u.hardware_id));
      expect(data[0].model_name).toBe(expected[0].model_name);
      const order = data[0].compartments.map((c) => [c.column, c.position]);
      expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
      expect(data[0].compartments.length).toBe(expected[0].compartment_count);
    }
    const listed = await get('hardware', SERVICE_POINTS, {
      opname: 'hardware_units',
      service_point_id: servicePointId,
    });
    expect(listed.body.data).toEqual(expected);
  });

  it('refuses the Hardware units tab’s calls to who may not read hardware, though they see the service point', async () => {
    const servicePointId = await servicePointWithUnits(7);
    const installed = await installedUnit();
    expect((await get('carrier', SERVICE_POINTS, { service_point_id: servicePointId })).status).toBe(200);
    const queries: Record<string, string | number>[] = [
      { opname: 'get_compartments', service_point_id: servicePointId },
      { opname: 'hardware_units', service_point_id: servicePointId },
      { opname: 'get_compartments', hardware_id: installed.hardware_id! },
    ];
    for (const query of queries) {
      const refused = await get('carrier', SERVICE_POINTS, query);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('You have no permission for this request.');
    }
  });

  it('gives one unit’s compartments to who may read the unit or see its service point, else 404', async () => {
    const installed = await installedUnit();
    expect(
      (await get('operator', SERVICE_POINTS, { opname: 'get_compartments', hardware_id: installed.hardware_id! }))
        .status,
    ).toBe(200);
    const spare = await warehouseUnit(2);
    expect(
      (await get('operator', SERVICE_POINTS, { opname: 'get_compartments', hardware_id: spare.hardware_id! })).status,
    ).toBe(200);
    const answer = await get('hardware', SERVICE_POINTS, {
      opname: 'get_compartments',
      hardware_id: spare.hardware_id!,
    });
    expect(answer.status).toBe(404);
    const own = await warehouseUnit(1);
    const mine = await get('hardware', SERVICE_POINTS, { opname: 'get_compartments', hardware_id: own.hardware_id! });
    expect((mine.body.data as { compartments: Compartment[] }[])[0].compartments).toHaveLength(own.compartment_count!);
  });

  it('refuses the hardware of a service point to who may not read hardware, and bad parameters', async () => {
    const hidden = await stack.db.query<{ key: string }>(
      `SELECT sp.key FROM records sp WHERE sp.resource = 'service_points' AND sp.doc->>'location_owner_id' <> '1'
         AND EXISTS (SELECT 1 FROM records hw WHERE hw.resource = 'service_points/hardware_units' AND hw.doc->>'service_point_id' = sp.key)
       LIMIT 1`,
    );
    const id = hidden.rows[0].key;
    for (const user of ['locationowner', 'maintenance']) {
      expect((await get(user, SERVICE_POINTS, { opname: 'get_compartments', service_point_id: id })).status).toBe(403);
      expect((await get(user, SERVICE_POINTS, { opname: 'hardware_units', service_point_id: id })).status).toBe(403);
    }
    expect(
      (await get('operator', SERVICE_POINTS, { opname: 'get_compartments', service_point_id: 999999 })).status,
    ).toBe(404);
    expect((await get('operator', SERVICE_POINTS, { opname: 'get_compartments' })).status).toBe(400);
    expect(
      (await get('operator', SERVICE_POINTS, { opname: 'get_compartments', hardware_id: 1, service_point_id: 1 }))
        .status,
    ).toBe(400);
    expect((await get('operator', SERVICE_POINTS, { opname: 'get_compartments', hardware_id: 'x' })).status).toBe(400);
    expect((await get('operator', SERVICE_POINTS, { opname: 'hardware_units' })).status).toBe(400);
  });
});

describe('derived fields kept in step', () => {
  it('follows a compartment’s flags, in the transaction that changed them', async () => {
    const target = await unit(`doc->'badges_v2' @> '["all_ok"]'`);
    const [first] = await compartmentsOf(target.hardware_id!);
    await stack.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE records SET doc = doc || '{"is_faulty": true, "is_free": false}' WHERE resource = 'compartments' AND key = $1`,
        [String(first.compartment_id)],
      );
      await refreshHardwareUnits(tx, { hardwareId: target.hardware_id! });
    });
    const after = await unit(`key = $1`, [String(target.hardware_id)]);
    expect(after.compartment_fault_count).toBe(target.compartment_fault_count! + 1);
    expect(after.badges_v2).toEqual(['active', 'comparment_fault']);
    expect(after.alert).toBe(true);
    expect(after.version).toBe(target.version + 1);
  });

  it('follows the service point’s status: installation open becomes pending', async () => {
    const planned = await unit(`doc->'badges_v2' @> '["installation_open"]'`);
    const servicePoint = await stack.db.query<{ version: number }>(
      `SELECT version FROM records WHERE resource = 'service_points' AND key = $1`,
      [String(planned.service_point_id)],
    );
    const answer = await write(
      'operator',
      'PATCH',
      { service_point_id: planned.service_point_id, version: servicePoint.rows[0].version, status: 6 },
      SERVICE_POINTS,
    );
    expect(answer.status).toBe(200);
    const after = await unit(`key = $1`, [String(planned.hardware_id)]);
    expect(after.badges_v2).toContain('installation_pending');
    expect(after.badges_v2).not.toContain('installation_open');
  });
});

describe('the badge list', () => {
  it('names the sixteen badges with a colour each', async () => {
    const answer = await get('carrier', 'webtool/lists', { type: 'badges' });
    const items = answer.body.data as { column_id: string; column_name: string; color: string }[];
    expect(items.map((item) => item.column_id).sort()).toEqual([...common.$defs.hardwareBadge.enum].sort());
    expect(items.every((item) => /^#[0-9a-f]{6}$/.test(item.color))).toBe(true);
    expect(new Set(items.map((item) => item.color)).size).toBe(16);
  });

  it('lists locker and PIN pad models apart', async () => {
    const lockers = (await get('carrier', 'webtool/lists', { type: 'hardware_models' })).body.data as Doc[];
    expect(lockers).toContainEqual({ column_id: 1, column_name: 'Compact 2' });
    expect(lockers).toHaveLength(5);
    const pads = (await get('carrier', 'webtool/lists', { type: 'pinpad_models' })).body.data as Doc[];
    expect(pads.map((pad) => pad.column_id).sort()).toEqual([6, 7, 8]);
    const other = (await get('carrier', 'webtool/lists', { type: 'location_types' })).body.data as Doc[];
    expect(other[0]).not.toHaveProperty('color');
  });

  it('answers the shell 50 models at most by default, fewer with a limit, and says how many there are', async () => {
    const two = await get('carrier', 'webtool/lists', { type: 'hardware_models', limit: 2 });
    expect(two.body).toMatchObject({ total: 5 });
    expect((two.body.data as Doc[]).map((item) => item.column_name)).toEqual(['City 3', 'Compact 2']);
    expect((await get('carrier', 'webtool/lists', { type: 'hardware_models' })).body.total).toBe(5);
    for (const limit of ['0', '1001', 'many', '-1']) {
      const refused = await get('carrier', 'webtool/lists', { type: 'hardware_models', limit });
      expect(refused.status).toBe(400);
      expect(refused.body.message_key).toBe('gateway.limit_range');
    }
  });
});
