import type { Db } from '../../../db/adapter.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { assertResourceAccess, type CallerAccess } from '../../caller-access.ts';
import { HttpError } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import { readRecord, staleVersion, type StoredRecord } from '../../record-writes.ts';
import type { ResourceDefinition } from '../../resource-registry.ts';
import type { OpnameContext, RuleContext } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { actorOf, commitChange, visibleRecord } from '../../write-pipeline.ts';

import { stateRefusal, unknownReference } from '../shared/hardware-refusals.ts';
import {
  compartmentsOf,
  HARDWARE_UNITS,
  OPEN_TICKET_STATUSES,
  TICKETS,
  withDerivedFields,
} from '../shared/hardware-store.ts';
import type { StoredUnit } from '../shared/hardware-store.ts';
import { refreshServicePointHardware } from './service-point-hardware-derived.ts';
import { HardwareStatus, RemovalState } from '../../../../src/types/generated/codes.ts';
import { inStore, SERVICE_POINTS } from '../shared/endpoints.ts';
import { isSet, optionalVersion } from '../shared/values.ts';
import { bodyParams, ID_VALUE } from '../shared/params.ts';

/**
 * A service point's installation plan (spec 02 §4, §5, §8): which units are planned at it, marking
 * them open or closed for installation (and installed ones for uninstallation), and dropping the plan.
 *
 * A unit is planned by setting its `service_point_id` through the hardware unit's own write path,
 * from the warehouse only. Statuses 5 Ready for installation, 6 Pending units and 7 Active take
 * hardware; every other status refuses, and so do a service point on hold and a terminated one
 * (status 9). A test service point takes hardware like any other: its shipments are tests, its
 * lockers real. At most `max_hardware_units` units (7, the spec's maximum, when it is not set).
 */

const ACCEPTS_HARDWARE = new Set([5, 6, 7]);
/** Spec 02 §9: hardware units per service point 1-7. */
export const MAX_UNITS_PER_SERVICE_POINT = 7;
/** Ticket type Install (spec 02 §4). */
const INSTALL_TICKET = 1;

const messages = {
  sp_hw_status_not_ready: 'Service point status is not ready for hardware to add',
  sp_hw_limit_reached: 'The allowed number of hardware units is reached',
  installation_plan_initiated: 'Installation planning has already been initiated',
  installation_plan_empty: 'The service point has no planned hardware units',
  installation_already_open: 'The hardware unit is already open for installation',
  installation_already_closed: 'The hardware unit is already closed for installation',
  uninstallation_already_pending: 'The hardware unit is already closed for uninstallation',
  uninstallation_not_pending: 'The hardware unit is not closed for uninstallation',
  hardware_id_required: 'The hardware unit id is required',
} as const;

type PlanRefusal = keyof typeof messages;

/** The app shows these in the user's language from `service_points.hardware.errors.<key>`. */
const refusal = (key: PlanRefusal, status = 409, field?: string) =>
  new HttpError(status, messages[key], {
    message_key: `service_points.hardware.errors.${key}`,
    ...(field && { errors: { [field]: { message: `service_points.hardware.errors.${key}` } } }),
  });

async function unitCountAt(tx: Db, servicePointId: string, except?: string) {
  const found = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE ${inStore(HARDWARE_UNITS)} AND doc->>'service_point_id' = $1
       AND key <> $2`,
    [servicePointId, except ?? ''],
  );
  return Number(found.rows[0].n);
}

/** Whether the service point's status lets hardware be added, and room is left under its maximum. */
async function assertMayPlanAt(tx: Db, servicePoint: ServicePoint, key: string, unitKey: string | undefined) {
  if (servicePoint.is_terminated || servicePoint.parked || !ACCEPTS_HARDWARE.has(servicePoint.status)) {
    throw refusal('sp_hw_status_not_ready', 409);
  }
  const limit = servicePoint.max_hardware_units ?? MAX_UNITS_PER_SERVICE_POINT;
  if ((await unitCountAt(tx, key, unitKey)) >= limit) throw refusal('sp_hw_limit_reached', 409);
}

/**
 * The service point a unit is to be at after a write: the stored one unless the body names another.
 * From the warehouse a unit may be planned at a service point the caller may edit, when its status
 * and limit allow; a unit already at a service point leaves it only through an uninstall ticket.
 */
export async function servicePointOfUnit(ctx: RuleContext, before: StoredUnit | undefined): Promise<number | null> {
  const current = before?.service_point_id ?? null;
  const input = ctx.input;
  if (!input || !Object.hasOwn(input, 'service_point_id')) return current;
  const wanted = input.service_point_id;
  if (String(wanted ?? '') === String(current ?? '')) return current;
  if (current !== null) throw stateRefusal('hw_detach_by_ticket');
  if (!/^[1-9]\d{0,9}$/.test(String(wanted))) throw unknownReference('service_point_id');
  const servicePoints = ctx.resources.get('service_points')!;
  assertResourceAccess(ctx.access, servicePoints, 'edit');
  // Locked until the write commits, so that two units planned at once cannot both take the last place.
  const found = await ctx.tx.query<{ doc: ServicePoint }>(
    `SELECT doc FROM records WHERE ${inStore(SERVICE_POINTS)} AND key = $1 FOR UPDATE`,
    [String(wanted)],
  );
  const servicePoint = found.rows[0]?.doc;
  if (!servicePoint || !visible(scopeFor(ctx.access, servicePoints), servicePoint as unknown as Doc)) {
    throw unknownReference('service_point_id');
  }
  await assertMayPlanAt(ctx.tx, servicePoint, String(wanted), before?.hardware_id?.toString());
  return Number(wanted);
}

function hardwareResource(ctx: OpnameContext) {
  const hardware = ctx.resources.get(HARDWARE_UNITS)!;
  assertResourceAccess(ctx.access, hardware, 'edit');
  return hardware;
}

const planParams = bodyParams({
  service_point_id: { schema: ID_VALUE, refusal: ['gateway.param_required', { name: 'service_point_id' }] },
});

const servicePointKey = (body: Doc) => String(planParams(body).service_point_id);

/** The unit as it is to be after the mark, or a refusal when it already is so. */
function marked(unit: StoredUnit, open: boolean): StoredUnit {
  if (unit.is_terminated) throw stateRefusal('hw_terminated');
  if (unit.status === HardwareStatus.Assigned) {
    const isOpen = unit.badges_v2?.includes('installation_open') === true;
    if (isOpen === open) throw refusal(open ? 'installation_already_open' : 'installation_already_closed');
    return { ...unit, installation_open: open };
  }
  // Installed: closing schedules its uninstallation, opening again keeps it in service.
  const pending = unit.removal_state === RemovalState.ScheduledRemoved;
  if (!open && pending) throw refusal('uninstallation_already_pending');
  if (open && !pending) throw refusal('uninstallation_not_pending');
  return { ...unit, removal_state: open ? RemovalState.NotRemoved : RemovalState.ScheduledRemoved };
}

/** Writes a unit the gateway changed, its derived fields again, audited under the caller's name. */
async function writeUnit(
  tx: Db,
  access: CallerAccess,
  hardware: ResourceDefinition,
  existing: StoredRecord,
  doc: StoredUnit,
) {
  const refreshed = await withDerivedFields(tx, doc, await compartmentsOf(tx, existing.key));
  return commitChange(tx, actorOf(access), hardware, {
    action: 'update',
    existing,
    doc: refreshed as unknown as Doc,
    basedOnVersion: existing.version,
  });
}

/**
 * `PATCH service_points { opname: mark_open_for_installation | mark_close_for_installation,
 * service_point_id, hardware_id[, version] }` (spec 02 §4, §5): a planned unit is opened or closed for
 * installation; an installed one is closed for uninstallation, or opened again to stay.
 */
function markInstallation(open: boolean) {
  return async (ctx: OpnameContext, body: Doc) => {
    const hardwareId = body.hardware_id;
    if (!isSet(hardwareId) || !/^[1-9]\d{0,9}$/.test(String(hardwareId))) {
      throw refusal('hardware_id_required', 422, 'hardware_id');
    }
    const key = servicePointKey(body);
    const version = optionalVersion(body);
    const hardware = hardwareResource(ctx);
    return ctx.db.transaction(async (tx) => {
      await visibleRecord(tx, ctx.access, ctx.resource, key);
      const existing = await readRecord(tx, hardware, String(hardwareId));
      if (!existing || String(existing.doc.service_point_id ?? '') !== key) throw stateRefusal('pinpad_hw_not_at_sp');
      if (version !== undefined && version !== existing.version) throw staleVersion();
      const unit = marked(existing.doc as unknown as StoredUnit, open);
      const data = await writeUnit(tx, ctx.access, hardware, existing, unit);
      await refreshServicePointHardware(tx, [key]);
      return { success: true, data };
    });
  };
}

/**
 * An install ticket still open for the service point or one of its planned units: the installers
 * have the plan in hand.
 */
async function hasOpenInstallTicket(tx: Db, servicePointId: string, unitIds: number[]) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE ${inStore(TICKETS)} AND (doc->>'ticket_type')::int = $1
       AND (doc->>'status')::int = ANY($2::int[])
       AND (doc->>'sp_id' = $3 OR doc->>'service_point_id' = $3
            OR doc->>'hardware_unit_id' = ANY($4::text[])
            OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(doc->'hardware_unit_ids', '[]'::jsonb)) AS id
                       WHERE id = ANY($4::text[])))
     LIMIT 1`,
    [INSTALL_TICKET, OPEN_TICKET_STATUSES, servicePointId, unitIds.map(String)],
  );
  return found.rows.length > 0;
}

/**
 * `DELETE service_points { opname: installation_plan, service_point_id }`: the planned units (not yet
 * installed) go back to the warehouse. Refused once installation is under way: a planned unit open
 * for installation, or an open install ticket for the service point or its planned units.
 */
async function deleteInstallationPlan(ctx: OpnameContext, body: Doc) {
  const key = servicePointKey(body);
  const hardware = hardwareResource(ctx);
  return ctx.db.transaction(async (tx) => {
    await visibleRecord(tx, ctx.access, ctx.resource, key);
    const found = await tx.query<StoredRecord>(
      `SELECT key, doc, version FROM records WHERE ${inStore(HARDWARE_UNITS)} AND doc->>'service_point_id' = $1
         AND (doc->>'status')::int = $2 ORDER BY (doc->>'hardware_id')::int`,
      [key, HardwareStatus.Assigned],
    );
    const planned = found.rows;
    if (!planned.length) throw refusal('installation_plan_empty');
    const units = planned.map((record) => record.doc as unknown as StoredUnit);
    if (
      units.some((unit) => unit.badges_v2?.includes('installation_open')) ||
      (await hasOpenInstallTicket(
        tx,
        key,
        units.map((unit) => unit.hardware_id!),
      ))
    ) {
      throw refusal('installation_plan_initiated');
    }
    for (const [index, record] of planned.entries()) {
      const unit: StoredUnit = { ...units[index], service_point_id: null, status: HardwareStatus.InWarehouse };
      // Back in the warehouse the unit starts afresh: a later plan elsewhere follows its own service point.
      delete unit.installation_open;
      await writeUnit(tx, ctx.access, hardware, record, unit);
    }
    await refreshServicePointHardware(tx, [key]);
    return { success: true, data: { service_point_id: Number(key), removed: units.map((unit) => unit.hardware_id) } };
  });
}

export const installationPatchOpnames = {
  mark_open_for_installation: markInstallation(true),
  mark_close_for_installation: markInstallation(false),
};

export const installationRemovals = { installation_plan: deleteInstallationPlan };
