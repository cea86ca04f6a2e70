import type { ResourceRules } from '../resource-rules.ts';
import { bookingRules } from './bookings.ts';
import { carrierRules } from './carriers.ts';
import { courierRules } from './couriers.ts';
import { endUserRules } from './end-users.ts';
import { hardwareUnitRules } from './hardware-units.ts';
import { pinpadRules } from './pinpads.ts';
import { servicePointGroupRules } from './service-point-groups.ts';
import { servicePointRules } from './service-points.ts';
import { shipmentReportQueries } from './shipment-reports.ts';

/** Rules by webtool/ endpoint. */
export const resourceRules: Record<string, ResourceRules> = {
  'partners/carrier': carrierRules,
  couriers: courierRules,
  service_points: servicePointRules,
  'service_points/hardware_units': hardwareUnitRules,
  'service_points/pinpad': pinpadRules,
  'service_points/service_point_groups': servicePointGroupRules,
  booking: bookingRules,
  'shipments/endusers': endUserRules,
  shipments: { queries: shipmentReportQueries },
};
