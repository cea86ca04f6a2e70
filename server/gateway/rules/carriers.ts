import { randomBytes } from 'node:crypto';
import type { ResourceRules } from '../resource-rules.ts';

/** A new carrier gets its API key from the gateway; an existing one keeps it. */
export const carrierRules: ResourceRules = {
  async beforeWrite(_ctx, doc, existing) {
    return { ...doc, api_key: (existing?.doc.api_key as string | undefined) ?? randomBytes(24).toString('base64url') };
  },
};
