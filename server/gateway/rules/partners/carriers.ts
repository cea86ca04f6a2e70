import { randomBytes } from 'node:crypto';
import type { Carrier } from '../../../../src/types/generated/carrier.ts';
import type { CarrierExpirySettings } from '../../../../src/types/generated/carrier-expiry-settings.ts';
import type { Doc } from '../../record-store.ts';
import { recordRules, type OpnameContext } from '../../resource-rules.ts';
import { recordKeyOf, refusedFields } from '../../write-pipeline.ts';
import { removeRecordUploads, svgFieldUpload } from '../../uploads.ts';
import { isLoopbackHost } from '../../webhook-delivery.ts';
import { optionalVersion } from '../shared/values.ts';

/** Spec 02: "partners/carrier: ... PUT upload, DELETE logo"; the logo is an SVG of at most 1 MB. */
const logo = svgFieldUpload('logo_url');

/** The form schema of the carrier's "Expiry settings" record action (schemas/carrier.schema.json). */
const EXPIRY_SETTINGS_FORM = 'carrier-expiry-settings';

/**
 * Spec 02 §7: `PATCH partners/carrier { opname: "update_carrier_expiry_settings", carrier_id }`.
 * Only the expiry fields change, through the write pipeline (audited, the whole carrier checked). A
 * carrier the caller cannot see is a 404 before its values are judged; `version`, when sent, is the
 * one the user saw, so a carrier changed meanwhile is a 409 rather than silently overwritten.
 */
async function updateExpirySettings(ctx: OpnameContext, body: Doc) {
  const version = optionalVersion(body);
  const data = await ctx.writes.change(
    recordKeyOf(ctx.resource, body),
    async (_tx, existing) => {
      const settings = ctx.validateForm(EXPIRY_SETTINGS_FORM, body);
      if (!settings.valid) throw refusedFields(settings.errors);
      return { ...existing.doc, ...(settings.data as Partial<CarrierExpirySettings>) };
    },
    version,
  );
  return { success: true, data };
}

/** Whether a webhook URL names a loopback receiver (127.0.0.0/8, ::1, localhost). */
function isLoopbackUrl(url: string) {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * The carrier's rules. A new carrier gets its API key from the gateway; an existing one keeps it. A local
 * gateway (`local`, as its delivery worker) delivers webhooks to loopback receivers only, so a webhook URL set
 * or changed to another host is refused at save, on the field, rather than failing at every delivery (issue 28);
 * a stored URL left as it is (the demo carriers') is kept.
 */
export function createCarrierRules(local: boolean) {
  return recordRules<Carrier>({
    async beforeWrite(_ctx, doc, existing) {
      const url = doc.webhook_url;
      if (local && url && url !== existing?.doc.webhook_url && !isLoopbackUrl(url)) {
        throw refusedFields({ webhook_url: { message: 'validation.webhook_url_loopback' } });
      }
      return { ...doc, api_key: existing?.doc.api_key ?? randomBytes(24).toString('base64url') };
    },
    async beforeDelete({ tx, resource }, existing) {
      await removeRecordUploads(tx, resource, existing.key);
    },
    put: logo.put,
    removals: { logo: logo.remove },
    patchOpnames: { update_carrier_expiry_settings: updateExpirySettings },
  });
}

/** The rules of a local gateway (the default, as the delivery worker's); server/app.ts makes them per its mode. */
export const carrierRules = createCarrierRules(true);
