import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { HardwareUnit } from '../../src/types/generated/hardware-unit.ts';
import type { Pinpad } from '../../src/types/generated/pinpad.ts';
import { startStack, type Stack } from './support/stack.ts';
import { refusalChecks, type ExpectRefused } from './support/refusals.ts';
import { signInAll } from './support/sessions.ts';
import { readRecord } from './support/seed-finders.ts';

type Doc = Record<string, unknown>;
type Pad = Pinpad & { version: number; is_terminated?: boolean };

const PADS = 'webtool/service_points/pinpad';

let stack: Stack;
let expectRefused: ExpectRefused;
let sessions: Record<string, SigningSession>;

beforeAll(async () => {
  stack = await startStack();
  ({ expectRefused } = await refusalChecks(stack.db));
  sessions = await signInAll(stack, ['operator', 'hardware', 'carrier', 'maintenance']);
});
afterAll(() => stack.close());

const get = (user: string, query: Record<string, string | number> = {}) =>
  stack.send(sessions[user], {
    method: 'GET',
    path: PADS,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
const write = (user: string, method: 'POST' | 'PATCH' | 'DELETE', body: Doc) =>
  stack.send(sessions[user], { method, path: PADS, body });

async function pads(where: string, params: unknown[] = [], limit = 100_000) {
  const found = await stack.db.query<{ doc: Pad; version: number }>(
    `SELECT doc, version FROM records WHERE resource = 'service_points/pinpad' AND ${where}
     ORDER BY (doc->>'pinpad_id')::int LIMIT ${limit}`,
    params,
  );
  return found.rows.map((row) => ({ ...row.doc, version: row.version }));
}
const pad = async (where: string, params: unknown[] = []) => (await pads(where, params, 1))[0];
const freePad = (owner = 1) =>
  pad(`doc->>'service_point_id' IS NULL AND NOT (doc->>'is_terminated')::boolean AND doc->>'hardware_owner_id' = $1`, [
    String(owner),
  ]);

async function unit(hardwareId: unknown) {
  const found = await readRecord<HardwareUnit>(stack.db, 'service_points/hardware_units', String(hardwareId));
  return { ...found.doc, version: found.version };
}

/** An active service point without a PIN pad, and two of its units. */
async function servicePointWithoutPad(skip = 0) {
  const found = await stack.db.query<{ sp: string; units: number[] }>(
    `SELECT hw.doc->>'service_point_id' AS sp, array_agg((hw.doc->>'hardware_id')::int ORDER BY (hw.doc->>'hardware_id')::int) AS units
     FROM records hw WHERE hw.resource = 'service_points/hardware_units' AND (hw.doc->>'status')::int = 4
       AND NOT EXISTS (SELECT 1 FROM records p WHERE p.resource = 'service_points/pinpad'
                       AND p.doc->>'service_point_id' = hw.doc->>'service_point_id')
     GROUP BY 1 HAVING count(*) >= 2 ORDER BY 1 LIMIT 1 OFFSET $1`,
    [skip],
  );
  return { servicePointId: Number(found.rows[0].sp), units: found.rows[0].units };
}

const newPad = (overrides: Doc = {}) => ({
  ble_chip_id: 'BLE-TEST01',
  hardware_model_id: 7,
  hardware_owner_id: 1,
  firmware_version: '3.0.1',
  network: 'lte_m',
  ...overrides,
});

describe('the demo PIN pads', () => {
  it('sit on some service points, each linked to a unit there that names it, and some in the warehouse', async () => {
    const placed = await pads(`doc->>'service_point_id' IS NOT NULL`);
    expect(placed.length).toBeGreaterThan(20);
    for (const placedPad of placed.slice(0, 40)) {
      const linked = await unit(placedPad.hardware_id);
      expect(linked.service_point_id).toBe(placedPad.service_point_id);
      expect(linked.pinpad_id).toBe(placedPad.pinpad_id);
    }
    const statuses = new Set((await pads('true')).map((p) => p.status));
    expect([...statuses].sort()).toEqual([1, 2, 4, 5]);
  });
});

describe('the PIN pad list', () => {
  it('answers pages of 100, filters by status, owner and network, and searches the BLE chip id', async () => {
    const all = await pads('true');
    const page = await get('operator', { limit: 100 });
    // Pages of 100, or all of them when the seed holds fewer (the tests' seed has about 100).
    expect(all.length).toBeGreaterThan(50);
    expect(page.body.data as Pad[]).toHaveLength(Math.min(100, all.length));
    expect(page.body.total).toBe(all.length);

    const active = await get('operator', { status: 4, hardware_owner_id: 1, limit: 1000 });
    const rows = active.body.data as Pad[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((p) => p.status === 4 && p.hardware_owner_id === 1)).toBe(true);

    const sample = all[5];
    const searched = await get('operator', { search: sample.ble_chip_id });
    expect((searched.body.data as Pad[]).map((p) => p.pinpad_id)).toEqual([sample.pinpad_id]);
    expect((await get('operator', { pinpad_id: sample.pinpad_id! })).body.data).toEqual([sample]);
    expect((await get('operator', { network: '5g' })).status).toBe(200);
    expect((await get('operator', { status: 'on' })).status).toBe(400);
  });
});

describe('a PIN pad’s life', () => {
  it('starts in the warehouse whatever the body says about its status', async () => {
    const answer = await write(
      'operator',
      'POST',
      newPad({ status: 4, installation_sync_status: 2, is_terminated: true }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ status: 1, installation_sync_status: 0, is_terminated: false });
  });

  it('is linked to a unit at its service point, and the unit names it, audited', async () => {
    const spare = await freePad();
    const { servicePointId, units } = await servicePointWithoutPad();
    const linked = await write('operator', 'PATCH', {
      pinpad_id: spare.pinpad_id,
      version: spare.version,
      service_point_id: servicePointId,
      hardware_id: units[0],
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ status: 2, installation_sync_status: 1, hardware_id: units[0] });
    expect((await unit(units[0])).pinpad_id).toBe(spare.pinpad_id);
    const audit = await stack.db.query<{ changes: Doc }>(
      `SELECT changes FROM audit_log WHERE resource = 'service_points/hardware_units' AND key = $1 ORDER BY id DESC LIMIT 1`,
      [String(units[0])],
    );
    expect(audit.rows[0].changes.pinpad_id).toEqual({ from: null, to: spare.pinpad_id });

    // Moved to the other unit of the same service point: the first no longer names it.
    const moved = await write('operator', 'PATCH', {
      pinpad_id: spare.pinpad_id,
      version: (linked.body.data as Pad).version,
      hardware_id: units[1],
    });
    expect(moved.status).toBe(200);
    expect((await unit(units[0])).pinpad_id).toBeNull();
    expect((await unit(units[1])).pinpad_id).toBe(spare.pinpad_id);

    // A pad at a service point is not deleted: it leaves it first.
    await expectRefused(
      () => write('operator', 'DELETE', { pinpad_id: spare.pinpad_id, partner_id: spare.hardware_owner_id }),
      409,
      { message: 'Hardware unit requires uninstallation from service point', key: 'catalogue.hw_requires_uninstall' },
    );
    // Nor is it taken off or moved to another service point by an edit: an uninstall ticket does that.
    const other = await servicePointWithoutPad();
    for (const servicePointId of [null, other.servicePointId]) {
      const body = await expectRefused(
        () =>
          write('operator', 'PATCH', {
            pinpad_id: spare.pinpad_id,
            version: (moved.body.data as Pad).version,
            service_point_id: servicePointId,
            hardware_id: null,
          }),
        422,
        {
          message: 'Hardware leaves a service point only through an uninstall ticket',
          key: 'catalogue.hw_detach_by_ticket',
        },
      );
      expect(body.errors).toEqual({ service_point_id: { message: 'catalogue.hw_detach_by_ticket' } });
    }
    expect((await unit(units[1])).pinpad_id).toBe(spare.pinpad_id);
  });

  it('refuses a PIN pad for a service point that already has one', async () => {
    const spare = await freePad();
    const taken = await pad(`doc->>'service_point_id' IS NOT NULL`);
    const body = await expectRefused(
      () =>
        write('operator', 'PATCH', {
          pinpad_id: spare.pinpad_id,
          version: spare.version,
          service_point_id: taken.service_point_id,
        }),
      422,
      { message: 'The service point already has a PIN pad', key: 'catalogue.pinpad_sp_has_pinpad' },
    );
    expect(body.errors).toEqual({ service_point_id: { message: 'catalogue.pinpad_sp_has_pinpad' } });
  });

  it('refuses a unit that is not at the pad’s service point, or without a service point', async () => {
    const spare = await freePad();
    const first = await servicePointWithoutPad(0);
    const second = await servicePointWithoutPad(1);
    const body = await expectRefused(
      () =>
        write('operator', 'PATCH', {
          pinpad_id: spare.pinpad_id,
          version: spare.version,
          service_point_id: first.servicePointId,
          hardware_id: second.units[0],
        }),
      422,
      { message: 'The hardware unit is not at this service point', key: 'catalogue.pinpad_hw_not_at_sp' },
    );
    expect(body.errors).toEqual({ hardware_id: { message: 'catalogue.pinpad_hw_not_at_sp' } });
    await expectRefused(
      () =>
        write('operator', 'PATCH', { pinpad_id: spare.pinpad_id, version: spare.version, hardware_id: first.units[0] }),
      422,
      { message: 'The hardware unit is not at this service point' },
    );
    await expectRefused(
      () =>
        write('operator', 'PATCH', {
          pinpad_id: spare.pinpad_id,
          version: spare.version,
          service_point_id: first.servicePointId,
          hardware_id: 999999,
        }),
      422,
      { message: 'Save failed, check the fields in error state' },
    );
  });

  it('refuses a unit that already has a PIN pad', async () => {
    const spare = await freePad();
    const { servicePointId, units } = await servicePointWithoutPad(2);
    // The unit names a pad that is not (yet) at its service point, as while a pad is being swapped.
    await stack.db.query(
      `UPDATE records SET doc = doc || '{"pinpad_id": 424242}' WHERE resource = 'service_points/hardware_units' AND key = $1`,
      [String(units[0])],
    );
    const body = await expectRefused(
      () =>
        write('operator', 'PATCH', {
          pinpad_id: spare.pinpad_id,
          version: spare.version,
          service_point_id: servicePointId,
          hardware_id: units[0],
        }),
      422,
      { message: 'The hardware unit already has a PIN pad', key: 'catalogue.pinpad_hw_has_pinpad' },
    );
    expect(body.errors).toEqual({ hardware_id: { message: 'catalogue.pinpad_hw_has_pinpad' } });
  });

  it('refuses a locker model, an unknown model and an unknown service point', async () => {
    const mismatch = await expectRefused(() => write('operator', 'POST', newPad({ hardware_model_id: 2 })), 422, {
      message: 'The model does not fit this kind of hardware',
      key: 'catalogue.hw_model_mismatch',
    });
    expect(mismatch.errors).toEqual({ hardware_model_id: { message: 'catalogue.hw_model_mismatch' } });
    await expectRefused(() => write('operator', 'POST', newPad({ hardware_model_id: 77 })), 422, {
      message: 'Save failed, check the fields in error state',
    });
    await expectRefused(() => write('operator', 'POST', newPad({ service_point_id: 999999 })), 422, {
      message: 'Save failed, check the fields in error state',
    });
  });

  it('refuses any change of a terminated PIN pad, and a stale version', async () => {
    const terminated = await pad(`(doc->>'is_terminated')::boolean`);
    await expectRefused(
      () =>
        write('operator', 'PATCH', { pinpad_id: terminated.pinpad_id, version: terminated.version, apn: 'new.apn' }),
      409,
      { message: 'A terminated hardware unit cannot be changed', key: 'catalogue.hw_terminated' },
    );
    const spare = await freePad(2);
    await expectRefused(
      () => write('operator', 'PATCH', { pinpad_id: spare.pinpad_id, version: spare.version - 1, apn: 'new.apn' }),
      409,
      { message: 'This record was changed by someone else. Reload it to see the changes.' },
    );
  });

  it('is deleted with partner_id, its owner', async () => {
    const spare = await freePad(2);
    await expectRefused(() => write('operator', 'DELETE', { pinpad_id: spare.pinpad_id }), 400, {
      message: 'partner_id is required.',
      key: 'gateway.param_required',
    });
    await expectRefused(() => write('operator', 'DELETE', { pinpad_id: spare.pinpad_id, partner_id: 1 }), 400, {
      message: 'partner_id must be the hardware owner of the record to delete',
      key: 'catalogue.hw_partner_mismatch',
    });
    expect((await write('operator', 'DELETE', { pinpad_id: spare.pinpad_id, partner_id: 2 })).status).toBe(200);
    expect(await pads(`key = $1`, [String(spare.pinpad_id)])).toEqual([]);
  });
});

describe('who sees and changes PIN pads', () => {
  it('shows a hardware owner only its own pads, and refuses it another owner’s', async () => {
    const listed = await get('hardware', { limit: 1000 });
    expect((listed.body.data as Pad[]).every((p) => p.hardware_owner_id === 1)).toBe(true);
    expect(listed.body.total).toBe((await pads(`doc->>'hardware_owner_id' = '1'`)).length);
    await expectRefused(
      () => write('hardware', 'POST', newPad({ ble_chip_id: 'BLE-OTHER1', hardware_owner_id: 2 })),
      403,
      { message: 'You have no permission for this request.' },
    );
    const created = await write(
      'hardware',
      'POST',
      newPad({ ble_chip_id: 'BLE-MINE01', hardware_owner_id: undefined }),
    );
    expect(created.status).toBe(201);
    expect((created.body.data as Pad).hardware_owner_id).toBe(1);
    const foreign = await freePad(2);
    await expectRefused(() => write('hardware', 'DELETE', { pinpad_id: foreign.pinpad_id, partner_id: 2 }), 404, {
      message: 'Record not found.',
    });
  });

  it.each(['carrier', 'maintenance'])('refuses %s the PIN pad endpoint', async (user) => {
    expect((await get(user)).status).toBe(403);
    await expectRefused(() => write(user, 'POST', newPad()), 403, {
      message: 'You have no permission for this request.',
    });
  });
});
