import { featureOption } from '../../../../src/schema/permissions.ts';
import { bulkImport } from '../../bulk-import.ts';
import type { Doc } from '../../record-store.ts';
import type { OpnameContext } from '../../resource-rules.ts';
import { SERVICE_POINTS } from '../shared/hardware-store.ts';
import { isSet } from '../shared/values.ts';

/** Spec 01 §6: the policy option "default maintenance provider for bulk tickets". */
export const DEFAULT_MP_BULK_TICKETS = 'default_mp_bulk_tickets';

/**
 * The bulk import of tickets (spec 02 §5, §7): the generic import, its cell limits from the schema
 * (`x-import.maxLength`: service point, hardware and compartment ids 10, reported by 10, assigned to
 * 70), every row through the ticket rules. With the caller's `default_mp_bulk_tickets` option on, a row
 * without a maintenance provider takes its service point's.
 */
export function ticketBulkImport() {
  return bulkImport({
    hooks: {
      async prepare(ctx: OpnameContext, rows: Doc[]) {
        if (!featureOption(ctx.access.permissions, ctx.resource.features, DEFAULT_MP_BULK_TICKETS)) return { rows };
        const ids = [
          ...new Set(
            rows
              .map((row) => row.sp_id)
              .filter(isSet)
              .map(String),
          ),
        ];
        const found = await ctx.db.query<{ key: string; provider: number | null }>(
          `SELECT key, (doc->>'maintenance_provider_id')::int AS provider FROM records
           WHERE resource = $1 AND key = ANY($2::text[])`,
          [SERVICE_POINTS, ids],
        );
        const providers = new Map(found.rows.map((row) => [row.key, row.provider]));
        return {
          rows: rows.map((row) =>
            isSet(row.maintenance_provider_id) || !isSet(providers.get(String(row.sp_id)))
              ? row
              : { ...row, maintenance_provider_id: providers.get(String(row.sp_id)) },
          ),
        };
      },
    },
  });
}
