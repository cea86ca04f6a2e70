import { features } from '../../../../src/schema/features.ts';
import { optionEnabled } from '../../../../src/schema/permissions.ts';
import { bulkImport } from '../../bulk-import.ts';
import { HttpError, keyedError } from '../../http-error.ts';
import type { Courier } from '../../../../src/types/generated/courier.ts';
import { recordRules } from '../../resource-rules.ts';
import { CARRIERS } from '../shared/endpoints.ts';
import { existsDoc } from '../shared/docs.ts';

/** A courier belongs to an existing carrier; its code is unique there, upper-cased when the policy says. */
export const courierRules = recordRules<Courier>({
  async beforeWrite({ tx, access, resource }, doc, existing) {
    if (!(await existsDoc(tx, CARRIERS, { key: String(doc.carrier_id) }))) {
      throw keyedError(422, 'gateway.unknown_carrier', undefined, {
        errors: { carrier_id: { message: 'validation.unknown_reference' } },
      });
    }
    const uppercase = [features.couriers.basic, features.couriers.advance].some((id) =>
      optionEnabled(access.permissions, id, 'uppercase_courier_code'),
    );
    const code = uppercase ? doc.code.toUpperCase() : doc.code;
    const clash = await tx.query(
      `SELECT 1 FROM records WHERE resource = $1 AND doc->>'carrier_id' = $2 AND lower(doc->>'code') = lower($3)
       AND key <> $4 LIMIT 1`,
      [resource.endpoint, String(doc.carrier_id), code, existing?.key ?? ''],
    );
    if (clash.rows.length) {
      throw new HttpError(422, 'This courier code already exists for the carrier.', {
        message_key: 'catalogue.courier_code_exists',
        errors: { code: { message: 'catalogue.courier_code_exists' } },
      });
    }
    return { ...doc, code };
  },
  opnames: { bulk_import: bulkImport() },
});
