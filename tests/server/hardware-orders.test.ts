import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { refusalChecks, type ExpectRefused } from './support/refusals.ts';
import { signInAll } from './support/sessions.ts';
import { findRecord, findRecords } from './support/seed-finders.ts';

/**
 * Hardware orders and sub orders (spec 02 §3-§5, §7, §8; issue 27): `service_points/hardware_order` and
 * its sub orders, every rule broken once through the gateway (the catalogue's message, nothing written).
 */

type Doc = Record<string, unknown>;
type Answer = { status: number; body: Doc };
const ORDERS = 'webtool/service_points/hardware_order';
const SUB_ORDERS = 'webtool/service_points/hardware_order/sub_orders';
const UNITS = 'webtool/service_points/hardware_units';

let stack: Stack;
let operator: SigningSession;
let hardware: SigningSession;
let expectRefused: ExpectRefused;
let customer: number;
let models: number[];

beforeAll(async () => {
  stack = await startStack();
  ({ expectRefused } = await refusalChecks(stack.db));
  ({ operator, hardware } = await signInAll(stack, ['operator', 'hardware']));
  customer = Number((await findRecord(stack.db, 'partners/hardware_provider')).doc.hardware_owner_id);
  const found = await findRecords(stack.db, 'hardware_models', { hardware_type: 1 }, { limit: 2 });
  models = found.map((row) => Number(row.doc.hardware_model_id));
}, 240_000);
afterAll(() => stack?.close());

const post = (path: string, body: Doc, session = operator): Promise<Answer> =>
  stack.send(session, { method: 'POST', path, body });
const patch = (path: string, body: Doc, session = operator): Promise<Answer> =>
  stack.send(session, { method: 'PATCH', path, body });
const get = (path: string, query: Record<string, string>, session = operator): Promise<Answer> =>
  stack.send(session, { method: 'GET', path, query: { offset: '0', limit: '100', ...query } });
const rows = (answer: Answer) => answer.body.data as Doc[];

async function newOrder(hardwareOrderId: string, total = 100) {
  const answer = await post(ORDERS, {
    hardware_order_id: hardwareOrderId,
    order_type: 1,
    customer,
    total_quantity: total,
  });
  expect(answer.status).toBe(201);
  return answer.body.data as Doc & { order_id: number; version: number };
}

async function newSubOrder(orderId: number, quantity: number, model = models[0]) {
  const answer = await post(SUB_ORDERS, {
    order_id: orderId,
    type_number: 'PL-12',
    hardware_model_id: model,
    quantity,
  });
  expect(answer.status).toBe(201);
  return answer.body.data as Doc & { sub_order_id: number; version: number };
}

async function subOrder(id: number) {
  return rows(await get(SUB_ORDERS, { sub_order_id: String(id) }))[0] as Doc & { version: number; status: number };
}

async function order(id: number) {
  return rows(await get(ORDERS, { order_id: String(id) }))[0] as Doc & { version: number };
}

const act = async (id: number, opname: string, extra: Doc = {}) =>
  patch(SUB_ORDERS, { opname, sub_order_id: id, version: (await subOrder(id)).version, ...extra });

describe('hardware orders', () => {
  it('creates, lists and filters orders; the customers lookup names hardware owners', async () => {
    const created = await newOrder('HO1001', 250);
    expect(created).toMatchObject({ total_quantity: 250, test: false, ordered_quantity: 0 });
    await newOrder('HO1002', 10);
    expect(rows(await get(ORDERS, { hardware_order_id: 'HO1001' })).map((row) => row.order_id)).toEqual([
      created.order_id,
    ]);
    const byCustomer = rows(await get(ORDERS, { customer: String(customer), order_type: '1', test: 'false' }));
    expect(byCustomer.map((row) => row.hardware_order_id)).toEqual(expect.arrayContaining(['HO1001', 'HO1002']));
    const lookup = await stack.send(operator, { method: 'GET', path: 'webtool/lists', query: { type: 'customers' } });
    expect((lookup.body.data as Doc[]).some((item) => item.column_id === customer)).toBe(true);
    const page = await get(ORDERS, { limit: '1000' });
    expect(page.status).toBe(200);
  });

  it('refuses 5001 units, an id with a space or a dash, and a repeated id, writing nothing', async () => {
    const order = (body: Doc) => () =>
      post(ORDERS, { hardware_order_id: 'HO2001', order_type: 1, customer, total_quantity: 10, ...body });
    await expectRefused(order({ total_quantity: 5001 }), 422, {
      field: 'total_quantity',
      fieldKey: 'validation.order_quantity',
    });
    await expectRefused(order({ hardware_order_id: 'HO 2001' }), 422, {
      field: 'hardware_order_id',
      fieldKey: 'validation.alphanumeric',
    });
    await expectRefused(order({ hardware_order_id: 'HO-2001' }), 422, {
      field: 'hardware_order_id',
      fieldKey: 'validation.alphanumeric',
    });
    await newOrder('HO2001', 10);
    await expectRefused(order({ hardware_order_id: 'ho2001' }), 422, {
      field: 'hardware_order_id',
      fieldKey: 'catalogue.hardware_order_id_exists',
    });
  });

  it('is the operator company`s: a hardware owner is refused (403)', async () => {
    expect((await get(ORDERS, {}, hardware)).status).toBe(403);
    expect((await get(SUB_ORDERS, {}, hardware)).status).toBe(403);
    const refused = await post(
      ORDERS,
      { hardware_order_id: 'HO9', order_type: 1, customer, total_quantity: 5 },
      hardware,
    );
    expect(refused.status).toBe(403);
  });
});

describe('sub orders', () => {
  it('keeps the sum within the total and one Open or Released sub order per model', async () => {
    const { order_id } = await newOrder('HO3001', 100);
    const first = await newSubOrder(order_id, 60);
    expect(first).toMatchObject({ status: 1, produced_quantity: 0, customer });
    expect(await order(order_id)).toMatchObject({ ordered_quantity: 60 });
    await expectRefused(
      () => post(SUB_ORDERS, { order_id, type_number: 'PL-12', hardware_model_id: models[1], quantity: 41 }),
      422,
      { field: 'quantity', fieldKey: 'catalogue.order_quantity_exceeded' },
    );
    await expectRefused(
      () => post(SUB_ORDERS, { order_id, type_number: 'PL-12', hardware_model_id: models[0], quantity: 10 }),
      422,
      { field: 'hardware_model_id', fieldKey: 'catalogue.sub_order_model_taken' },
    );
    const second = await newSubOrder(order_id, 40, models[1]);
    // Raising a sub order over what is left of the total is refused too.
    await expectRefused(
      () => patch(SUB_ORDERS, { sub_order_id: second.sub_order_id, version: second.version, quantity: 41 }),
      422,
      { field: 'quantity', fieldKey: 'catalogue.order_quantity_exceeded' },
    );
    // Nor may the total go below what the sub orders hold, even with none released.
    const stored = await order(order_id);
    await expectRefused(() => patch(ORDERS, { order_id, version: stored.version, total_quantity: 99 }), 422, {
      field: 'total_quantity',
      fieldKey: 'catalogue.order_quantity_exceeded',
    });
    await expectRefused(
      () => stack.send(operator, { method: 'DELETE', path: ORDERS, body: { order_id, version: stored.version } }),
      409,
      { key: 'catalogue.order_has_sub_orders' },
    );
  });

  it('only increases the total while a sub order is released, and walks a sub order to its units', async () => {
    const { order_id } = await newOrder('HO4001', 100);
    const sub = await newSubOrder(order_id, 50);
    await newSubOrder(order_id, 30, models[1]);
    expect((await act(sub.sub_order_id, 'release')).status).toBe(200);
    // Released: the form cannot change it, and the same model cannot be ordered again.
    await expectRefused(
      async () =>
        patch(SUB_ORDERS, {
          sub_order_id: sub.sub_order_id,
          version: (await subOrder(sub.sub_order_id)).version,
          quantity: 20,
        }),
      409,
      { key: 'catalogue.sub_order_locked' },
    );
    const released = await order(order_id);
    await expectRefused(() => patch(ORDERS, { order_id, version: released.version, total_quantity: 90 }), 422, {
      field: 'total_quantity',
      fieldKey: 'catalogue.order_total_increase_only',
    });
    const increase = (total: number) =>
      patch(ORDERS, { opname: 'increase_total_quantity', order_id, version: released.version, total_quantity: total });
    await expectRefused(() => increase(100), 422, {
      field: 'total_quantity',
      fieldKey: 'catalogue.order_total_not_increased',
    });
    await expectRefused(() => increase(5001), 422, { field: 'total_quantity', fieldKey: 'validation.order_quantity' });
    expect((await increase(120)).body.data).toMatchObject({ total_quantity: 120 });

    await expectRefused(() => act(sub.sub_order_id, 'stop', { create_remaining: true }), 409, {
      key: 'catalogue.sub_order_not_in_production',
    });
    await expectRefused(() => act(sub.sub_order_id, 'release'), 409, { key: 'catalogue.sub_order_not_open' });
    expect((await act(sub.sub_order_id, 'start_production')).status).toBe(200);
    await expectRefused(() => act(sub.sub_order_id, 'record_production', { produced_units: 51 }), 422, {
      field: 'produced_units',
      fieldKey: 'catalogue.sub_order_units_exceed',
    });
    const made = await act(sub.sub_order_id, 'record_production', { produced_units: 20 });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ produced_quantity: 20, status: 3 });

    // The units are in the warehouse, of the model, owned by the customer, naming their order.
    const warehouse = await stack.send(operator, { method: 'GET', path: UNITS, query: { opname: 'warehouse' } });
    const produced = (warehouse.body.data as Doc[]).filter((unit) => unit.sub_order_id === sub.sub_order_id);
    expect(produced).toHaveLength(20);
    expect(produced.every((unit) => unit.order_id === order_id && unit.hardware_owner_id === customer)).toBe(true);
    expect(produced.every((unit) => unit.hardware_model_id === models[0] && unit.compartment_count)).toBe(true);
    const byOrder = rows(await get(UNITS, { order_id: String(order_id) }));
    expect(byOrder).toHaveLength(20);

    const stopped = await act(sub.sub_order_id, 'stop', { create_remaining: true });
    expect(stopped.status).toBe(200);
    expect(stopped.body.data).toMatchObject({ status: 4, produced_quantity: 20 });
    expect(stopped.body.remainder).toMatchObject({
      status: 1,
      quantity: 30,
      hardware_model_id: models[0],
      replaces_sub_order_id: sub.sub_order_id,
    });
    await expectRefused(() => act(sub.sub_order_id, 'stop', { create_remaining: true }), 409, {
      key: 'catalogue.sub_order_not_in_production',
    });
    await expectRefused(
      () => stack.send(operator, { method: 'DELETE', path: SUB_ORDERS, body: { sub_order_id: sub.sub_order_id } }),
      409,
      { key: 'catalogue.sub_order_delete_locked' },
    );
    // The stopped sub order holds only what it made: 20 + 30 (remainder) + 30 (second) of 120.
    expect(await order(order_id)).toMatchObject({ ordered_quantity: 80, produced_quantity: 20 });
  });

  it('lists the production queue: Released and In production sub orders only', async () => {
    const { order_id } = await newOrder('HO6001', 10);
    const sub = await newSubOrder(order_id, 10);
    await act(sub.sub_order_id, 'release');
    const queue = rows(await get(SUB_ORDERS, { production: 'true' }));
    expect(queue.map((row) => row.sub_order_id)).toContain(sub.sub_order_id);
    expect(queue.every((row) => row.status === 2 || row.status === 3)).toBe(true);
    const rest = rows(await get(SUB_ORDERS, { production: 'false' }));
    expect(rest.every((row) => row.status !== 2 && row.status !== 3)).toBe(true);
  });

  it('stops without a new sub order when none is asked for, and rolls back a stop whose remainder is refused', async () => {
    const { order_id } = await newOrder('HO5001', 40);
    const sub = await newSubOrder(order_id, 20);
    await act(sub.sub_order_id, 'release');
    await act(sub.sub_order_id, 'start_production');
    // A model in production may be ordered again; but then the remainder would be its second Open sub
    // order, so the stop that asks for one is refused whole: the sub order stays in production.
    await newSubOrder(order_id, 10, models[0]);
    await expectRefused(() => act(sub.sub_order_id, 'stop', { create_remaining: true }), 422, {
      field: 'hardware_model_id',
      fieldKey: 'catalogue.sub_order_model_taken',
    });
    expect((await subOrder(sub.sub_order_id)).status).toBe(3);
    const stopped = await act(sub.sub_order_id, 'stop', { create_remaining: false });
    expect(stopped.body.data).toMatchObject({ status: 4, produced_quantity: 0 });
    expect(stopped.body.remainder).toBeUndefined();
    expect((await get(SUB_ORDERS, { order_id: String(order_id) })).body.total).toBe(2);
  });
});

describe('order log', () => {
  it('says who changed what from what to what in the order and its sub orders, with comments', async () => {
    const { order_id } = await newOrder('HO7001', 50);
    const sub = await newSubOrder(order_id, 20);
    await act(sub.sub_order_id, 'release');
    const stored = await order(order_id);
    await patch(ORDERS, { opname: 'increase_total_quantity', order_id, version: stored.version, total_quantity: 70 });
    const comment = (body: Doc) => post(ORDERS, { opname: 'add_comment', order_id, ...body });
    expect((await comment({ comment: 'Customer asked for 20 more.' })).status).toBe(200);
    expect((await comment({ sub_order_id: sub.sub_order_id, comment: 'Released after the parts check.' })).status).toBe(
      200,
    );

    const logs = await get(ORDERS, { opname: 'order_logs', order_id: String(order_id) });
    expect(logs.status).toBe(200);
    const entries = rows(logs);
    expect(entries[0]).toMatchObject({
      action: 'comment',
      username: 'operator',
      sub_order_id: sub.sub_order_id,
      changes: { comment: { from: null, to: 'Released after the parts check.' } },
    });
    expect(entries).toContainEqual(
      expect.objectContaining({ sub_order_id: null, changes: { total_quantity: { from: 50, to: 70 } } }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ sub_order_id: sub.sub_order_id, changes: { status: { from: 1, to: 2 } } }),
    );
    expect(entries.every((entry) => typeof entry.at === 'string' && entry.username === 'operator')).toBe(true);
    const ofSub = rows(
      await get(ORDERS, { opname: 'order_logs', order_id: String(order_id), sub_order_id: String(sub.sub_order_id) }),
    );
    expect(ofSub.every((entry) => entry.sub_order_id === sub.sub_order_id)).toBe(true);
    expect(ofSub.map((entry) => entry.action)).toEqual(['comment', 'update', 'create']);

    await expectRefused(() => comment({ comment: '  ' }), 422, { field: 'comment', fieldKey: 'validation.required' });
    await expectRefused(() => comment({ comment: 'ok' }), 422, {
      field: 'comment',
      fieldKey: 'validation.min_non_space',
    });
    await expectRefused(() => comment({ comment: 'x'.repeat(501) }), 422, {
      field: 'comment',
      fieldKey: 'validation.max_length',
    });
    const other = await newOrder('HO7002', 5);
    await expectRefused(
      () =>
        post(ORDERS, {
          opname: 'add_comment',
          order_id: other.order_id,
          sub_order_id: sub.sub_order_id,
          comment: 'Wrong order',
        }),
      404,
      { key: 'http.not_found' },
    );
    expect((await get(ORDERS, { opname: 'order_logs', order_id: String(order_id) }, hardware)).status).toBe(403);
  });
});
