import { HardwareStatus, SubOrderStatus } from '../../src/types/generated/codes.ts';
import type { HardwareOrder } from '../../src/types/generated/hardware-order.ts';
import type { SubOrder } from '../../src/types/generated/sub-order.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { hardwareModels } from './hardware-catalogue.ts';

/**
 * The demo's hardware orders (issue 27.7): orders of every customer in every state of their sub orders,
 * with their log and comments, and orders whose produced sub orders name the warehouse units they made
 * (the units keep their order and sub order, so an order leads to its units and a unit back to its order).
 */

type OrderDoc = HardwareOrder & { order_id: number; ordered_quantity: number; produced_quantity: number };
type SubOrderDoc = SubOrder & { sub_order_id: number; status: SubOrderStatus; produced_quantity: number };

/** One line of an order's log, written as the gateway's audit trail writes it. */
export interface SeedLogEntry {
  at: Date;
  username: string;
  resource: string;
  key: string;
  action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ORDERS = 'service_points/hardware_order';
const SUB_ORDERS = 'service_points/hardware_order/sub_orders';

interface UnitDoc {
  hardware_id: number;
  hardware_owner_id: number;
  hardware_model_id: number;
  service_point_id?: number | null;
  status?: number;
  is_terminated?: boolean;
}

interface PlannedSub {
  model: number;
  quantity: number;
  status: SubOrderStatus;
  /** Units of the warehouse this sub order made (Stopped, In production or Produced). */
  produced?: number;
  remainderOf?: number;
  comment?: string;
}

interface PlannedOrder {
  id: string;
  type: 1 | 2 | 3;
  customer: number;
  total: number;
  version: string;
  test?: boolean;
  daysAgo: number;
  subs: PlannedSub[];
  comment?: string;
}

export function demoHardwareOrders(units: { doc: Record<string, unknown> }[], now: Date) {
  // The warehouse's units by owner and model: production is where they came from.
  const waiting = new Map<string, UnitDoc[]>();
  for (const unit of units) {
    const doc = unit.doc as unknown as UnitDoc;
    if (doc.service_point_id || doc.is_terminated || doc.status !== HardwareStatus.InWarehouse) continue;
    const group = `${doc.hardware_owner_id}:${doc.hardware_model_id}`;
    waiting.set(group, [...(waiting.get(group) ?? []), doc]);
  }
  const groups = [...waiting.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  const groupOf = (index: number) => {
    const [key, docs] = groups[index % groups.length];
    const [owner, model] = key.split(':').map(Number);
    return { owner, model, docs };
  };
  const followed = groupOf(0);
  const second = groupOf(1);
  const third = groupOf(2);
  const otherModel = (model: number) => (model % 3) + 1;

  const plans: PlannedOrder[] = [
    {
      // The order to follow to its units: production stopped part-way, the rest reordered, another model released.
      id: 'LW2026A',
      type: 1,
      customer: followed.owner,
      total: followed.docs.length * 2 + 40,
      version: 'R3',
      daysAgo: 120,
      subs: [
        {
          model: followed.model,
          quantity: followed.docs.length * 2,
          status: SubOrderStatus.Stopped,
          produced: followed.docs.length,
          comment: 'Stopped: the door supplier changed the hinge; the rest follows on the new parts list.',
        },
        { model: followed.model, quantity: followed.docs.length, status: SubOrderStatus.Open, remainderOf: 0 },
        { model: otherModel(followed.model), quantity: 40, status: SubOrderStatus.Released },
      ],
      comment: 'Customer confirmed delivery to the Oslo warehouse in two batches.',
    },
    {
      id: 'BT2026B',
      type: 1,
      customer: second.owner,
      total: second.docs.length + 60,
      version: 'R2',
      daysAgo: 75,
      subs: [
        {
          model: second.model,
          quantity: second.docs.length,
          status: SubOrderStatus.Produced,
          produced: second.docs.length,
        },
        {
          model: otherModel(second.model),
          quantity: 60,
          status: SubOrderStatus.InProduction,
          comment: 'Line 2 starts this sub order on Monday.',
        },
      ],
    },
    {
      id: 'NL2026C',
      type: 3,
      customer: third.owner,
      total: third.docs.length + 10,
      version: 'R1',
      daysAgo: 40,
      subs: [
        {
          model: third.model,
          quantity: third.docs.length + 10,
          status: SubOrderStatus.InProduction,
          produced: third.docs.length,
        },
      ],
      comment: 'Replacement lockers for the units damaged in the storm.',
    },
    {
      id: 'LW2026D',
      type: 2,
      customer: followed.owner,
      total: 24,
      version: 'P1',
      test: true,
      daysAgo: 20,
      subs: [
        { model: 1, quantity: 12, status: SubOrderStatus.Open },
        { model: 2, quantity: 12, status: SubOrderStatus.Open },
      ],
    },
    { id: 'BT2026E', type: 1, customer: second.owner, total: 300, version: 'R2', daysAgo: 6, subs: [] },
    {
      id: 'NL2026F',
      type: 1,
      customer: third.owner,
      total: 150,
      version: 'R1',
      daysAgo: 3,
      subs: [{ model: 3, quantity: 150, status: SubOrderStatus.Released }],
    },
  ];

  const orders: NewRecord[] = [];
  const subOrders: NewRecord[] = [];
  const log: SeedLogEntry[] = [];
  const unitLinks = new Map<number, { order_id: number; sub_order_id: number }>();
  const producers = [followed, second, third];
  let subOrderId = 0;

  plans.forEach((plan, index) => {
    const orderId = index + 1;
    const created = new Date(now.getTime() - plan.daysAgo * DAY_MS);
    const at = (days: number) => new Date(created.getTime() + days * DAY_MS);
    const ids: number[] = [];
    const subs: SubOrderDoc[] = plan.subs.map((sub) => {
      subOrderId += 1;
      ids.push(subOrderId);
      const doc: SubOrderDoc = {
        sub_order_id: subOrderId,
        order_id: orderId,
        customer: plan.customer,
        type_number: `PL-${plan.id.slice(0, 2)}-${sub.model}0`,
        hardware_model_id: sub.model,
        model_name: hardwareModels.find((model) => model.hardware_model_id === sub.model)?.name,
        standard_parts_list_version: `S${(sub.model % 3) + 4}.${index}`,
        customer_parts_list_version: `C${index + 1}.${sub.model}`,
        quantity: sub.quantity,
        produced_quantity: sub.produced ?? (sub.status === SubOrderStatus.Produced ? sub.quantity : 0),
        status: sub.status,
        ...(sub.remainderOf !== undefined && { replaces_sub_order_id: ids[sub.remainderOf] }),
      };
      return doc;
    });
    // The units a sub order made: the warehouse units of its customer and model.
    for (const sub of subs.filter((s) => s.produced_quantity > 0)) {
      const source = producers.find((group) => group.owner === plan.customer && group.model === sub.hardware_model_id);
      for (const unit of (source?.docs ?? []).slice(0, sub.produced_quantity)) {
        if (!unitLinks.has(unit.hardware_id)) {
          unitLinks.set(unit.hardware_id, { order_id: orderId, sub_order_id: sub.sub_order_id });
        }
      }
    }
    const counted = (sub: SubOrderDoc) =>
      sub.status === SubOrderStatus.Stopped ? sub.produced_quantity : sub.quantity;
    const order: OrderDoc = {
      order_id: orderId,
      hardware_order_id: plan.id,
      order_type: plan.type,
      customer: plan.customer,
      total_quantity: plan.total,
      order_version: plan.version,
      test: plan.test ?? false,
      ordered_quantity: subs.reduce((sum, sub) => sum + counted(sub), 0),
      produced_quantity: subs.reduce((sum, sub) => sum + sub.produced_quantity, 0),
    };
    orders.push({ key: String(orderId), doc: { ...order } });
    subOrders.push(...subs.map((sub) => ({ key: String(sub.sub_order_id), doc: { ...sub } })));

    // The log: the order and each sub order created, then each step of the sub orders, and the comments.
    const user = index % 2 === 0 ? 'operator' : 'superadmin';
    const firstTotal = subs.some((sub) => sub.status !== SubOrderStatus.Open) ? plan.total - 20 : plan.total;
    log.push({
      at: created,
      username: user,
      resource: ORDERS,
      key: String(orderId),
      action: 'create',
      changes: Object.fromEntries(
        Object.entries({ ...order, total_quantity: firstTotal, ordered_quantity: 0, produced_quantity: 0 }).map(
          ([field, to]) => [field, { from: null, to }],
        ),
      ),
    });
    if (firstTotal !== plan.total) {
      log.push({
        at: at(3),
        username: user,
        resource: ORDERS,
        key: String(orderId),
        action: 'update',
        changes: { total_quantity: { from: firstTotal, to: plan.total } },
      });
    }
    subs.forEach((sub, position) => {
      const key = String(sub.sub_order_id);
      const step = (days: number, from: SubOrderStatus, to: SubOrderStatus, extra = {}) =>
        log.push({
          at: at(days + position),
          username: 'operator',
          resource: SUB_ORDERS,
          key,
          action: 'update',
          changes: { status: { from, to }, ...extra },
        });
      log.push({
        at: at(1 + position),
        username: user,
        resource: SUB_ORDERS,
        key,
        action: 'create',
        changes: Object.fromEntries(
          Object.entries({ ...sub, status: SubOrderStatus.Open, produced_quantity: 0, model_name: undefined })
            .filter(([, value]) => value !== undefined)
            .map(([field, to]) => [field, { from: null, to }]),
        ),
      });
      if (sub.status >= SubOrderStatus.Released) step(4, SubOrderStatus.Open, SubOrderStatus.Released);
      if (sub.status >= SubOrderStatus.InProduction) step(6, SubOrderStatus.Released, SubOrderStatus.InProduction);
      if (sub.produced_quantity > 0 && sub.status === SubOrderStatus.InProduction) {
        log.push({
          at: at(9 + position),
          username: 'operator',
          resource: SUB_ORDERS,
          key,
          action: 'update',
          changes: { produced_quantity: { from: 0, to: sub.produced_quantity } },
        });
      }
      if (sub.status === SubOrderStatus.Stopped || sub.status === SubOrderStatus.Produced) {
        step(9, SubOrderStatus.InProduction, sub.status, {
          produced_quantity: { from: 0, to: sub.produced_quantity },
        });
      }
      const comment = plan.subs[position].comment;
      if (comment) {
        log.push({
          at: at(10 + position),
          username: 'operator',
          resource: SUB_ORDERS,
          key,
          action: 'comment',
          changes: { comment: { from: null, to: comment } },
        });
      }
    });
    if (plan.comment) {
      log.push({
        at: at(2),
        username: 'superadmin',
        resource: ORDERS,
        key: String(orderId),
        action: 'comment',
        changes: { comment: { from: null, to: plan.comment } },
      });
    }
  });

  return { orders, subOrders, unitLinks, log };
}
