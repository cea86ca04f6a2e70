import type { Db } from '../../../db/adapter.ts';
import type { HardwareOwner } from '../../../../src/types/generated/hardware-owner.ts';
import type { LocationOwner } from '../../../../src/types/generated/location-owner.ts';
import type { MaintenanceProvider } from '../../../../src/types/generated/maintenance-provider.ts';
import type { SupportProvider } from '../../../../src/types/generated/support-provider.ts';
import type { HotlineProvider } from '../../../../src/types/generated/hotline-provider.ts';
import { keyedError } from '../../http-error.ts';
import { canCreateLocationOwners, forbidden } from '../../identity-access/context.ts';
import { recordRules, type RuleContext } from '../../resource-rules.ts';
import { readRecord } from '../../record-writes.ts';
import { actorOf, commitChange } from '../../write-pipeline.ts';
import { HARDWARE_UNITS, PINPADS } from '../shared/hardware-store.ts';
import { maintenanceProviderRules } from './maintenance-providers.ts';

/**
 * The partner setups (spec 02 §5, §6, §8): location owners, hardware owners, maintenance, support and
 * hotline providers. Each refusal is the catalogue's message and writes nothing (the write pipeline
 * runs these rules inside its transaction, before the write).
 */

/** How many records of `resource` name the partner in `field` (ids are stored as numbers). */
async function linkedCount(tx: Db, resource: string, field: string, id: unknown): Promise<number> {
  const found = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM records WHERE resource = $1 AND doc->>($2::text) = $3`,
    [resource, field, String(id)],
  );
  return found.rows[0].n;
}

/** A partner still named by service points, hardware or tickets is not deleted: deactivate it instead. */
const partnerInUse = () => keyedError(409, 'catalogue.partner_in_use');

async function refuseWhenLinked(tx: Db, field: string, id: unknown, resources: string[]) {
  for (const resource of resources) {
    if ((await linkedCount(tx, resource, field, id)) > 0) throw partnerInUse();
  }
}

/** 'You do not have sufficient rights to create location owners.' without the advance location owner level. */
export const locationOwnerRules = recordRules<LocationOwner>({
  async beforeWrite(ctx, doc, existing) {
    if (!existing && !canCreateLocationOwners(ctx.access)) throw forbidden('catalogue.location_owner_rights');
    return doc;
  },
  async beforeDelete({ tx }, existing) {
    await refuseWhenLinked(tx, 'location_owner_id', existing.doc.location_owner_id, ['service_points']);
  },
});

/** Marks every other hardware owner not default, in the same transaction and audited. */
async function clearOtherDefaults(ctx: RuleContext, keepId: number) {
  const others = await ctx.tx.query<{ key: string }>(
    `SELECT key FROM records WHERE resource = $1 AND doc->>'is_default' = 'true' AND key <> $2`,
    [ctx.resource.endpoint, String(keepId)],
  );
  for (const { key } of others.rows) {
    const other = await readRecord(ctx.tx, ctx.resource, key);
    if (!other) continue;
    await commitChange(ctx.tx, actorOf(ctx.access), ctx.resource, {
      action: 'update',
      existing: other,
      doc: { ...other.doc, is_default: false },
      basedOnVersion: other.version,
    });
  }
}

/**
 * Hardware owners (spec 02 §6): the default owner (the one new hardware takes) cannot be deselected:
 * another owner is made default instead, which takes the flag from it. An owner whose hardware units
 * or PIN pads name it, or the default one, cannot be removed.
 */
export const hardwareOwnerRules = recordRules<HardwareOwner>({
  async beforeWrite(_ctx, doc, existing) {
    if (existing?.doc.is_default && doc.is_default !== true) throw keyedError(409, 'catalogue.hardware_owner_default');
    return doc;
  },
  async afterWrite(ctx, written, existing) {
    if (written.is_default && !existing?.doc.is_default) await clearOtherDefaults(ctx, written.hardware_owner_id!);
  },
  async beforeDelete({ tx }, existing) {
    if (existing.doc.is_default) throw keyedError(409, 'catalogue.hardware_owner_default');
    const id = existing.doc.hardware_owner_id;
    if ((await linkedCount(tx, HARDWARE_UNITS, 'hardware_owner_id', id)) > 0)
      throw keyedError(409, 'catalogue.hardware_owner_in_use');
    if ((await linkedCount(tx, PINPADS, 'hardware_owner_id', id)) > 0)
      throw keyedError(409, 'catalogue.hardware_owner_in_use');
  },
});

/** Spec 02 §8: 'Cannot deactivate support provider, already linked to service point'. */
export const supportProviderRules = recordRules<SupportProvider>({
  async beforeWrite({ tx }, doc, existing) {
    if (existing && existing.doc.active !== false && doc.active === false) {
      if ((await linkedCount(tx, 'service_points', 'support_provider_id', existing.doc.support_provider_id)) > 0)
        throw keyedError(409, 'catalogue.support_provider_linked');
    }
    return doc;
  },
  async beforeDelete({ tx }, existing) {
    const id = existing.doc.support_provider_id;
    if ((await linkedCount(tx, 'service_points', 'support_provider_id', id)) > 0)
      throw keyedError(409, 'catalogue.support_provider_linked');
    await refuseWhenLinked(tx, 'support_provider_id', id, ['maintenance/tickets']);
  },
});

/** Maintenance providers keep their periodic tickets switch; one in use by service points or operators stays. */
export const maintenanceProviderSetupRules = recordRules<MaintenanceProvider>({
  ...(maintenanceProviderRules as object),
  async beforeDelete({ tx }, existing) {
    await refuseWhenLinked(tx, 'maintenance_provider_id', existing.doc.maintenance_provider_id, [
      'service_points',
      'maintenance/operators',
      'maintenance/tickets',
    ]);
  },
});

export const hotlineProviderRules = recordRules<HotlineProvider>({});
