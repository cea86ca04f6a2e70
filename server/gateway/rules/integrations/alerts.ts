import type { Alert } from '../../../../src/types/generated/alert.ts';
import { SAVE_FAILED } from '../../../../src/contract/errors.ts';
import { HttpError, noPermission } from '../../http-error.ts';
import { readRecord } from '../../record-writes.ts';
import { recordRules, type RuleContext } from '../../resource-rules.ts';
import { scopeFor, visible } from '../../tenancy.ts';
import { HARDWARE_UNITS } from '../shared/hardware-store.ts';
import { SERVICE_POINTS, TICKETS } from '../shared/endpoints.ts';
import { readDoc } from '../shared/docs.ts';
export { TICKETS } from '../shared/endpoints.ts';

const refused = (field: string, message: string) =>
  new HttpError(422, SAVE_FAILED, { errors: { [field]: { message } } });

/** What an alert is on: a hardware unit or a ticket, by the field that names it. */
const TARGETS = {
  hardware: { endpoint: HARDWARE_UNITS, field: 'hardware_id' },
  ticket: { endpoint: TICKETS, field: 'ticket_id' },
} as const;

/** The record the alert is on, if it exists and the caller may see it; else the field's refusal. */
async function targetOf(ctx: RuleContext, alert: Alert) {
  const target = TARGETS[alert.record_type];
  const key = alert[target.field];
  const resource = ctx.resources.get(target.endpoint);
  const found = resource && key !== undefined ? await readRecord(ctx.tx, resource, String(key)) : undefined;
  if (!resource || !found || !visible(scopeFor(ctx.access, resource), found.doc)) {
    throw refused(target.field, 'validation.unknown_reference');
  }
  return found.doc;
}

async function servicePointOf(ctx: RuleContext, id: unknown) {
  if (id === undefined || id === null) return undefined;
  return readDoc<Record<string, unknown>>(ctx.tx, SERVICE_POINTS, id);
}

/**
 * Spec 02 §5: "alert comment required, max 500 characters, not editable after saving". An alert is
 * written on a hardware unit or a ticket the caller can see; who wrote it and when, the service point
 * and its providers (whose staff then see it) are the gateway's. Afterwards only the troubleshooting
 * comment changes; a changed comment is refused with its own message rather than dropped.
 */
export const alertRules = recordRules<Alert>({
  async beforeWrite(ctx, doc, existing) {
    if (existing) {
      if (doc.comment !== existing.doc.comment) throw refused('comment', 'catalogue.alert_comment_locked');
      return {
        ...doc,
        record_type: existing.doc.record_type,
        hardware_id: existing.doc.hardware_id,
        ticket_id: existing.doc.ticket_id,
        hardware_name: existing.doc.hardware_name,
        // The providers come from the record the alert is on, whatever a client sends.
        maintenance_provider_id: existing.doc.maintenance_provider_id,
        support_provider_id: existing.doc.support_provider_id,
      };
    }
    const other = doc.record_type === 'hardware' ? 'ticket_id' : 'hardware_id';
    const target = await targetOf(ctx, { ...doc, [other]: undefined });
    const servicePoint = await servicePointOf(ctx, target.service_point_id);
    const maintenanceProvider = target.maintenance_provider_id ?? servicePoint?.maintenance_provider_id;
    const supportProvider = target.support_provider_id ?? servicePoint?.support_provider_id;
    const alert: Alert = {
      ...doc,
      [other]: undefined,
      created_by: ctx.access.caller.username,
      created_at: new Date().toISOString(),
    };
    delete alert[other];
    // The unit's name (a ticket's hardware), for readers who may not open the hardware screens.
    const hardwareName = doc.record_type === 'hardware' ? target.name : target.hardware_name;
    if (typeof hardwareName === 'string' && hardwareName) alert.hardware_name = hardwareName;
    else delete alert.hardware_name;
    if (typeof target.service_point_id === 'number') alert.service_point_id = target.service_point_id;
    if (typeof maintenanceProvider === 'number') alert.maintenance_provider_id = maintenanceProvider;
    else delete alert.maintenance_provider_id;
    if (typeof supportProvider === 'number') alert.support_provider_id = supportProvider;
    else delete alert.support_provider_id;
    return alert;
  },
  async beforeDelete() {
    throw noPermission();
  },
});
