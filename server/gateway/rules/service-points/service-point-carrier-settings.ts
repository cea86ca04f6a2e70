import type { Db } from '../../../db/adapter.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { HttpError } from '../../http-error.ts';
import type { StoredRecord } from '../../record-writes.ts';
import { COMPARTMENTS, HARDWARE_UNITS } from '../shared/hardware-store.ts';
import { inStore } from '../shared/endpoints.ts';

/**
 * A service point's per-carrier settings (the Carrier settings tab): each names a carrier that may
 * use the service point, once, and together they reserve no more compartments than its units have.
 */

const messages = {
  carrier_not_in_access: 'Carrier settings name a carrier without access to the service point',
  carrier_repeated: 'A carrier has its settings twice',
  reserved_above_compartments:
    'Reserved compartments exceed the compartments of the hardware units at the service point',
} as const;

const refused = (key: keyof typeof messages, args: Record<string, unknown>) =>
  new HttpError(422, messages[key], {
    message_key: `service_points.carrier_settings.errors.${key}`,
    errors: { carrier_settings: { message: `service_points.carrier_settings.errors.${key}`, args } },
  });

async function compartmentCountAt(tx: Db, servicePointId: string) {
  const found = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM records c WHERE ${inStore(COMPARTMENTS, 'c')} AND c.doc->>'hardware_id' IN (
       SELECT u.key FROM records u WHERE ${inStore(HARDWARE_UNITS, 'u')} AND u.doc->>'service_point_id' = $1)`,
    [servicePointId],
  );
  return Number(found.rows[0].n);
}

/**
 * The total of reserved compartments is checked when the settings change, so that a unit taken away
 * later does not block every other edit of the service point.
 */
export async function assertCarrierSettings(
  tx: Db,
  doc: ServicePoint,
  existing: StoredRecord<ServicePoint> | undefined,
) {
  const settings = doc.carrier_settings ?? [];
  const access = new Set(doc.carriers_access ?? []);
  const seen = new Set<number>();
  for (const setting of settings) {
    if (!access.has(setting.carrier_id)) throw refused('carrier_not_in_access', { carrier: setting.carrier_id });
    if (seen.has(setting.carrier_id)) throw refused('carrier_repeated', { carrier: setting.carrier_id });
    seen.add(setting.carrier_id);
  }
  if (JSON.stringify(settings) === JSON.stringify(existing?.doc.carrier_settings ?? [])) return;
  const reserved = settings.reduce((total, setting) => total + (setting.reserved_compartments ?? 0), 0);
  if (!reserved) return;
  const available = existing ? await compartmentCountAt(tx, existing.key) : 0;
  if (reserved > available) throw refused('reserved_above_compartments', { reserved, available });
}
