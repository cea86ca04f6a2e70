import type { Db } from '../../../db/adapter.ts';
import type { HardwareOrder } from '../../../../src/types/generated/hardware-order.ts';
import type { SubOrder } from '../../../../src/types/generated/sub-order.ts';
import { HardwareKind, SubOrderStatus } from '../../../../src/types/generated/codes.ts';
import { keyedError, type MessageKey } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { actorOf, recordKeyOf, refusedFields, visibleRecord } from '../../write-pipeline.ts';
import { audit } from '../../record-writes.ts';
import { nonNegativeInt } from '../../list-query.ts';
import { HARDWARE_MODELS, readDoc } from '../shared/hardware-store.ts';
import { unknownReference } from '../shared/hardware-refusals.ts';
import { HARDWARE_ORDERS, SUB_ORDERS } from '../shared/endpoints.ts';
import { optionalVersion } from '../shared/values.ts';
export { HARDWARE_ORDERS, SUB_ORDERS } from '../shared/endpoints.ts';

/**
 * Hardware orders and their sub orders (spec 02 §3, §4, §5, §8; issue 27). An order holds a total
 * quantity (at most 5000, set before any sub order); its sub orders share it out by model and go
 * Open -> Released -> In production -> Stopped (irreversible) or Produced. Every rule is checked in
 * the write's transaction, so a refusal writes nothing.
 */

const HARDWARE_UNITS = 'service_points/hardware_units';

type StoredOrder = HardwareOrder & { order_id: number };
type StoredSubOrder = SubOrder & { sub_order_id: number; status: SubOrderStatus };

/** A refusal of the record's state (409): nothing about the body can make it pass now. */
const stateRefusal = (key: MessageKey) => keyedError(409, key);
/** A refusal of one field's value (422), shown under the field and above the form. */
const fieldRefusal = (key: MessageKey, field: string) =>
  keyedError(422, key, undefined, { errors: { [field]: { message: key } } });

/** Statuses that hold the order's total: while one is there, the total only grows (spec 02 §4). */
const COMMITTED: readonly number[] = [SubOrderStatus.Released, SubOrderStatus.InProduction];
/** Statuses in which a model may appear once per order (spec 02 §5). */
const MODEL_HOLDING: readonly number[] = [SubOrderStatus.Open, SubOrderStatus.Released];

export async function subOrdersOf(tx: Db, orderId: number | string): Promise<(StoredSubOrder & { key: string })[]> {
  const found = await tx.query<{ key: string; doc: StoredSubOrder }>(
    `SELECT key, doc FROM records WHERE resource = $1 AND doc->>'order_id' = $2`,
    [SUB_ORDERS, String(orderId)],
  );
  return found.rows.map((row) => ({ ...row.doc, key: row.key }));
}

/** What a sub order takes of the order's total: a stopped one only what it produced before it stopped. */
export function countedQuantity(subOrder: Pick<SubOrder, 'status' | 'quantity' | 'produced_quantity'>): number {
  return subOrder.status === SubOrderStatus.Stopped ? (subOrder.produced_quantity ?? 0) : subOrder.quantity;
}

/**
 * The order's derived totals (what its sub orders take, what they produced), kept in step with every write
 * of a sub order. Not a change of the order by a person: its version stays, so an open order page can still
 * save, and its audit trail holds only what people changed.
 */
async function refreshOrderTotals(tx: Db, orderId: number, excludingKey?: string) {
  const subOrders = (await subOrdersOf(tx, orderId)).filter((sub) => sub.key !== excludingKey);
  const ordered = subOrders.reduce((sum, sub) => sum + countedQuantity(sub), 0);
  const produced = subOrders.reduce((sum, sub) => sum + (sub.produced_quantity ?? 0), 0);
  await tx.query(
    `UPDATE records SET doc = doc || jsonb_build_object('ordered_quantity', $3::int, 'produced_quantity', $4::int)
     WHERE resource = $1 AND key = $2`,
    [HARDWARE_ORDERS, String(orderId), ordered, produced],
  );
}

async function increaseTotalQuantity(ctx: OpnameContext, body: Doc) {
  const version = optionalVersion(body);
  const data = await ctx.writes.change(
    recordKeyOf(ctx.resource, body),
    async (_tx, existing) => {
      const form = ctx.validateForm('hardware-order-total', body);
      if (!form.valid) throw refusedFields(form.errors);
      const total = form.data.total_quantity as number;
      if (total <= (existing.doc.total_quantity as number)) {
        throw fieldRefusal('catalogue.order_total_not_increased', 'total_quantity');
      }
      return { ...existing.doc, total_quantity: total };
    },
    version,
  );
  return { success: true, data };
}

/** One line of an order's log: the order's or one of its sub orders' audit entries, comments included. */
export interface OrderLogEntry {
  id: number;
  at: string;
  username: string | null;
  partner_type: string | null;
  action: string;
  /** The sub order the line is about; absent for the order itself. */
  sub_order_id: number | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** The order and, when named, its sub order (404 for a sub order of another order, or one the caller cannot see). */
async function orderAndSubOrder(ctx: OpnameContext, tx: Db, source: Record<string, unknown>) {
  const order = await visibleRecord(tx, ctx.access, ctx.resource, recordKeyOf(ctx.resource, source));
  const named = source.sub_order_id;
  if (named === undefined || named === '') return { order, subOrderKey: undefined };
  const subOrder = await readDoc<StoredSubOrder>(tx, SUB_ORDERS, String(named));
  if (!subOrder || String(subOrder.order_id) !== order.key) throw keyedError(404, 'http.not_found');
  return { order, subOrderKey: String(subOrder.sub_order_id) };
}

/**
 * `GET service_points/hardware_order?opname=order_logs&order_id=...[&sub_order_id=...]` (spec 02 §7, issue
 * 27.3): who changed what, from what to what, and when, in the order and its sub orders (or in one sub order),
 * with the comments people added; newest first, a page at a time.
 */
async function orderLogs(ctx: OpnameContext, query: Record<string, string>) {
  const { order, subOrderKey } = await orderAndSubOrder(ctx, ctx.db, query);
  const limit = nonNegativeInt(query.limit, 'limit', 50);
  const offset = nonNegativeInt(query.offset, 'offset', 0);
  if (limit < 1 || limit > 500) throw keyedError(400, 'gateway.limit_range', { max: 500 });
  const subKeys = subOrderKey ? [subOrderKey] : (await subOrdersOf(ctx.db, order.key)).map((sub) => sub.key);
  const params: unknown[] = [SUB_ORDERS, subKeys, limit, offset];
  const ownLines = subOrderKey ? '' : `(resource = $5 AND key = $6) OR `;
  if (!subOrderKey) params.push(HARDWARE_ORDERS, order.key);
  const found = await ctx.db.query<OrderLogEntry & { resource: string; key: string; total: string }>(
    `SELECT id, at, username, partner_type, action, changes, resource, key, count(*) OVER () AS total
     FROM audit_log WHERE ${ownLines}(resource = $1 AND key = ANY($2::text[]))
     ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`,
    params,
  );
  const data: OrderLogEntry[] = found.rows.map(({ resource, key, total: _total, ...entry }) => ({
    ...entry,
    id: Number(entry.id),
    at: new Date(entry.at).toISOString(),
    sub_order_id: resource === SUB_ORDERS ? Number(key) : null,
  }));
  return { success: true, data, total: found.rows.length ? Number(found.rows[0].total) : 0 };
}

/**
 * `POST service_points/hardware_order { opname: "add_comment", order_id, sub_order_id?, comment }`: a comment
 * joins the log of the order, or of the sub order it names, under the caller's name.
 */
async function addComment(ctx: OpnameContext, body: Doc) {
  const form = ctx.validateForm('order-comment', body);
  if (!form.valid) throw refusedFields(form.errors);
  return ctx.db.transaction(async (tx) => {
    const { order, subOrderKey } = await orderAndSubOrder(ctx, tx, body);
    const target = subOrderKey ? ctx.resources.get(SUB_ORDERS)! : ctx.resource;
    const comment = String(form.data.comment);
    await audit(tx, actorOf(ctx.access), target, subOrderKey ?? order.key, 'comment', {
      comment: { from: null, to: comment },
    });
    return { success: true, data: { comment } };
  });
}

export const hardwareOrderRules = recordRules<StoredOrder>({
  async beforeWrite({ tx, resource }, doc, existing) {
    const clash = await tx.query(
      `SELECT 1 FROM records WHERE resource = $1 AND lower(doc->>'hardware_order_id') = lower($2) AND key <> $3 LIMIT 1`,
      [resource.endpoint, doc.hardware_order_id, existing?.key ?? ''],
    );
    if (clash.rows.length) throw fieldRefusal('catalogue.hardware_order_id_exists', 'hardware_order_id');
    const subOrders = existing ? await subOrdersOf(tx, existing.key) : [];
    const lowered = existing !== undefined && doc.total_quantity < existing.doc.total_quantity;
    if (lowered && subOrders.some((sub) => COMMITTED.includes(sub.status))) {
      throw fieldRefusal('catalogue.order_total_increase_only', 'total_quantity');
    }
    const ordered = subOrders.reduce((sum, sub) => sum + countedQuantity(sub), 0);
    if (doc.total_quantity < ordered) throw fieldRefusal('catalogue.order_quantity_exceeded', 'total_quantity');
    return {
      ...doc,
      ordered_quantity: existing ? ordered : 0,
      produced_quantity: subOrders.reduce((sum, sub) => sum + (sub.produced_quantity ?? 0), 0),
    };
  },

  async beforeDelete({ tx }, existing) {
    if ((await subOrdersOf(tx, existing.key)).length) throw stateRefusal('catalogue.order_has_sub_orders');
  },

  patchOpnames: { increase_total_quantity: increaseTotalQuantity },
  opnames: { add_comment: addComment },
  queries: { order_logs: orderLogs },
});

/** The sub order's own checks against its order and its sister sub orders, in the write's transaction. */
async function checkedSubOrder(tx: Db, doc: StoredSubOrder, key: string | undefined): Promise<StoredSubOrder> {
  const order = await readDoc<StoredOrder>(tx, HARDWARE_ORDERS, doc.order_id);
  if (!order) throw unknownReference('order_id');
  if (!order.total_quantity) throw fieldRefusal('catalogue.order_total_first', 'quantity');
  const model = await readDoc<{ hardware_type: number; name: string }>(tx, HARDWARE_MODELS, doc.hardware_model_id);
  if (!model || model.hardware_type !== HardwareKind.ParcelLocker) throw unknownReference('hardware_model_id');
  const sisters = (await subOrdersOf(tx, doc.order_id)).filter((sub) => sub.key !== key);
  if (
    MODEL_HOLDING.includes(doc.status) &&
    sisters.some((sub) => MODEL_HOLDING.includes(sub.status) && sub.hardware_model_id === doc.hardware_model_id)
  ) {
    throw fieldRefusal('catalogue.sub_order_model_taken', 'hardware_model_id');
  }
  const taken = sisters.reduce((sum, sub) => sum + countedQuantity(sub), 0) + countedQuantity(doc);
  if (taken > order.total_quantity) throw fieldRefusal('catalogue.order_quantity_exceeded', 'quantity');
  return { ...doc, customer: order.customer, model_name: model.name };
}

/** The fields a person sets on a sub order's form. */
const FORM_FIELDS = [
  'type_number',
  'hardware_model_id',
  'standard_parts_list_version',
  'customer_parts_list_version',
  'quantity',
] as const;

const changesFields = (before: SubOrder, after: SubOrder) =>
  FORM_FIELDS.some((field) => (before[field] ?? null) !== (after[field] ?? null));

/** One step of a sub order's life: from the status it must be in, to the next, through the pipeline. */
function transition(from: SubOrderStatus, to: SubOrderStatus, refusal: MessageKey) {
  return async (ctx: OpnameContext, body: Doc) => {
    const data = await ctx.writes.change(
      recordKeyOf(ctx.resource, body),
      async (_tx, existing) => {
        if (existing.doc.status !== from) throw stateRefusal(refusal);
        return { ...existing.doc, status: to };
      },
      optionalVersion(body),
    );
    return { success: true, data };
  };
}

/**
 * Production reports units made (issue 27.5): each becomes a hardware unit in the warehouse, of the sub
 * order's model and owned by the order's customer, linked to the order and the sub order, all in the
 * transaction that counts them; the sub order is Produced once all its units are.
 */
async function recordProduction(ctx: OpnameContext, body: Doc) {
  const version = optionalVersion(body);
  const key = recordKeyOf(ctx.resource, body);
  return ctx.db.transaction(async (tx) => {
    let made = 0;
    const data = await ctx.writesIn(tx, ctx.resource).change(
      key,
      async (_tx, existing) => {
        const sub = existing.doc as unknown as StoredSubOrder;
        if (sub.status !== SubOrderStatus.InProduction) throw stateRefusal('catalogue.sub_order_production_state');
        const form = ctx.validateForm('sub-order-production', body);
        if (!form.valid) throw refusedFields(form.errors);
        made = form.data.produced_units as number;
        const produced = (sub.produced_quantity ?? 0) + made;
        if (produced > sub.quantity) throw fieldRefusal('catalogue.sub_order_units_exceed', 'produced_units');
        return {
          ...sub,
          produced_quantity: produced,
          status: produced === sub.quantity ? SubOrderStatus.Produced : SubOrderStatus.InProduction,
        };
      },
      version,
    );
    await createUnits(ctx, tx, data as unknown as StoredSubOrder, made);
    return { success: true, data, produced_units: made };
  });
}

async function createUnits(ctx: OpnameContext, tx: Db, sub: StoredSubOrder, count: number) {
  const units = ctx.resources.get(HARDWARE_UNITS);
  const order = await readDoc<StoredOrder>(tx, HARDWARE_ORDERS, sub.order_id);
  if (!units || !order) throw new Error('Hardware units or the order are missing');
  const writes = ctx.writesIn(tx, units);
  const first = (sub.produced_quantity ?? 0) - count + 1;
  const keys: string[] = [];
  for (let n = first; n < first + count; n += 1) {
    const serial = `${order.hardware_order_id}${sub.sub_order_id}${String(n).padStart(4, '0')}`;
    const unit = await writes.create({
      name: `${order.hardware_order_id}-${sub.sub_order_id}-${n}`,
      hardware_type: HardwareKind.ParcelLocker,
      hardware_model_id: sub.hardware_model_id,
      hardware_owner_id: order.customer,
      serial_ids: [`SN${serial}`],
    });
    keys.push(String(unit.hardware_id));
  }
  // The unit's order and sub order are the gateway's (read-only): a unit made by production names them.
  if (keys.length) {
    await tx.query(
      `UPDATE records SET doc = doc || jsonb_build_object('order_id', $3::int, 'sub_order_id', $4::int)
       WHERE resource = $1 AND key = ANY($2::text[])`,
      [HARDWARE_UNITS, keys, sub.order_id, sub.sub_order_id],
    );
  }
}

/**
 * Stopping is final (spec 02 §4): a sub order in production becomes Stopped, keeping what it produced, and,
 * when asked, a new Open sub order takes the remaining quantity, in one transaction with the stop.
 */
async function stopSubOrder(ctx: OpnameContext, body: Doc) {
  const version = optionalVersion(body);
  const key = recordKeyOf(ctx.resource, body);
  const form = ctx.validateForm('sub-order-stop', body);
  if (!form.valid) throw refusedFields(form.errors);
  return ctx.db.transaction(async (tx) => {
    const writes = ctx.writesIn(tx, ctx.resource);
    const data = (await writes.change(
      key,
      async (_tx, existing) => {
        if (existing.doc.status !== SubOrderStatus.InProduction)
          throw stateRefusal('catalogue.sub_order_not_in_production');
        return { ...existing.doc, status: SubOrderStatus.Stopped };
      },
      version,
    )) as unknown as StoredSubOrder;
    const remaining = data.quantity - (data.produced_quantity ?? 0);
    if (form.data.create_remaining !== true || remaining <= 0) return { success: true, data };
    const created = await writes.create({
      order_id: data.order_id,
      type_number: data.type_number,
      hardware_model_id: data.hardware_model_id,
      standard_parts_list_version: data.standard_parts_list_version,
      customer_parts_list_version: data.customer_parts_list_version,
      quantity: remaining,
    });
    const remainder = await writes.change(String(created.sub_order_id), async (_tx, existing) => ({
      ...existing.doc,
      replaces_sub_order_id: data.sub_order_id,
    }));
    return { success: true, data, remainder };
  });
}

export const subOrderRules = recordRules<StoredSubOrder>({
  async beforeWrite({ tx, input }, doc, existing) {
    if (existing && existing.doc.order_id !== doc.order_id) {
      throw fieldRefusal('catalogue.sub_order_order_fixed', 'order_id');
    }
    // A person's edit (the form): only while Open. The status changes through the actions alone.
    if (existing && input && existing.doc.status !== SubOrderStatus.Open && changesFields(existing.doc, doc)) {
      throw stateRefusal('catalogue.sub_order_locked');
    }
    const status = existing ? doc.status : SubOrderStatus.Open;
    const produced = existing ? (doc.produced_quantity ?? 0) : 0;
    return checkedSubOrder(tx, { ...doc, status, produced_quantity: produced }, existing?.key);
  },

  async afterWrite({ tx }, written) {
    await refreshOrderTotals(tx, written.order_id);
  },

  async beforeDelete({ tx }, existing) {
    if (existing.doc.status !== SubOrderStatus.Open) throw stateRefusal('catalogue.sub_order_delete_locked');
    await refreshOrderTotals(tx, existing.doc.order_id, existing.key);
  },

  listConditions(query) {
    const production = query.queryFilters?.production;
    if (production === undefined) return [];
    const inProduction = COMMITTED.map(String);
    const others = Object.values(SubOrderStatus)
      .map(String)
      .filter((status) => !inProduction.includes(status));
    return [{ field: 'status', op: 'in', value: production === true ? inProduction : others }];
  },

  patchOpnames: {
    release: transition(SubOrderStatus.Open, SubOrderStatus.Released, 'catalogue.sub_order_not_open'),
    start_production: transition(
      SubOrderStatus.Released,
      SubOrderStatus.InProduction,
      'catalogue.sub_order_not_released',
    ),
    record_production: recordProduction,
    stop: stopSubOrder,
  },
});
