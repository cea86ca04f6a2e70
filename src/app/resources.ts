import carriers from '../resources/carriers/index.ts';
import couriers from '../resources/couriers/index.ts';
import servicePointGroups from '../resources/service-point-groups/index.ts';
import servicePoints from '../resources/service-points/index.ts';
import webtoolUsers from '../resources/webtool-users/index.ts';
import roles from '../resources/roles/index.ts';
import hardware from '../resources/hardware/index.ts';
import pinpad from '../resources/pinpad/index.ts';
import operators from '../resources/operators/index.ts';
import alerts from '../resources/alerts/index.ts';
import tickets from '../resources/tickets/index.ts';
import shipments from '../resources/shipments/index.ts';
import booking from '../resources/booking/index.ts';
import endUsers from '../resources/end-users/index.ts';
import locationOwners from '../resources/location-owners/index.ts';
import hardwareOwners from '../resources/hardware-owners/index.ts';
import maintenanceProviders from '../resources/maintenance-providers/index.ts';
import supportProviders from '../resources/support-providers/index.ts';
import hotlineProviders from '../resources/hotline-providers/index.ts';
import priceStructure from '../resources/price-structure/index.ts';
import hardwareOrders from '../resources/hardware-orders/index.ts';
import productionOrders from '../resources/production-orders/index.ts';
import webhooks from '../resources/webhooks/index.ts';
import testAppUsers from '../resources/test-app-users/index.ts';
import notifications from '../resources/notifications/index.ts';
import locations from '../resources/locations/index.ts';
import locationProposals from '../resources/location-proposals/index.ts';
import locationContacts from '../resources/location-contacts/index.ts';
import type { ResourceAccessRule } from '../authProvider/access-profile.ts';

/** Every resource of the app, in menu order. */
export const resources = [
  shipments,
  servicePoints,
  servicePointGroups,
  hardware,
  pinpad,
  carriers,
  couriers,
  webtoolUsers,
  roles,
  operators,
  alerts,
  tickets,
  booking,
  endUsers,
  locationOwners,
  hardwareOwners,
  maintenanceProviders,
  supportProviders,
  hotlineProviders,
  priceStructure,
  hardwareOrders,
  productionOrders,
  webhooks,
  testAppUsers,
  notifications,
  locations,
  locationProposals,
  locationContacts,
];

export const accessRules: Record<string, ResourceAccessRule> = Object.fromEntries(
  resources.map((r) => [
    r.name,
    { features: r.model.features, partnerTypes: r.model.partnerTypes, actions: r.model.actions },
  ]),
);

export const endpoints = Object.fromEntries(
  resources.map((r) => [
    r.name,
    {
      endpoint: r.model.endpoint,
      id: r.model.id,
      deleteSends: r.model.deleteSends,
      scoutEndpoint: r.model.scoutEndpoint,
      bulkUpdate: r.model.bulkUpdate,
    },
  ]),
);
