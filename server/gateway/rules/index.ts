import type { ResourceRules } from '../resource-rules.ts';
import { alertRules } from './alerts.ts';
import { bookingRules } from './bookings.ts';
import { carrierRules } from './carriers.ts';
import { courierRules } from './couriers.ts';
import { endUserRules } from './end-users.ts';
import { hardwareOrderRules, subOrderRules } from './hardware-orders.ts';
import { hardwareUnitRules } from './hardware-units.ts';
import { maintenanceOperatorRules } from './maintenance-operators.ts';
import {
  hardwareOwnerRules,
  hotlineProviderRules,
  locationOwnerRules,
  maintenanceProviderSetupRules,
  supportProviderRules,
} from './partners.ts';
import { pinpadRules } from './pinpads.ts';
import { servicePointGroupRules } from './service-point-groups.ts';
import { servicePointRules } from './service-points.ts';
import { ticketRules } from './tickets.ts';
import { shipmentRules } from './shipments.ts';
import { shipmentReportQueries } from './shipment-reports.ts';
import { priceStructureRules } from './price-structure.ts';
import { invoicingRules } from './invoicing.ts';
import { webhookRules, WEBHOOKS } from './webhooks.ts';
import { testAppUserRules, TEST_APP_USERS } from './test-app-users.ts';
import { notificationRules, NOTIFICATIONS } from './notifications.ts';
import { locationRules } from './locations.ts';
import { proposalRules } from './location-proposals.ts';
import { contactRules } from './location-contacts.ts';
import { licenceRules, LICENCES } from './licences.ts';

/** Rules by webtool/ endpoint. */
export const resourceRules: Record<string, ResourceRules> = {
  'partners/carrier': carrierRules,
  alerts: alertRules,
  couriers: courierRules,
  'maintenance/operators': maintenanceOperatorRules,
  'partners/maintenance_provider': maintenanceProviderSetupRules,
  'partners/location_owner': locationOwnerRules,
  'partners/hardware_provider': hardwareOwnerRules,
  'partners/support_provider': supportProviderRules,
  'partners/hotline_provider': hotlineProviderRules,
  'invoicing/price_structure': priceStructureRules,
  invoicing: invoicingRules,
  service_points: servicePointRules,
  'service_points/hardware_units': hardwareUnitRules,
  'service_points/hardware_order': hardwareOrderRules,
  'service_points/hardware_order/sub_orders': subOrderRules,
  'service_points/pinpad': pinpadRules,
  'service_points/service_point_groups': servicePointGroupRules,
  'maintenance/tickets': ticketRules,
  booking: bookingRules,
  'shipments/endusers': endUserRules,
  [WEBHOOKS]: webhookRules,
  [TEST_APP_USERS]: testAppUserRules,
  [NOTIFICATIONS]: notificationRules,
  locations: locationRules,
  'locations/proposals': proposalRules,
  'locations/contacts': contactRules,
  [LICENCES]: licenceRules,
  shipments: { ...shipmentRules, queries: { ...shipmentRules.queries, ...shipmentReportQueries } },
};
