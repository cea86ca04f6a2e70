import { HttpError, keyedError } from '../../http-error.ts';
import type { ServicePointGroup } from '../../../../src/types/generated/service-point-group.ts';
import { recordRules } from '../../resource-rules.ts';
import { inStore, PIECES, SERVICE_POINTS } from '../shared/endpoints.ts';
import { findKeys } from '../shared/docs.ts';

const NAME_EXISTS = 'Service point group name already exists';
const DELETION_BLOCKED = 'Active shipments or carriers block service point group deletion';

/** A group needs a unique name and real service points; carriers or active shipments keep it alive. */
export const servicePointGroupRules = recordRules<ServicePointGroup>({
  async beforeWrite({ tx, resource }, doc, existing) {
    const clash = await tx.query(
      `SELECT 1 FROM records WHERE resource = $1 AND lower(doc->>'group_name') = lower($2) AND key <> $3 LIMIT 1`,
      [resource.endpoint, doc.group_name, existing?.key ?? ''],
    );
    if (clash.rows.length) {
      throw new HttpError(422, NAME_EXISTS, {
        message_key: 'catalogue.sp_group_name_exists',
        errors: { group_name: { message: 'catalogue.sp_group_name_exists' } },
      });
    }
    const ids = doc.service_point_ids.map(String);
    const found = await findKeys(tx, SERVICE_POINTS, { where: { key: ids } });
    if (found.length !== ids.length) {
      throw keyedError(422, 'gateway.unknown_group_service_point', undefined, {
        errors: { service_point_ids: { message: 'validation.unknown_reference' } },
      });
    }
  },

  async beforeDelete({ tx }, existing) {
    const carriers = existing.doc.carrier_ids ?? [];
    const members = existing.doc.service_point_ids.map(String);
    const shipments = await tx.query(
      `SELECT 1 FROM records WHERE ${inStore(PIECES)} AND doc->>'service_point_id' = ANY($1::text[])
       AND coalesce((doc->>'active')::boolean, false) LIMIT 1`,
      [members],
    );
    if (carriers.length || shipments.rows.length) {
      throw new HttpError(409, DELETION_BLOCKED, { message_key: 'catalogue.sp_group_delete_blocked' });
    }
  },
});
