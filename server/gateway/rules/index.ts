import type { ResourceRules } from '../resource-rules.ts';
import { carrierRules } from './carriers.ts';
import { courierRules } from './couriers.ts';
import { servicePointGroupRules } from './service-point-groups.ts';

/** Rules by webtool/ endpoint. */
export const resourceRules: Record<string, ResourceRules> = {
  'partners/carrier': carrierRules,
  couriers: courierRules,
  'service_points/service_point_groups': servicePointGroupRules,
};
