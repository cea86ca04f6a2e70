import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import { assertResourceAccess, assertTabReadable, type CallerAccess } from '../../caller-access.ts';
import { badRequest, HttpError, notFound } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import type { ResourceDefinition } from '../../resource-registry.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { visibleRecord } from '../../write-pipeline.ts';
import { compartmentsOf, HARDWARE_UNITS, readDoc, type StoredUnit } from '../shared/hardware-store.ts';
import { inStore, type Store } from '../shared/endpoints.ts';
import { optionalIdText, queryParams, SOME_TEXT } from '../shared/params.ts';

/**
 * A service point's hardware, read through the service point (spec 02 §7, `GET service_points?opname=
 * get_compartments`): the calls of its Hardware units tab, which `x-resource.tabReads` shows only to
 * users who may read hardware units; they see the units of the service points they see. A unit on its
 * own, only by who may read it.
 */

const HARDWARE_TAB = 'hardware_units';

const compartmentsParams = queryParams({
  hardware_id: optionalIdText('hardware_id'),
  service_point_id: optionalIdText('service_point_id'),
});
const SERVICE_POINT_REQUIRED = ['gateway.param_required', { name: 'service_point_id' }] as const;
const unitsParams = queryParams({
  service_point_id: {
    // A malformed id is named before an empty one, as the id is read first.
    schema: optionalIdText('service_point_id').schema,
    refusal: ['gateway.positive_integer', { name: 'service_point_id' }],
    missing: SERVICE_POINT_REQUIRED,
    then: [{ schema: SOME_TEXT, refusal: SERVICE_POINT_REQUIRED }],
  },
});

function mayReadUnit(access: CallerAccess, hardware: ResourceDefinition, unit: Doc) {
  try {
    assertResourceAccess(access, hardware, 'read');
  } catch (error) {
    if (error instanceof HttpError) return false;
    throw error;
  }
  return visible(scopeFor(access, hardware), unit);
}

async function unitsAt(ctx: OpnameContext, servicePointId: string) {
  const found = await ctx.db.query<{ doc: StoredUnit; version: number }>(
    `SELECT doc, version FROM records WHERE ${inStore(HARDWARE_UNITS)} AND doc->>'service_point_id' = $1
     ORDER BY (doc->>'hardware_id')::int`,
    [servicePointId],
  );
  return found.rows.map((row) => ({ ...row.doc, version: row.version }));
}

const withCompartments = async (ctx: OpnameContext, unit: StoredUnit) => ({
  hardware_id: unit.hardware_id,
  name: unit.name,
  model_name: unit.model_name,
  compartments: (await compartmentsOf(ctx.db, unit.hardware_id!)) satisfies Compartment[],
});

/** `get_compartments` with exactly one of `hardware_id` and `service_point_id`. */
async function getCompartments(ctx: OpnameContext, query: Record<string, string>) {
  const ids = compartmentsParams(query);
  const hardwareId = ids.hardware_id || undefined;
  const servicePointId = ids.service_point_id || undefined;
  // Not a shape: exactly one of the two ids.
  if ((hardwareId === undefined) === (servicePointId === undefined)) {
    throw badRequest('gateway.hardware_or_service_point');
  }
  assertTabReadable(ctx.access, ctx.resources, ctx.resource, HARDWARE_TAB);
  if (servicePointId !== undefined) {
    await visibleRecord(ctx.db, ctx.access, ctx.resource, servicePointId);
    const units = await unitsAt(ctx, servicePointId);
    return { success: true, data: await Promise.all(units.map((unit) => withCompartments(ctx, unit))) };
  }
  const unit = await readDoc<StoredUnit>(ctx.db, HARDWARE_UNITS, hardwareId);
  if (!unit) throw notFound();
  const hardware = ctx.resources.get(HARDWARE_UNITS)!;
  if (!mayReadUnit(ctx.access, hardware, { ...unit })) {
    const servicePoint =
      unit.service_point_id === undefined || unit.service_point_id === null
        ? undefined
        : await readDoc<Doc>(ctx.db, ctx.resource.endpoint as Store, unit.service_point_id);
    if (!servicePoint || !visible(scopeFor(ctx.access, ctx.resource), servicePoint)) throw notFound();
  }
  return { success: true, data: [await withCompartments(ctx, unit)] };
}

/** `hardware_units&service_point_id=`: the units installed or planned at a service point the caller sees. */
async function hardwareUnits(ctx: OpnameContext, query: Record<string, string>) {
  const servicePointId = unitsParams(query).service_point_id;
  assertTabReadable(ctx.access, ctx.resources, ctx.resource, HARDWARE_TAB);
  await visibleRecord(ctx.db, ctx.access, ctx.resource, servicePointId);
  return { success: true, data: await unitsAt(ctx, servicePointId) };
}

export const servicePointHardwareQueries = { get_compartments: getCompartments, hardware_units: hardwareUnits };
