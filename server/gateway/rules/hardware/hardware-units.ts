import { gzipSync } from 'node:zlib';
import type { Db } from '../../../db/adapter.ts';
import { noPermission } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext, type RuleContext } from '../../resource-rules.ts';
import { scopeFor } from '../../tenancy.ts';
import { recordKeyOf } from '../../write-pipeline.ts';

import { fieldRefusal, partnerMismatch, stateRefusal, unknownReference } from '../shared/hardware-refusals.ts';
import { refreshServicePointHardware } from './service-point-hardware-derived.ts';
import { servicePointOfUnit } from './service-point-hardware-plan.ts';
import { ticketStateRefusal } from '../shared/ticket-refusals.ts';
import {
  compartmentsOf,
  compartmentsOfLayout,
  createCompartments,
  deleteCompartments,
  HARDWARE_MODELS,
  HARDWARE_OWNERS,
  HARDWARE_UNITS,
  hasOpenCompartmentTicket,
  hasOpenTicket,
  holdsParcel,
  readModel,
  recordExists,
  withDerivedFields,
  type HardwareModel,
  type StoredUnit,
} from '../shared/hardware-store.ts';
import { LicenseBadge, RemovalState } from '../../../../src/types/generated/codes.ts';
import { recordLicenceChange } from '../integrations/licences.ts';
import { optionalVersion } from '../shared/values.ts';
import { bodyParams, queryParams, SOME_VALUE } from '../shared/params.ts';

/** Spec 01 §9 and 02 §9: hardware models are fetched 100 at a time. */
const MODELS_PAGE_SIZE = 100;

const sameValue = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/** The model named by a unit or a PIN pad: it must exist and be of the record's kind. */
export async function modelOfKind(tx: Db, modelId: number, hardwareType: number): Promise<HardwareModel> {
  const model = await readModel(tx, modelId);
  if (!model) throw unknownReference('hardware_model_id');
  if (model.hardware_type !== hardwareType) throw fieldRefusal('hw_model_mismatch', 'hardware_model_id');
  return model;
}

const deleteParams = bodyParams({
  partner_id: { schema: SOME_VALUE, refusal: ['gateway.param_required', { name: 'partner_id' }] },
});

/** `DELETE {partner_id}`: the partner named must own the record (spec 02 §7). */
export function assertDeletingPartner(ctx: RuleContext, owner: number) {
  const partner = deleteParams(ctx.input).partner_id;
  if (String(partner) !== String(owner)) throw partnerMismatch();
}

/**
 * Spec 02 §4, §7: terminating is permanent and only for a unit that is not at a service point and has
 * no open ticket. `PATCH service_points/hardware_units { opname: "terminate_hardware", hardware_id, version }`.
 */
async function terminateHardware(ctx: OpnameContext, body: Doc) {
  const version = optionalVersion(body);
  const data = await ctx.writes.change(
    recordKeyOf(ctx.resource, body),
    async (tx, existing) => {
      const unit = existing.doc as unknown as StoredUnit;
      if (unit.is_terminated) throw stateRefusal('hw_terminated');
      if (unit.service_point_id !== undefined && unit.service_point_id !== null) {
        throw stateRefusal('hw_requires_uninstall');
      }
      if (await hasOpenTicket(tx, existing.key)) throw stateRefusal('hw_open_ticket');
      return { ...unit, is_terminated: true };
    },
    version,
  );
  return { success: true, data };
}

const modelPageParams = queryParams({
  limit: {
    // 1 to MODELS_PAGE_SIZE (100) in at most three digits; absent or empty is the whole page.
    schema: { type: 'string', pattern: '^(0{0,2}[1-9]|0?[1-9][0-9]|100)?$' },
    refusal: ['gateway.integer_range', { name: 'limit', min: 1, max: MODELS_PAGE_SIZE }],
    optional: true,
  },
  offset: {
    schema: { type: 'string', pattern: '^([0-9]{1,9})?$' },
    refusal: ['gateway.whole_number_expected', { field: 'offset' }],
    optional: true,
  },
  hardware_type: {
    schema: { enum: ['', '1', '2'] },
    refusal: ['gateway.one_of', { name: 'hardware_type', values: '1, 2' }],
    optional: true,
  },
});

/** `GET ...hardware_units?opname=hardware_models&limit&hardware_type`: the models, 100 at most. */
async function hardwareModels(ctx: OpnameContext, query: Record<string, string>) {
  const { limit: limitText = '', offset: offsetText = '', hardware_type: type = '' } = modelPageParams(query);
  const limit = limitText === '' ? MODELS_PAGE_SIZE : Number(limitText);
  const params: unknown[] = [HARDWARE_MODELS];
  const byType = type === '' ? '' : ` AND doc->>'hardware_type' = $${params.push(type)}`;
  const total = await ctx.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE resource = $1${byType}`,
    params,
  );
  const found = await ctx.db.query<{ doc: HardwareModel }>(
    `SELECT doc FROM records WHERE resource = $1${byType}
     ORDER BY (doc->>'hardware_model_id')::int LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, Number(offsetText || 0)],
  );
  return { success: true, data: found.rows.map((row) => row.doc), total: Number(total.rows[0].n) };
}

const warehouseParams = queryParams({
  compressed: {
    schema: { enum: ['', 'true', 'false'] },
    refusal: ['gateway.boolean_expected', { field: 'compressed' }],
    optional: true,
  },
});

/**
 * `GET ...hardware_units?opname=warehouse[&compressed=true]`: the units the caller may see that are at
 * no service point and can still go to one (terminated units stay out). Compressed, the JSON array is
 * gzipped and base64-encoded, as production sends large lookups.
 */
async function warehouse(ctx: OpnameContext, query: Record<string, string>) {
  const { compressed = '' } = warehouseParams(query);
  const scope = scopeFor(ctx.access, ctx.resource);
  if (scope === 'none') throw noPermission();
  const params: unknown[] = [HARDWARE_UNITS];
  const owner = typeof scope === 'object' ? ` AND doc->>'${scope.field}' = $${params.push(scope.value)}` : '';
  const found = await ctx.db.query<{ doc: Doc; version: number }>(
    `SELECT doc, version FROM records WHERE resource = $1${owner}
       AND coalesce(doc->>'service_point_id', '') = '' AND NOT coalesce((doc->>'is_terminated')::boolean, false)
     ORDER BY (doc->>'hardware_id')::int`,
    params,
  );
  const units = found.rows.map((row) => ({ ...row.doc, version: row.version }));
  if (compressed !== 'true') return { success: true, data: units };
  return { success: true, compressed: 'gzip-base64', data: gzipSync(JSON.stringify(units)).toString('base64') };
}

/**
 * Hardware units (spec 02 §3, §4, §8): the derived fields are the gateway's; a new unit starts in
 * the warehouse with the compartments of its model; terminated is final; a unit at a service point,
 * holding parcels or with an open ticket cannot go; its service point changes only through tickets.
 */
export const hardwareUnitRules = recordRules<StoredUnit>({
  async beforeWrite(ctx, doc, existing) {
    const { tx } = ctx;
    const before = existing?.doc;
    if (before?.is_terminated) throw stateRefusal('hw_terminated');
    const servicePointId = await servicePointOfUnit(ctx, before);
    if (!sameValue(doc.hardware_owner_id, before?.hardware_owner_id)) {
      if (!(await recordExists(tx, HARDWARE_OWNERS, doc.hardware_owner_id)))
        throw unknownReference('hardware_owner_id');
    }
    const model = await modelOfKind(tx, doc.hardware_model_id, doc.hardware_type);
    const modelChanged = before !== undefined && before.hardware_model_id !== doc.hardware_model_id;
    const stored = existing ? await compartmentsOf(tx, existing.key) : [];
    // A new model replaces the compartments: not while a ticket is against one of them (spec 02 §8).
    if (modelChanged && (await hasOpenCompartmentTicket(tx, existing!.key))) {
      throw ticketStateRefusal('ticket_compartment_open');
    }
    if (modelChanged && stored.some(holdsParcel)) throw stateRefusal('hw_contains_parcels');
    // The gateway's fields, whatever the body said: from the stored unit, or a new unit's start.
    const unit: StoredUnit = {
      ...doc,
      model_name: model.name,
      service_point_id: servicePointId,
      pinpad_id: before?.pinpad_id ?? null,
      status: before?.status ?? 1,
      is_terminated: doc.is_terminated === true,
      removal_state: before?.removal_state ?? RemovalState.NotRemoved,
      // A terminated unit's licence ends with it (its history says from when: licences.ts).
      license_status:
        doc.is_terminated === true ? LicenseBadge.Terminated : (before?.license_status ?? LicenseBadge.Pending),
      last_sync_at: before?.last_sync_at ?? null,
      battery_level: before?.battery_level ?? null,
    };
    const compartments = existing && !modelChanged ? stored : compartmentsOfLayout(doc.hardware_id ?? 0, model.layout);
    return withDerivedFields(tx, unit, compartments);
  },

  async afterWrite({ tx, access }, written, existing) {
    await refreshServicePointHardware(tx, [existing?.doc.service_point_id, written.service_point_id]);
    if (written.license_status !== undefined && written.license_status !== existing?.doc.license_status) {
      await recordLicenceChange(tx, String(written.hardware_id), written.license_status, access.caller.username);
    }
    if (existing && existing.doc.hardware_model_id === written.hardware_model_id) return;
    const model = await readModel(tx, written.hardware_model_id);
    if (existing) await deleteCompartments(tx, existing.key);
    await createCompartments(tx, written.hardware_id!, model!.layout);
  },

  async beforeDelete(ctx, existing) {
    const unit = existing.doc;
    assertDeletingPartner(ctx, unit.hardware_owner_id);
    if (unit.service_point_id !== undefined && unit.service_point_id !== null) {
      throw stateRefusal('hw_requires_uninstall');
    }
    if ((await compartmentsOf(ctx.tx, existing.key)).some(holdsParcel)) throw stateRefusal('hw_contains_parcels');
    if (await hasOpenCompartmentTicket(ctx.tx, existing.key)) throw ticketStateRefusal('ticket_compartment_open');
    if (await hasOpenTicket(ctx.tx, existing.key)) throw stateRefusal('hw_open_ticket');
    await deleteCompartments(ctx.tx, existing.key);
  },

  patchOpnames: { terminate_hardware: terminateHardware },
  queries: { hardware_models: hardwareModels, warehouse },
});
