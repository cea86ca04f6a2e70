import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { HardwareUnit } from '../../src/types/generated/hardware-unit.ts';
import type { ServicePoint } from '../../src/types/generated/service-point.ts';
import { startStack, type Stack } from './support/stack.ts';
import { refusalChecks, type ExpectRefused } from './support/refusals.ts';
import { signInAll } from './support/sessions.ts';

type Doc = Record<string, unknown>;
type Unit = HardwareUnit & { version: number; installation_open?: boolean };
type Sp = ServicePoint & { version: number };

const UNITS = 'webtool/service_points/hardware_units';
const SPS = 'webtool/service_points';

let stack: Stack;
let fingerprint: () => Promise<{ records: string; audit: string }>;
let expectRefused: ExpectRefused;
let sessions: Record<string, SigningSession>;

beforeAll(async () => {
  stack = await startStack();
  ({ fingerprint, expectRefused } = await refusalChecks(stack.db));
  sessions = await signInAll(stack, ['operator', 'hardware', 'carrier']);
});
afterAll(() => stack.close());

const send = (user: string, method: 'GET' | 'PATCH' | 'DELETE', path: string, body?: Doc, query?: Doc) =>
  stack.send(sessions[user], {
    method,
    path,
    ...(body && { body }),
    ...(query && { query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) }),
  });

async function rows<T>(resource: string, where: string, params: unknown[] = []) {
  const found = await stack.db.query<{ doc: T; version: number }>(
    `SELECT doc, version FROM records WHERE resource = '${resource}' AND ${where} ORDER BY key::int`,
    params,
  );
  return found.rows.map((row) => ({ ...row.doc, version: row.version }));
}
const unit = async (id: unknown) => (await rows<Unit>('service_points/hardware_units', 'key = $1', [String(id)]))[0];
const servicePoint = async (id: unknown) => (await rows<Sp>('service_points', 'key = $1', [String(id)]))[0];
const unitsAt = (id: unknown) =>
  rows<Unit>('service_points/hardware_units', `doc->>'service_point_id' = $1`, [String(id)]);

/** Warehouse units no test has taken yet. */
let warehouseTaken = 0;
async function warehouseUnit() {
  const free = await rows<Unit>(
    'service_points/hardware_units',
    `doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean`,
  );
  return free[warehouseTaken++];
}

/** A service point of the status with fewer units than its maximum, none of which a test touched. */
const used = new Set<number>();
async function servicePointWith(where: string) {
  const found = await rows<Sp>(
    'service_points',
    `${where} AND NOT coalesce((doc->>'parked')::boolean, false) AND NOT coalesce((doc->>'is_terminated')::boolean, false)`,
  );
  const pick = found.find((sp) => !used.has(sp.service_point_id!))!;
  used.add(pick.service_point_id!);
  return pick;
}

async function setDoc(resource: string, id: unknown, fields: Doc) {
  await stack.db.query(`UPDATE records SET doc = doc || $3::jsonb WHERE resource = $1 AND key = $2`, [
    resource,
    String(id),
    JSON.stringify(fields),
  ]);
}

const plan = (user: string, hardware: Unit, servicePointId: unknown) =>
  send(user, 'PATCH', UNITS, {
    hardware_id: hardware.hardware_id,
    service_point_id: servicePointId,
    version: hardware.version,
  });

const mark = (opname: string, body: Doc) => send('operator', 'PATCH', SPS, { opname, ...body });

describe('adding a unit to a service point (the hardware unit write path)', () => {
  it('plans a warehouse unit at a service point pending units: assigned, installation pending, in its badges', async () => {
    const sp = await servicePointWith(`(doc->>'status')::int = 6 AND (doc->>'max_hardware_units')::int >= 3`);
    await setDoc('service_points', sp.service_point_id, {
      max_hardware_units: (await unitsAt(sp.service_point_id)).length + 1,
    });
    const free = await warehouseUnit();
    const answer = await plan('operator', free, sp.service_point_id);
    expect(answer.status).toBe(200);
    const planned = await unit(free.hardware_id);
    expect(planned.service_point_id).toBe(sp.service_point_id);
    expect(planned.status).toBe(2);
    expect(planned.badges_v2).toEqual(expect.arrayContaining(['assigned', 'installation_pending']));
    expect((await servicePoint(sp.service_point_id)).badges_v2).toContain('assigned');

    // The service point is now full: the next unit is refused, and lowering its maximum too.
    const next = await warehouseUnit();
    await expectRefused(() => plan('operator', next, sp.service_point_id), 409, {
      message: 'The allowed number of hardware units is reached',
      key: 'service_points.hardware.errors.sp_hw_limit_reached',
    });
    const full = await servicePoint(sp.service_point_id);
    const lowered = await expectRefused(
      () => send('operator', 'PATCH', SPS, { ...full, max_hardware_units: full.max_hardware_units! - 1 }),
      422,
      { message: 'Save failed, check the fields in error state', key: undefined },
    );
    expect(lowered.errors).toEqual({
      max_hardware_units: { message: 'validation.below_unit_count', args: { count: full.max_hardware_units } },
    });
  });

  it.each([
    ['New (1)', `(doc->>'status')::int = 1`, {}],
    ['In negotiation (4)', `(doc->>'status')::int = 4`, {}],
    ['Inactive (8)', `(doc->>'status')::int = 8`, {}],
    ['on hold', `(doc->>'status')::int = 7`, { parked: true }],
  ])('refuses a service point that is %s', async (_, where, fields) => {
    const sp = await servicePointWith(where);
    await setDoc('service_points', sp.service_point_id, { max_hardware_units: 7, ...fields });
    await expectRefused(async () => plan('operator', await warehouseUnit(), sp.service_point_id), 409, {
      message: 'Service point status is not ready for hardware to add',
      key: 'service_points.hardware.errors.sp_hw_status_not_ready',
    });
  });

  it('refuses a terminated service point, and a unit already at another service point', async () => {
    const [terminated] = await rows<Sp>('service_points', `(doc->>'is_terminated')::boolean`);
    await expectRefused(async () => plan('operator', await warehouseUnit(), terminated.service_point_id), 409, {
      message: 'Service point status is not ready for hardware to add',
      key: 'service_points.hardware.errors.sp_hw_status_not_ready',
    });
    const placed = (await rows<Unit>('service_points/hardware_units', `(doc->>'status')::int = 4`))[0];
    const other = await servicePointWith(`(doc->>'status')::int = 7 AND key <> '${placed.service_point_id}'`);
    await expectRefused(() => plan('operator', placed, other.service_point_id), 409, {
      message: 'Hardware leaves a service point only through an uninstall ticket',
      key: 'catalogue.hw_detach_by_ticket',
    });
  });

  it('lets only a user who may edit service points plan a unit (a hardware owner may not)', async () => {
    const sp = await servicePointWith(`(doc->>'status')::int = 6`);
    const own = (
      await rows<Unit>(
        'service_points/hardware_units',
        `doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean AND doc->>'hardware_owner_id' = '1'`,
      )
    ).at(-1)!;
    const before = await fingerprint();
    expect((await plan('hardware', own, sp.service_point_id)).status).toBe(403);
    expect(await fingerprint()).toEqual(before);
  });
});

describe('marking units open or closed for installation', () => {
  it('opens a planned unit for installation, refuses it twice, closes it again; audited, the service point follows', async () => {
    const sp = await servicePointWith(`(doc->>'status')::int = 6 AND jsonb_array_length(doc->'badges_v2') > 0`);
    const planned = (await unitsAt(sp.service_point_id)).find((candidate) => candidate.status === 2)!;
    const spVersion = (await servicePoint(sp.service_point_id)).version;
    const body = { service_point_id: sp.service_point_id, hardware_id: planned.hardware_id };

    const opened = await mark('mark_open_for_installation', body);
    expect(opened.status).toBe(200);
    expect((opened.body.data as Unit).badges_v2).toContain('installation_open');
    const stored = await unit(planned.hardware_id);
    expect(stored.installation_open).toBe(true);
    expect(stored.badges_v2).not.toContain('installation_pending');
    const afterOpen = await servicePoint(sp.service_point_id);
    expect(afterOpen.badges_v2).toContain('installation_open');
    // Derived fields only: whoever has the service point's form open can still save it.
    expect(afterOpen.version).toBe(spVersion);
    const audited = await stack.db.query<{ username: string; changes: Doc }>(
      `SELECT username, changes FROM audit_log WHERE resource = 'service_points/hardware_units' AND key = $1
       ORDER BY id DESC LIMIT 1`,
      [String(planned.hardware_id)],
    );
    expect(audited.rows[0].username).toBe('operator');
    expect(audited.rows[0].changes).toHaveProperty('installation_open');

    await expectRefused(() => mark('mark_open_for_installation', body), 409, {
      message: 'The hardware unit is already open for installation',
      key: 'service_points.hardware.errors.installation_already_open',
    });
    expect((await mark('mark_close_for_installation', body)).status).toBe(200);
    expect((await unit(planned.hardware_id)).badges_v2).toContain('installation_pending');
    await expectRefused(() => mark('mark_close_for_installation', body), 409, {
      message: 'The hardware unit is already closed for installation',
      key: 'service_points.hardware.errors.installation_already_closed',
    });
  });

  it('closes an installed unit for uninstallation and opens it again', async () => {
    const active = (
      await rows<Unit>(
        'service_points/hardware_units',
        `(doc->>'status')::int = 4 AND (doc->>'removal_state')::int = 0`,
      )
    ).at(-1)!;
    const body = { service_point_id: active.service_point_id, hardware_id: active.hardware_id };
    expect((await mark('mark_close_for_installation', body)).status).toBe(200);
    expect((await unit(active.hardware_id)).badges_v2).toContain('uninstallation_pending');
    expect((await servicePoint(active.service_point_id)).badges_v2).toContain('uninstallation_pending');
    await expectRefused(() => mark('mark_close_for_installation', body), 409, {
      message: 'The hardware unit is already closed for uninstallation',
      key: 'service_points.hardware.errors.uninstallation_already_pending',
    });
    expect((await mark('mark_open_for_installation', body)).status).toBe(200);
    expect((await unit(active.hardware_id)).badges_v2).not.toContain('uninstallation_pending');
  });

  it('needs the hardware unit id, a unit at that service point, and service point edit rights', async () => {
    const active = (await rows<Unit>('service_points/hardware_units', `(doc->>'status')::int = 4`))[0];
    for (const hardwareId of [undefined, '', 'abc']) {
      const refused = await expectRefused(
        () =>
          mark('mark_open_for_installation', { service_point_id: active.service_point_id, hardware_id: hardwareId }),
        422,
        { message: 'The hardware unit id is required', key: 'service_points.hardware.errors.hardware_id_required' },
      );
      expect(refused.errors).toEqual({
        hardware_id: { message: 'service_points.hardware.errors.hardware_id_required' },
      });
    }
    const elsewhere = await servicePointWith(`(doc->>'status')::int = 7 AND key <> '${active.service_point_id}'`);
    await expectRefused(
      () =>
        mark('mark_close_for_installation', {
          service_point_id: elsewhere.service_point_id,
          hardware_id: active.hardware_id,
        }),
      409,
      { message: 'The hardware unit is not at this service point', key: 'catalogue.pinpad_hw_not_at_sp' },
    );
    const before = await fingerprint();
    const carrier = await send('carrier', 'PATCH', SPS, {
      opname: 'mark_close_for_installation',
      service_point_id: active.service_point_id,
      hardware_id: active.hardware_id,
    });
    expect(carrier.status).toBe(403);
    expect(await fingerprint()).toEqual(before);
  });
});

describe('DELETE service_points opname=installation_plan', () => {
  const deletePlan = (servicePointId: unknown) =>
    send('operator', 'DELETE', SPS, { opname: 'installation_plan', service_point_id: servicePointId });

  it('sends the planned units of a service point pending units back to the warehouse', async () => {
    const sp = await servicePointWith(
      `(doc->>'status')::int = 6 AND EXISTS (SELECT 1 FROM records u WHERE u.resource = 'service_points/hardware_units'
        AND u.doc->>'service_point_id' = records.key AND (u.doc->>'status')::int = 2)
        AND NOT EXISTS (SELECT 1 FROM records t WHERE t.resource = 'maintenance/tickets'
          AND (t.doc->>'ticket_type')::int = 1 AND (t.doc->>'sp_id' = records.key OR t.doc->>'service_point_id' = records.key))`,
    );
    const planned = (await unitsAt(sp.service_point_id)).filter((candidate) => candidate.status === 2);
    const answer = await deletePlan(sp.service_point_id);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      service_point_id: sp.service_point_id,
      removed: planned.map((candidate) => candidate.hardware_id),
    });
    for (const candidate of planned) {
      const back = await unit(candidate.hardware_id);
      expect(back.service_point_id).toBeNull();
      expect(back.badges_v2).toContain('unassigned');
    }
    expect((await servicePoint(sp.service_point_id)).badges_v2).not.toContain('assigned');
    await expectRefused(() => deletePlan(sp.service_point_id), 409, {
      message: 'The service point has no planned hardware units',
      key: 'service_points.hardware.errors.installation_plan_empty',
    });
  });

  it('refuses once installation is under way: ready for installation, a unit marked open, an open install ticket', async () => {
    const ready = await servicePointWith(
      `(doc->>'status')::int = 5 AND EXISTS (SELECT 1 FROM records u WHERE u.resource = 'service_points/hardware_units'
        AND u.doc->>'service_point_id' = records.key)`,
    );
    const initiated = (id: unknown) =>
      expectRefused(() => deletePlan(id), 409, {
        message: 'Installation planning has already been initiated',
        key: 'service_points.hardware.errors.installation_plan_initiated',
      });
    await initiated(ready.service_point_id);

    const pending = await servicePointWith(
      `(doc->>'status')::int = 6 AND EXISTS (SELECT 1 FROM records u WHERE u.resource = 'service_points/hardware_units'
        AND u.doc->>'service_point_id' = records.key AND (u.doc->>'status')::int = 2)
        AND NOT EXISTS (SELECT 1 FROM records t WHERE t.resource = 'maintenance/tickets'
          AND (t.doc->>'ticket_type')::int = 1 AND (t.doc->>'sp_id' = records.key OR t.doc->>'service_point_id' = records.key))`,
    );
    const [first] = (await unitsAt(pending.service_point_id)).filter((candidate) => candidate.status === 2);
    const body = { service_point_id: pending.service_point_id, hardware_id: first.hardware_id };
    expect((await mark('mark_open_for_installation', body)).status).toBe(200);
    await initiated(pending.service_point_id);
    expect((await mark('mark_close_for_installation', body)).status).toBe(200);

    await stack.db.query(`INSERT INTO records (resource, key, doc) VALUES ('maintenance/tickets', 'plan-test', $1)`, [
      JSON.stringify({ ticket_type: 1, status: 1, hardware_unit_ids: [first.hardware_id] }),
    ]);
    await initiated(pending.service_point_id);
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"status": 2}' WHERE resource = 'maintenance/tickets' AND key = 'plan-test'`,
    );
    expect((await deletePlan(pending.service_point_id)).status).toBe(200);
  });
});

describe('carrier settings of a service point', () => {
  async function withCarriers() {
    const sp = await servicePointWith(
      `(doc->>'status')::int = 7 AND jsonb_array_length(coalesce(doc->'carriers_access', '[]')) >= 1
       AND EXISTS (SELECT 1 FROM records u WHERE u.resource = 'service_points/hardware_units' AND u.doc->>'service_point_id' = records.key)`,
    );
    return servicePoint(sp.service_point_id);
  }
  const save = (sp: Sp, fields: Doc) => send('operator', 'PATCH', SPS, { ...sp, ...fields });
  const settingsError = (key: string, message: string, args: Doc) => ({ key, message, args });

  it('saves per-carrier settings of carriers with access, once, within the compartments of its units', async () => {
    const sp = await withCarriers();
    const carrier = sp.carriers_access![0];
    const compartments = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records c WHERE c.resource = 'compartments' AND c.doc->>'hardware_id' IN
         (SELECT key FROM records WHERE resource = 'service_points/hardware_units' AND doc->>'service_point_id' = $1)`,
      [String(sp.service_point_id)],
    );
    const available = Number(compartments.rows[0].n);
    const setting = {
      carrier_id: carrier,
      first_mile: false,
      last_mile: true,
      expiry_days: 5,
      reserved_compartments: available,
      allocation_behaviour: 'first_free',
    };
    const saved = await save(sp, { carrier_settings: [setting] });
    expect(saved.status).toBe(200);
    expect((await servicePoint(sp.service_point_id)).carrier_settings).toEqual([setting]);

    const current = await servicePoint(sp.service_point_id);
    for (const [fields, error] of [
      [
        { carrier_settings: [{ ...setting, carrier_id: 999 }] },
        settingsError('carrier_not_in_access', 'Carrier settings name a carrier without access to the service point', {
          carrier: 999,
        }),
      ],
      [
        { carrier_settings: [setting], carriers_access: sp.carriers_access!.filter((id) => id !== carrier) },
        settingsError('carrier_not_in_access', 'Carrier settings name a carrier without access to the service point', {
          carrier,
        }),
      ],
      [
        { carrier_settings: [setting, { ...setting, reserved_compartments: 0 }] },
        settingsError('carrier_repeated', 'A carrier has its settings twice', { carrier }),
      ],
      [
        { carrier_settings: [{ ...setting, reserved_compartments: available + 1 }] },
        settingsError(
          'reserved_above_compartments',
          'Reserved compartments exceed the compartments of the hardware units at the service point',
          { reserved: available + 1, available },
        ),
      ],
    ] as const) {
      const refused = await expectRefused(() => save(current, fields), 422, {
        message: error.message,
        key: `service_points.carrier_settings.errors.${error.key}`,
      });
      expect(refused.errors).toEqual({
        carrier_settings: { message: `service_points.carrier_settings.errors.${error.key}`, args: error.args },
      });
    }
  });

  it('refuses expiry days out of 1-30 by the schema, and a stale version', async () => {
    const sp = await withCarriers();
    const setting = { carrier_id: sp.carriers_access![0], expiry_days: 31 };
    const schema = await save(sp, { carrier_settings: [setting] });
    expect(schema.status).toBe(422);
    expect(JSON.stringify(schema.body.errors)).toContain('carrier_settings');
    expect((await save(sp, { carrier_settings: [{ ...setting, expiry_days: 30 }] })).status).toBe(200);
    const stale = await save(sp, { carrier_settings: [] });
    expect(stale.status).toBe(409);
    expect(stale.body.message_key).toBe('catalogue.stale_version');
  });

  it('lists carriers with the colour of their carrier record', async () => {
    const answer = await send('operator', 'GET', 'webtool/lists', undefined, { type: 'carrier_list' });
    const carriers = await rows<{ carrier_id: number; color_code: string }>('partners/carrier', 'true');
    expect(answer.body.data).toEqual(
      expect.arrayContaining(
        carriers.map((carrier) =>
          expect.objectContaining({ column_id: carrier.carrier_id, color: carrier.color_code }),
        ),
      ),
    );
  });
});

describe('the hardware facts of a service point', () => {
  it('are derived for the seeded network: the union of its units badges and its PIN pad', async () => {
    const pads = await rows<{ pinpad_id: number; hardware_model_id: number; status: number; service_point_id: number }>(
      'service_points/pinpad',
      `doc->>'service_point_id' IS NOT NULL`,
    );
    expect(pads.length).toBeGreaterThan(5);
    for (const pad of pads.slice(0, 5)) {
      const sp = await servicePoint(pad.service_point_id);
      expect(sp).toMatchObject({
        pinpad_id: pad.pinpad_id,
        pinpad_model_id: pad.hardware_model_id,
        pinpad_status: pad.status,
        active_pinpad: pad.status === 4,
      });
      const badges = new Set((await unitsAt(pad.service_point_id)).flatMap((candidate) => candidate.badges_v2 ?? []));
      for (const badge of sp.badges_v2!) expect(badges).toContain(badge);
      for (const badge of badges) if (badge !== 'all_ok') expect(sp.badges_v2).toContain(badge);
    }
    const bare = (await rows<Sp>('service_points', `(doc->>'status')::int = 1`))[0];
    expect(bare.badges_v2).toEqual([]);
    expect(bare.active_pinpad).toBe(false);
    expect(bare).not.toHaveProperty('pinpad_id');
  });

  it('let the service point list be filtered by a badge of its units', async () => {
    const answer = await send('operator', 'GET', SPS, undefined, { badges_v2: 'low_battery', limit: 500 });
    expect(answer.status).toBe(200);
    const listed = answer.body.data as Sp[];
    const expected = await rows<Sp>('service_points', `doc->'badges_v2' @> '["low_battery"]'`);
    expect(listed.length).toBeGreaterThan(0);
    expect(answer.body.total).toBe(expected.length);
    expect(listed.every((sp) => sp.badges_v2!.includes('low_battery'))).toBe(true);
  });

  it('are the gateway own: a body naming them is overruled, an edit of other fields keeps them', async () => {
    const sp = await servicePointWith(`(doc->>'status')::int = 7 AND jsonb_array_length(doc->'badges_v2') > 0`);
    const derived = {
      badges_v2: sp.badges_v2,
      has_hardware: sp.has_hardware,
      active_pinpad: sp.active_pinpad,
      service_point_hardware_unit_id: sp.service_point_hardware_unit_id,
    };
    const forged = await send('operator', 'PATCH', SPS, {
      service_point_id: sp.service_point_id,
      version: sp.version,
      badges_v2: [],
      has_hardware: !sp.has_hardware,
      comments: 'Forged hardware facts',
    });
    expect(forged.status).toBe(200);
    const afterForged = await servicePoint(sp.service_point_id);
    expect(afterForged).toMatchObject({ ...derived, comments: 'Forged hardware facts' });
    const plain = await send('operator', 'PATCH', SPS, {
      service_point_id: sp.service_point_id,
      version: afterForged.version,
      comments: 'A plain edit',
    });
    expect(plain.status).toBe(200);
    expect(await servicePoint(sp.service_point_id)).toMatchObject({ ...derived, comments: 'A plain edit' });
  });

  it('follow a PIN pad placed at the service point', async () => {
    const sp = await servicePointWith(
      `(doc->>'status')::int = 7 AND NOT EXISTS (SELECT 1 FROM records p WHERE p.resource = 'service_points/pinpad'
        AND p.doc->>'service_point_id' = records.key)`,
    );
    const pad = (
      await rows<Doc & { version: number }>(
        'service_points/pinpad',
        `doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean`,
      )
    )[0];
    const answer = await send('operator', 'PATCH', 'webtool/service_points/pinpad', {
      ...pad,
      service_point_id: sp.service_point_id,
    });
    expect(answer.status).toBe(200);
    expect(await servicePoint(sp.service_point_id)).toMatchObject({
      pinpad_id: pad.pinpad_id,
      pinpad_model_id: pad.hardware_model_id,
      pinpad_status: 2,
      active_pinpad: false,
    });
  });
});
