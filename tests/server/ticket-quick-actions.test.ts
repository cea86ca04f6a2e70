import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { isQuickActionExcluded } from '../../src/schema/ticket-badge.ts';
import { startStack, type Stack } from './support/stack.ts';
import { signInAll } from './support/sessions.ts';

/** Spec 02 §3, §5, §8 and spec 01 §9: the tickets' quick actions; spec 02 §3, §7: periodic service. */

let stack: Stack;
let operator: SigningSession;
let maintenance: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, maintenance } = await signInAll(stack, ['operator', 'maintenance']));
  // The largest bulk action takes 50 open tickets of one provider: the test seed's network has fewer, so the
  // operator reports the rest, as a user does (POST), rather than the file seeding the demo's volume.
  const missing = 50 - (await eligible(1)).length;
  const at = await installedUnit(1);
  for (let made = 0; made < missing; made += 1) {
    const reported = await stack.send(operator, {
      method: 'POST',
      path: PATH,
      body: { ticket_type: 3, event_type: 620, description: `Door jammed (${made + 1})`, ...at },
    });
    expect(reported.status).toBe(201);
  }
  expect((await eligible(1)).length).toBeGreaterThanOrEqual(50);
});
afterAll(() => stack?.close());

const PATH = 'webtool/maintenance/tickets';
type Doc = Record<string, unknown>;
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function tickets(where = 'true') {
  const found = await stack.db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM records WHERE resource = 'maintenance/tickets' AND ${where} ORDER BY key::int`,
  );
  return found.rows;
}

async function eligible(provider: number) {
  return (await tickets(`doc->>'maintenance_provider_id' = '${provider}' AND doc->>'status' <> '2'`)).filter(
    (row) => !isQuickActionExcluded(row.doc as never),
  );
}

async function auditCount() {
  const found = await stack.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log WHERE resource = 'maintenance/tickets'`,
  );
  return found.rows[0].n;
}

const act = (session: SigningSession, body: Doc) =>
  stack.send(session, { method: 'PATCH', path: PATH, body: { opname: 'quick_actions', ...body } });

/** An installed unit of an unparked service point of `provider`, and that service point. */
async function installedUnit(provider: number) {
  const found = await stack.db.query<{ hardware_unit_id: number; sp_id: number }>(
    `SELECT (u.doc->>'hardware_id')::int AS hardware_unit_id, (u.doc->>'service_point_id')::int AS sp_id
     FROM records u JOIN records s ON s.resource = 'service_points' AND s.key = u.doc->>'service_point_id'
     WHERE u.resource = 'service_points/hardware_units' AND (u.doc->>'status')::int IN (3, 4)
       AND NOT coalesce((s.doc->>'parked')::boolean, false) AND s.doc->>'maintenance_provider_id' = $1
     ORDER BY 1 LIMIT 1`,
    [String(provider)],
  );
  expect(found.rows, `an installed unit of maintenance provider ${provider}`).toHaveLength(1);
  return found.rows[0];
}

async function activeOperator(provider: number) {
  const found = await stack.db.query<{ id: number }>(
    `SELECT (doc->>'operator_id')::int AS id FROM records WHERE resource = 'maintenance/operators'
     AND doc->>'maintenance_provider_id' = $1 AND doc->>'active' = 'true' ORDER BY key::int LIMIT 1`,
    [String(provider)],
  );
  return found.rows[0].id;
}

describe('PATCH maintenance/tickets quick_actions', () => {
  it('refuses 51 tickets, a Closed ticket, a deadline yesterday and a multi-assign without operator, writing nothing', async () => {
    const all = await tickets();
    const closed = all.find((row) => row.doc.status === 2)!;
    const open = await eligible(1);
    const audits = await auditCount();
    const fiftyOne = all.slice(0, 51).map((row) => row.doc.ticket_id);
    const tooMany = await act(operator, { ticket_ids: fiftyOne, deadline_date: inDays(3) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toBe('Quick actions handle at most 50 tickets');
    const withClosed = await act(operator, {
      ticket_ids: [open[0].doc.ticket_id, closed.doc.ticket_id],
      deadline_date: inDays(3),
    });
    expect(withClosed.status).toBe(422);
    expect(withClosed.body.message).toBe(
      'Declined, Closed, Courier and Service tickets are excluded from quick actions',
    );
    expect(withClosed.body.excluded_ids).toEqual([closed.doc.ticket_id]);
    const yesterday = await act(operator, { ticket_ids: [open[0].doc.ticket_id], deadline_date: inDays(-1) });
    expect(yesterday.status).toBe(422);
    expect(yesterday.body.message).toBe('The deadline cannot be before today');
    const noOperator = await act(operator, { ticket_ids: [open[0].doc.ticket_id], maintenance_provider_id: 2 });
    expect(noOperator.status).toBe(422);
    expect(noOperator.body.message).toBe('Multi-assignment needs a maintenance provider, an operator and tickets');
    const nothing = await act(operator, { ticket_ids: [open[0].doc.ticket_id] });
    expect(nothing.status).toBe(422);
    expect(await auditCount()).toBe(audits);
    expect((await tickets(`key = '${String(open[0].doc.ticket_id)}'`))[0].version).toBe(open[0].version);
  });

  it('refuses malformed parameters with their keyed 400, the first one wrong named, writing nothing', async () => {
    const [first, second] = await eligible(1);
    const ids = [first.doc.ticket_id, second.doc.ticket_id];
    const audits = await auditCount();
    const refusal = async (body: Doc) => {
      const answer = await act(operator, { deadline_date: inDays(3), ...body });
      return [answer.status, answer.body.message_key, answer.body.args];
    };
    for (const ticketIds of [undefined, 'x', [0], [ids[0], 'x']]) {
      expect(await refusal({ ticket_ids: ticketIds })).toEqual([400, 'gateway.ticket_ids_expected', undefined]);
    }
    expect(await refusal({ ticket_ids: [ids[0], ids[1], ids[0]] })).toEqual([
      400,
      'gateway.ticket_ids_repeated',
      undefined,
    ]);
    expect(await refusal({ ticket_ids: ids, verification_status: 5, on_hold_status: 'x' })).toEqual([
      400,
      'gateway.integer_range',
      { name: 'verification_status', min: 0, max: 4 },
    ]);
    expect(await refusal({ ticket_ids: ids, on_hold_status: 1.5 })).toEqual([
      400,
      'gateway.integer_range',
      { name: 'on_hold_status', min: 0, max: 2 },
    ]);
    expect(await refusal({ ticket_ids: ids, deadline_time: 9 })).toEqual([
      400,
      'gateway.text_expected',
      { name: 'deadline_time' },
    ]);
    for (const versions of [[1], 'x', { [String(ids[0])]: '2' }]) {
      expect(await refusal({ ticket_ids: ids, versions })).toEqual([400, 'gateway.versions_expected', undefined]);
    }
    expect(await auditCount()).toBe(audits);
  });

  it("refuses 'Investigate' on an on-hold ticket with the catalogue message, and nothing of the batch is written", async () => {
    const open = await eligible(1);
    const onHold = (await tickets(`doc->>'status' = '3' AND doc->>'maintenance_provider_id' = '1'`)).find(
      (row) => !isQuickActionExcluded(row.doc as never) && row.doc.ticket_verification_status !== 4,
    )!;
    const audits = await auditCount();
    const answer = await act(operator, {
      ticket_ids: [open[0].doc.ticket_id, onHold.doc.ticket_id],
      verification_status: 4,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe("Save failed: remove the ticket from 'On hold' before setting 'Investigate'");
    expect(answer.body.ticket_id).toBe(onHold.doc.ticket_id);
    expect(await auditCount()).toBe(audits);
  });

  it('lets the maintenance provider give 50 of its tickets an operator and a deadline in one call, audited per ticket', async () => {
    const chosen = (await eligible(1)).slice(0, 50);
    expect(chosen).toHaveLength(50);
    const operatorId = await activeOperator(1);
    const audits = await auditCount();
    const answer = await act(maintenance, {
      ticket_ids: chosen.map((row) => row.doc.ticket_id),
      maintenance_operator_id: operatorId,
      deadline_date: inDays(7),
      deadline_time: '14:30',
    });
    expect(answer.status).toBe(200);
    expect((answer.body.data as Doc).updated).toBe(50);
    expect(await auditCount()).toBe(audits + 50);
    const after = await tickets(`key = ANY(ARRAY[${chosen.map((row) => `'${String(row.doc.ticket_id)}'`).join(',')}])`);
    for (const row of after) {
      expect(row.doc).toMatchObject({
        maintenance_operator_id: operatorId,
        deadline_date: inDays(7),
        deadline_time: '14:30',
      });
      expect(row.doc.operator_name).toBeTruthy();
    }
  });

  it('gives a maintenance provider the reduced form only, and only its own tickets', async () => {
    const mine = (await eligible(1))[0];
    const theirs = (await eligible(2))[0];
    const verify = await act(maintenance, { ticket_ids: [mine.doc.ticket_id], verification_status: 1 });
    expect(verify.status).toBe(403);
    const foreign = await act(maintenance, { ticket_ids: [theirs.doc.ticket_id], deadline_date: inDays(2) });
    expect(foreign.status).toBe(404);
  });

  it('moves tickets to another provider with its operator (the old operator cleared), and 409 on a stale version', async () => {
    const [ticket] = await eligible(1);
    const operatorId = await activeOperator(2);
    const stale = await act(operator, {
      ticket_ids: [ticket.doc.ticket_id],
      deadline_date: today(),
      versions: { [String(ticket.doc.ticket_id)]: ticket.version - 1 },
    });
    expect(stale.status).toBe(409);
    const moved = await act(operator, {
      ticket_ids: [ticket.doc.ticket_id],
      maintenance_provider_id: 2,
      maintenance_operator_id: operatorId,
      versions: { [String(ticket.doc.ticket_id)]: ticket.version },
    });
    expect(moved.status).toBe(200);
    const [after] = await tickets(`key = '${String(ticket.doc.ticket_id)}'`);
    expect(after.doc).toMatchObject({ maintenance_provider_id: 2, maintenance_operator_id: operatorId });
  });
});

describe('periodic service tickets', () => {
  /** A periodic service ticket of `provider`, reported by the operator as a user does (the test seed may have none). */
  async function serviceTicket(provider: number) {
    const reported = await stack.send(operator, {
      method: 'POST',
      path: PATH,
      body: {
        ticket_type: 3,
        event_type: 630,
        regeneration_months: 3,
        deadline_date: inDays(5),
        description: 'Periodic service visit',
        ...(await installedUnit(provider)),
      },
    });
    expect(reported.status).toBe(201);
    const [ticket] = await tickets(`key = '${String((reported.body.data as Doc).ticket_id)}'`);
    expect(ticket.doc).toMatchObject({
      ticket_type: 3,
      event_type: 630,
      maintenance_provider_id: provider,
      regeneration_months: 3,
    });
    expect(ticket.doc.status).not.toBe(2);
    return ticket;
  }
  const close = (session: SigningSession, row: { doc: Doc; version: number }) =>
    stack.send(session, {
      method: 'PATCH',
      path: PATH,
      body: { ticket_id: row.doc.ticket_id, version: row.version, status: 2 },
    });

  it('brings the next visit when a periodic ticket closes while its provider has periodic tickets on', async () => {
    const ticket = await serviceTicket(1);
    const before = (await tickets()).length;
    const closed = await close(operator, ticket);
    expect(closed.status).toBe(200);
    const all = await tickets();
    expect(all).toHaveLength(before + 1);
    const next = all.at(-1)!.doc;
    const months = Number(ticket.doc.regeneration_months);
    const expected = new Date(`${String(ticket.doc.deadline_date ?? today())}T00:00:00`);
    expected.setMonth(expected.getMonth() + months);
    expect(next).toMatchObject({
      ticket_type: 3,
      event_type: 630,
      status: 1,
      sp_id: ticket.doc.sp_id,
      maintenance_provider_id: 1,
      regeneration_months: months,
      description: ticket.doc.description,
    });
    expect(Date.parse(String(next.deadline_date))).toBeGreaterThanOrEqual(Date.parse(today()));
  });

  it('brings none when the provider switched periodic tickets off', async () => {
    const off = await stack.send(operator, {
      method: 'PATCH',
      path: 'webtool/partners/maintenance_provider',
      body: { opname: 'update_mps_periodic_tickets', mp_id: 2, action_type: 2 },
    });
    expect(off.status).toBe(200);
    const ticket = await serviceTicket(2);
    const before = (await tickets()).length;
    expect((await close(operator, ticket)).status).toBe(200);
    expect(await tickets()).toHaveLength(before);
  });
});
