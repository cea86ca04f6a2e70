import { features, featureIdsOf, type FeatureIds, type FeatureName } from '../../../src/schema/features.ts';
import type { PartnerType } from '../../../src/contract/partner-types.ts';

/**
 * What each partner type's admin role holds: the advance level where such a partner manages the
 * area (a carrier its couriers and its own webtool users), the basic level where it only reads
 * (every partner reads the service points it has access to; the operator company edits them). The
 * demo roles are built from it, and so is the role a partner page makes for a new partner's first
 * administrator (POST identity_access/permissions without `permissions`).
 */
export const featuresByPartnerType: Record<
  Exclude<PartnerType, 'operator'>,
  { manages: FeatureName[]; reads: FeatureName[] }
> = {
  carrier: {
    manages: ['shipments', 'end_user', 'couriers', 'bookings', 'webhooks', 'webtool_users', 'carriers'],
    // The notifications its end users and couriers were sent (issue 28.3): read only, the gateway writes them.
    reads: ['dashboard', 'servicepoints', 'business_intelligence', 'notifications'],
  },
  support_provider: {
    // The hotline troubleshoots the shipments of its service points (issue 16).
    manages: ['end_user', 'maintenance_tickets', 'support_providers', 'webtool_users', 'shipments'],
    reads: ['dashboard', 'servicepoints', 'business_intelligence', 'notifications'],
  },
  maintenance_provider: {
    manages: ['maintenance_tickets', 'maintenance_operators', 'maintenance_providers', 'webtool_users'],
    reads: ['servicepoints'],
  },
  hardware_provider: {
    manages: ['hardware', 'hardware_provider', 'webtool_users'],
    reads: ['servicepoints', 'pinpad'],
  },
  location_owner: { manages: ['location_owner', 'webtool_users'], reads: ['servicepoints'] },
};

/** The ids of the basic level alone: the parent too, unless it doubles as the advance or scout id. */
function basicIdsOf(name: FeatureName): number[] {
  const { basic, advance, scout, parent } = features[name] as FeatureIds;
  return [basic, parent].filter((id): id is number => id !== undefined && id !== advance && id !== scout);
}

export function policies(manages: FeatureName[], reads: FeatureName[] = []) {
  const ids = new Set([...manages.flatMap(featureIdsOf), ...reads.flatMap(basicIdsOf)]);
  return [...ids]
    .sort((a, b) => a - b)
    .map((feature_id) => ({
      feature_id,
      has_permission: true,
      configurations: [] as { type: string; show: boolean }[],
    }));
}

/** The policies of a partner type's admin role. */
export function partnerAdminPolicies(partnerType: Exclude<PartnerType, 'operator'>) {
  const { manages, reads } = featuresByPartnerType[partnerType];
  return policies(manages, reads);
}

/** The id field of each partner type's records, as a partner page sends it. */
export const partnerIdFields: Record<Exclude<PartnerType, 'operator'>, string> = {
  carrier: 'carrier_id',
  location_owner: 'location_owner_id',
  hardware_provider: 'hardware_owner_id',
  maintenance_provider: 'maintenance_provider_id',
  support_provider: 'support_provider_id',
};
