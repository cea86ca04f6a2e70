import { randomBytes } from 'node:crypto';
import type { Carrier } from '../../../src/types/generated/carrier.ts';
import type { CarrierExpirySettings } from '../../../src/types/generated/carrier-expiry-settings.ts';
import { badRequest } from '../http-error.ts';
import type { Doc } from '../record-store.ts';
import { recordRules, type OpnameContext } from '../resource-rules.ts';
import { recordKeyOf, refusedFields } from '../write-pipeline.ts';
import { removeRecordUploads, svgFieldUpload } from '../uploads.ts';

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
  const { version } = body;
  if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version))) {
    throw badRequest('gateway.version_required');
  }
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

/** A new carrier gets its API key from the gateway; an existing one keeps it. */
export const carrierRules = recordRules<Carrier>({
  async beforeWrite(_ctx, doc, existing) {
    return { ...doc, api_key: existing?.doc.api_key ?? randomBytes(24).toString('base64url') };
  },
  async beforeDelete({ tx, resource }, existing) {
    await removeRecordUploads(tx, resource, existing.key);
  },
  put: logo.put,
  removals: { logo: logo.remove },
  patchOpnames: { update_carrier_expiry_settings: updateExpirySettings },
});
