import type { MaintenanceOperator } from '../../../../src/types/generated/maintenance-operator.ts';
import { SAVE_FAILED } from '../../../../src/contract/errors.ts';
import { HttpError, noPermission } from '../../http-error.ts';
import { recordRules } from '../../resource-rules.ts';
import { MAINTENANCE_PROVIDERS, SERVICE_POINTS } from '../shared/endpoints.ts';
import { findKeys } from '../shared/docs.ts';
export { MAINTENANCE_PROVIDERS } from '../shared/endpoints.ts';

const refused = (field: string, message: string) =>
  new HttpError(422, SAVE_FAILED, { errors: { [field]: { message } } });

/**
 * A maintenance operator works for an existing maintenance provider, under a code (its
 * maintenance_operator_id) of its own within that provider, at service points that provider
 * maintains. Operators are switched off (active), never deleted: spec 02 §7 gives GET, POST, PATCH.
 */
export const maintenanceOperatorRules = recordRules<MaintenanceOperator>({
  async beforeWrite({ tx, resource }, doc, existing) {
    const provider = await tx.query(`SELECT 1 FROM records WHERE resource = $1 AND key = $2`, [
      MAINTENANCE_PROVIDERS,
      String(doc.maintenance_provider_id),
    ]);
    if (!provider.rows.length) throw refused('maintenance_provider_id', 'validation.unknown_reference');
    const clash = await tx.query(
      `SELECT 1 FROM records WHERE resource = $1 AND doc->>'maintenance_provider_id' = $2
       AND lower(doc->>'maintenance_operator_id') = lower($3) AND key <> $4 LIMIT 1`,
      [resource.endpoint, String(doc.maintenance_provider_id), doc.maintenance_operator_id, existing?.key ?? ''],
    );
    if (clash.rows.length) {
      throw new HttpError(422, SAVE_FAILED, {
        errors: { maintenance_operator_id: { message: 'catalogue.operator_code_exists' } },
      });
    }
    const servicePoints = doc.sp_id ?? [];
    if (servicePoints.length) {
      const served = await findKeys(tx, SERVICE_POINTS, {
        where: { key: servicePoints.map(String), maintenance_provider_id: String(doc.maintenance_provider_id) },
      });
      if (served.length !== servicePoints.length) throw refused('sp_id', 'catalogue.operator_sp_not_maintained');
    }
    return doc;
  },
  async beforeDelete() {
    throw noPermission();
  },
});
