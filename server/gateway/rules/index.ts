import type { ResourceRules } from '../resource-rules.ts';
import { alertRules } from './integrations/alerts.ts';
import { bookingRules } from './booking/bookings.ts';
import { carrierRules } from './partners/carriers.ts';
import { courierRules } from './partners/couriers.ts';
import { endUserRules } from './shipments/end-users.ts';
import { hardwareOrderRules, subOrderRules } from './hardware/hardware-orders.ts';
import { hardwareUnitRules } from './hardware/hardware-units.ts';
import { maintenanceOperatorRules } from './tickets/maintenance-operators.ts';
import {
  hardwareOwnerRules,
  hotlineProviderRules,
  locationOwnerRules,
  maintenanceProviderSetupRules,
  supportProviderRules,
} from './partners/partners.ts';
import { pinpadRules } from './hardware/pinpads.ts';
import { servicePointGroupRules } from './service-points/service-point-groups.ts';
import { servicePointRules } from './service-points/service-points.ts';
import { ticketRules } from './tickets/tickets.ts';
import { shipmentRules } from './shipments/shipments.ts';
import { shipmentReportQueries } from './shipments/shipment-reports.ts';
import { priceStructureRules } from './invoicing/price-structure.ts';
import { invoicingRules } from './invoicing/invoicing.ts';
import { webhookRules, WEBHOOKS } from './integrations/webhooks.ts';
import { testAppUserRules, TEST_APP_USERS } from './integrations/test-app-users.ts';
import { notificationRules, NOTIFICATIONS } from './integrations/notifications.ts';
import { locationRules } from './locations/locations.ts';
import { proposalRules } from './locations/location-proposals.ts';
import { contactRules } from './locations/location-contacts.ts';
import { licenceRules, LICENCES } from './integrations/licences.ts';

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
