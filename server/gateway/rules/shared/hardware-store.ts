import type { Db } from '../../../db/adapter.ts';
import type { Compartment } from '../../../../src/types/generated/compartment.ts';
import type { HardwareUnit } from '../../../../src/types/generated/hardware-unit.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../../../src/schema/ajv.ts';
import { validateRecord } from '../../../../src/schema/validate.ts';
import { loadSchemas } from '../../resource-registry.ts';
import { deriveHardwareFields, type CompartmentState, type UnitState } from '../hardware/hardware-badges.ts';
import { refreshServicePointHardware } from '../hardware/service-point-hardware-derived.ts';
import { existsDoc, findDocs, findStored, readDoc } from './docs.ts';
import {
  COMPARTMENTS,
  HARDWARE_MODELS,
  HARDWARE_UNITS,
  inStore,
  SERVICE_POINTS,
  TICKETS,
  type Store,
} from './endpoints.ts';

/**
 * What the hardware rules read and write besides the record being written: models, compartments,
 * the service point a unit is at, open tickets, and the derived fields of stored units.
 */

export {
  COMPARTMENTS,
  HARDWARE_MODELS,
  HARDWARE_OWNERS,
  HARDWARE_UNITS,
  PINPADS,
  SERVICE_POINTS,
  TICKETS,
} from './endpoints.ts';
export { readDoc } from './docs.ts';
/** Ticket statuses that keep a ticket open (spec 02 §4): Open, OnHold, PhotoPending. */
export const OPEN_TICKET_STATUSES = [1, 3, 4];

export type CompartmentSize = Compartment['size'];

/** One column of a locker, its compartments listed from the top. */
export interface LayoutColumn {
  sizes: CompartmentSize[];
}

export interface HardwareModel {
  hardware_model_id: number;
  name: string;
  /** 1 parcel locker, 2 PIN pad (common.schema.json hardwareKind). */
  hardware_type: 1 | 2;
  /** A locker's columns from left to right; a PIN pad has none. */
  layout: LayoutColumn[];
}

/** A stored unit: its schema fields and the device's own report (battery), which no client writes. */
export type StoredUnit = HardwareUnit & UnitState;

let registry: SchemaRegistry | undefined;
/** Compartments have no endpoint, so no pipeline validates them: their schema is checked here. */
function compartmentErrors(compartment: Compartment) {
  registry ??= createSchemaRegistry(loadSchemas());
  return validateRecord(registry, 'compartment', compartment).errors;
}

export async function readModel(tx: Db, id: number): Promise<HardwareModel | undefined> {
  return readDoc<HardwareModel>(tx, HARDWARE_MODELS, id);
}

export async function recordExists(tx: Db, store: Store, key: unknown) {
  return existsDoc(tx, store, { key: String(key) });
}

/** A unit's compartments by column, then position from the top. */
export async function compartmentsOf(tx: Db, hardwareId: number | string): Promise<Compartment[]> {
  // The store's name is written out (inStore), so that the planner sees migration 009's partial index fits.
  return findDocs<Compartment>(tx, COMPARTMENTS, {
    where: { hardware_id: hardwareId },
    orderBy: [
      { field: 'column', numeric: true },
      { field: 'position', numeric: true },
    ],
  });
}

/** Fresh, empty compartments of a model's layout (ids still to be given). */
export function compartmentsOfLayout(
  hardwareId: number,
  layout: LayoutColumn[],
): Omit<Compartment, 'compartment_id'>[] {
  return layout.flatMap((column, columnIndex) =>
    column.sizes.map((size, positionIndex) => ({
      hardware_id: hardwareId,
      column: columnIndex + 1,
      position: positionIndex + 1,
      size,
      piece_id: null,
      next_piece_id: null,
      is_disabled: false,
      is_free: true,
      is_inactive_comp: false,
      is_occupied: false,
      is_reserved: false,
      is_faulty: false,
      is_locked: false,
    })),
  );
}

/** Takes `count` ids of a resource's sequence at once; the first of them is returned. */
export async function reserveIds(tx: Db, resource: string, count: number): Promise<number> {
  const result = await tx.query<{ last_value: string }>(
    `INSERT INTO id_sequences (resource, last_value) VALUES ($1, $2)
     ON CONFLICT (resource) DO UPDATE SET last_value = id_sequences.last_value + $2
     RETURNING last_value`,
    [resource, count],
  );
  return Number(result.rows[0].last_value) - count + 1;
}

/** Stores the compartments of a model's layout for a unit, each checked against its schema. */
export async function createCompartments(tx: Db, hardwareId: number, layout: LayoutColumn[]) {
  const fresh = compartmentsOfLayout(hardwareId, layout);
  if (!fresh.length) return [];
  const first = await reserveIds(tx, COMPARTMENTS, fresh.length);
  const compartments: Compartment[] = fresh.map((compartment, index) => ({
    compartment_id: first + index,
    ...compartment,
  }));
  for (const compartment of compartments) {
    const errors = compartmentErrors(compartment);
    if (Object.keys(errors).length) {
      throw new Error(`Compartment of unit ${hardwareId} refused by its schema: ${JSON.stringify(errors)}`);
    }
  }
  await tx.query(
    `INSERT INTO records (resource, key, doc)
     SELECT $1, c->>'compartment_id', c FROM jsonb_array_elements($2::jsonb) AS c`,
    [COMPARTMENTS, JSON.stringify(compartments)],
  );
  return compartments;
}

export async function deleteCompartments(tx: Db, hardwareId: number | string) {
  await tx.query(`DELETE FROM records WHERE ${inStore(COMPARTMENTS)} AND doc->>'hardware_id' = $1`, [
    String(hardwareId),
  ]);
}

/** A compartment holds a parcel, or one is on its way to it. */
export const holdsParcel = (compartment: Compartment) =>
  compartment.is_occupied === true || Boolean(compartment.piece_id);

export async function servicePointStatus(tx: Db, servicePointId: number | null | undefined) {
  if (servicePointId === null || servicePointId === undefined) return undefined;
  const doc = await readDoc<{ status?: number }>(tx, SERVICE_POINTS, servicePointId);
  return doc?.status;
}

/**
 * An open ticket on the unit: a ticket record naming it (`hardware_unit_id`, or among the
 * `hardware_unit_ids` of an installation ticket) whose status is still open.
 */
export async function hasOpenTicket(tx: Db, hardwareId: number | string) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE ${inStore(TICKETS)}
       AND (doc->>'hardware_unit_id' = $1 OR coalesce(doc->'hardware_unit_ids', '[]'::jsonb) @> $2::jsonb)
       AND (doc->>'status')::int = ANY($3::int[])
     LIMIT 1`,
    [String(hardwareId), JSON.stringify([Number(hardwareId)]), OPEN_TICKET_STATUSES],
  );
  return found.rows.length > 0;
}

/**
 * An open ticket against one of the unit's compartments (a ticket's `compartment_id`), not declined:
 * the compartments stay as they are until it is declined or closed.
 */
export async function hasOpenCompartmentTicket(tx: Db, hardwareId: number | string) {
  const found = await tx.query(
    `SELECT 1 FROM records t WHERE ${inStore(TICKETS, 't')} AND coalesce(t.doc->>'compartment_id', '') <> ''
       AND (t.doc->>'status')::int = ANY($2::int[]) AND coalesce((t.doc->>'ticket_verification_status')::int, 0) <> 2
       AND EXISTS (SELECT 1 FROM records c WHERE ${inStore(COMPARTMENTS, 'c')} AND c.key = t.doc->>'compartment_id'
                   AND c.doc->>'hardware_id' = $1)
     LIMIT 1`,
    [String(hardwareId), OPEN_TICKET_STATUSES],
  );
  return found.rows.length > 0;
}

/** The unit with its derived fields as they are now. */
export async function withDerivedFields<T extends StoredUnit>(
  tx: Db,
  unit: T,
  compartments: CompartmentState[],
  now = new Date(),
): Promise<T> {
  const servicePoint = await servicePointStatus(tx, unit.service_point_id);
  return { ...unit, ...deriveHardwareFields(unit, compartments, { servicePointStatus: servicePoint, now }) };
}

/**
 * Derives the stored units' fields again after something they depend on changed (a compartment's
 * flags, their service point's status), in the caller's transaction. The change that caused it is
 * the one audited; a unit whose fields come out the same is left as it is.
 */
export async function refreshHardwareUnits(tx: Db, where: { hardwareId: number } | { servicePointId: number }) {
  const units = await findStored<StoredUnit>(tx, HARDWARE_UNITS, {
    where: 'hardwareId' in where ? { key: where.hardwareId } : { service_point_id: where.servicePointId },
  });
  for (const { key, doc } of units) {
    const refreshed = await withDerivedFields(tx, doc, await compartmentsOf(tx, key));
    if (JSON.stringify(refreshed) === JSON.stringify(doc)) continue;
    await tx.query(
      `UPDATE records SET doc = $3, version = version + 1, updated_at = now() WHERE resource = $1 AND key = $2`,
      [HARDWARE_UNITS, key, JSON.stringify(refreshed)],
    );
  }
  await refreshServicePointHardware(
    tx,
    units.map((row) => row.doc.service_point_id),
  );
}
