import { HttpError, keyedError } from '../../http-error.ts';
import type { Db } from '../../../db/adapter.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { recordRules } from '../../resource-rules.ts';
import { RECORD_LOOKUPS } from '../../lists.ts';
import { refreshHardwareUnits } from '../shared/hardware-store.ts';
import { servicePointHardwareQueries } from '../hardware/service-point-hardware.ts';
import { installationPatchOpnames, installationRemovals } from '../hardware/service-point-hardware-plan.ts';
import { refreshServicePointHardware } from '../hardware/service-point-hardware-derived.ts';
import { assertCarrierSettings } from './service-point-carrier-settings.ts';
import { servicePointBulkImport } from './service-point-bulk.ts';
import { servicePointPdfQueries } from './service-point-pdf.ts';
import { servicePointMapQueries } from './service-point-map.ts';
import { servicePointReportQueries } from './service-point-report.ts';
import { putServicePointPhoto, servicePointPhotoRemovals } from './service-point-photos.ts';
import { removeRecordUploads } from '../../uploads.ts';
import { servicePointAddressQueries, validatedAddress } from './service-point-address.ts';
import { assertServicePointMunicipality } from '../shared/municipalities.ts';
import { servicePointCoreChecks, servicePointCorePatchOpnames } from './service-point-core.ts';
import { HARDWARE_UNITS, inStore, PIECES } from '../shared/endpoints.ts';

const ON_HOLD = 'The status cannot be edited because the service point is on hold';
const TEST_PERMANENT = 'A test service point is permanent and cannot become live';
const TERMINATION_PERMANENT = 'Termination is permanent';
const TERMINATION_BLOCKED = 'Service point contains active shipments or installed hardware';
const STATUS_RESERVED = 'Terminated and Archived are set by their own actions, not by the status';

/** Spec 02 §4: Terminated (9) comes only from the termination path, Archived (0) from none a body can take. */
const TERMINATED = 9;
const RESERVED_STATUSES: readonly number[] = [0, TERMINATED];
/** Every status but Archived and Terminated. */
const LIVE_STATUSES = [1, 2, 3, 4, 5, 6, 7, 8];

const refused = (message: string, key: string, field: string) =>
  new HttpError(422, message, {
    message_key: `catalogue.${key}`,
    errors: { [field]: { message: `catalogue.${key}` } },
  });

/** Installed hardware or shipments still waiting at the service point. */
async function inUse(tx: Db, servicePointId: string) {
  const found = await tx.query(
    `SELECT 1 FROM records WHERE ${inStore(HARDWARE_UNITS)} AND doc->>'service_point_id' = $1
     UNION ALL
     SELECT 1 FROM records WHERE ${inStore(PIECES)} AND doc->>'service_point_id' = $1
       AND coalesce((doc->>'active')::boolean, false)
     LIMIT 1`,
    [servicePointId],
  );
  return found.rows.length > 0;
}

/** The service point's fields that name a partner, a group or carriers, with the lookup holding them. */
const REFERENCES: [keyof ServicePoint, keyof typeof RECORD_LOOKUPS][] = [
  ['location_owner_id', 'location_owners'],
  ['maintenance_provider_id', 'maintenance_providers'],
  ['support_provider_id', 'support_providers'],
  ['service_point_group_id', 'service_point_groups'],
  ['carriers_access', 'carrier_list'],
];

/**
 * A 422 on the first field newly naming a record that does not exist, so that no list shows a bare
 * id. A value the record already held is left alone: a partner removed since does not block every edit.
 */
async function assertReferencesExist(tx: Db, doc: ServicePoint, before: ServicePoint | undefined) {
  for (const [field, lookup] of REFERENCES) {
    const value = doc[field];
    if (value === undefined || value === null) continue;
    if (before && JSON.stringify(before[field]) === JSON.stringify(value)) continue;
    const ids = (Array.isArray(value) ? value : [value]).map(String);
    if (!ids.length) continue;
    const found = await tx.query<{ key: string }>(
      'SELECT key FROM records WHERE resource = $1 AND key = ANY($2::text[])',
      [RECORD_LOOKUPS[lookup].resource, ids],
    );
    if (found.rows.length !== new Set(ids).size) {
      throw keyedError(422, 'http.save_failed', undefined, {
        errors: { [field]: { message: 'validation.unknown_reference' } },
      });
    }
  }
}

const was = (existing: ServicePoint | undefined, field: keyof ServicePoint) => existing?.[field] === true;

/** Spec 02 §4: on hold freezes the status; test and terminated are one-way. */
export const servicePointRules = recordRules<ServicePoint>({
  async beforeWrite(ctx, doc, existing) {
    const { tx, input } = ctx;
    const before = existing?.doc;
    doc = await validatedAddress(tx, input, doc, before);
    await assertServicePointMunicipality(tx, doc, before);
    if (before && was(before, 'parked') && doc.status !== before.status) {
      throw refused(ON_HOLD, 'status_on_hold', 'status');
    }
    if (was(before, 'test_sp') && doc.test_sp !== true) throw refused(TEST_PERMANENT, 'test_sp_permanent', 'test_sp');
    if (was(before, 'is_terminated') && doc.is_terminated !== true) {
      throw refused(TERMINATION_PERMANENT, 'termination_permanent', 'is_terminated');
    }
    const terminating = doc.is_terminated === true && !was(before, 'is_terminated');
    if (terminating && existing && (await inUse(tx, existing.key))) {
      throw refused(TERMINATION_BLOCKED, 'termination_blocked', 'is_terminated');
    }
    // Whatever the body says: status 9 only with the termination (whose check ran above), 0 never newly.
    if (RESERVED_STATUSES.includes(doc.status) && doc.status !== before?.status) {
      if (!(doc.status === TERMINATED && (terminating || was(before, 'is_terminated')))) {
        throw refused(STATUS_RESERVED, 'service_point_status_reserved', 'status');
      }
    }
    await assertReferencesExist(tx, doc, before);
    await assertCarrierSettings(tx, doc, existing);
    const checked = await servicePointCoreChecks(ctx, doc, existing);
    return checked.is_terminated === true ? { ...checked, status: 9, active: false } : checked;
  },

  // Its units' badges follow the service point's status (installation open, inactive hardware).
  async afterWrite({ tx }, written, existing) {
    // A new service point has no hardware yet: nothing to derive, and a large import stays fast. Its hardware
    // fields are the gateway's (a body naming them is dropped), so of an edit only a new status changes them:
    // an edit of other fields reads no units and PIN pads (issue 32).
    if (!existing || existing.doc.status === written.status) return;
    await refreshHardwareUnits(tx, { servicePointId: written.service_point_id! });
    await refreshServicePointHardware(tx, [written.service_point_id]);
  },

  async beforeDelete({ tx, resource }, existing) {
    if (await inUse(tx, existing.key)) throw refused(TERMINATION_BLOCKED, 'termination_blocked', 'service_point_id');
    await removeRecordUploads(tx, resource, existing.key);
  },

  /**
   * The search helper's `basic_sp_search` (spec 02 §7, with `has_hardware`, a field filter, and a page of
   * `searchPageSize` 20): the service points a new ticket, booking or group may name, neither archived
   * nor terminated.
   */
  listConditions(query) {
    if (query.queryFilters?.basic_sp_search !== true) return [];
    return [
      { field: 'status', op: 'in', value: LIVE_STATUSES },
      { field: 'is_terminated', op: 'in', value: ['false'] },
    ];
  },

  opnames: { bulk_import: servicePointBulkImport() },
  patchOpnames: { ...installationPatchOpnames, ...servicePointCorePatchOpnames },
  removals: { ...installationRemovals, ...servicePointPhotoRemovals },
  queries: {
    ...servicePointReportQueries,
    ...servicePointHardwareQueries,
    ...servicePointAddressQueries,
    ...servicePointPdfQueries,
    ...servicePointMapQueries,
  },
  put: putServicePointPhoto,
});
