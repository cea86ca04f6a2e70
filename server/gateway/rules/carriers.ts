import { randomBytes } from 'node:crypto';
import type { Carrier } from '../../../src/types/generated/carrier.ts';
import { recordRules } from '../resource-rules.ts';
import { removeRecordUploads, svgFieldUpload } from '../uploads.ts';

/** Spec 02: "partners/carrier: ... PUT upload, DELETE logo"; the logo is an SVG of at most 1 MB. */
const logo = svgFieldUpload('logo_url');

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
});
