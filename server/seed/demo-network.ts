import type { Carrier } from '../../src/types/generated/carrier.ts';
import { WEBHOOKS } from '../gateway/rules/integrations/webhooks.ts';
import { demoWebhookHistory, insertWebhookAttempts } from './webhook-history.ts';
import { demoNotifications } from './notification-history.ts';
import { NOTIFICATIONS } from '../gateway/rules/integrations/notifications.ts';
import { demoTestAppUsers } from './test-app-users.ts';
import type { Courier } from '../../src/types/generated/courier.ts';
import type { Compartment } from '../../src/types/generated/compartment.ts';
import { createHash } from 'node:crypto';
import type { Db } from '../db/adapter.ts';
import { ensureSortKeys, insertRecords, type NewRecord } from '../gateway/record-store.ts';
import { demoHardwareOrders } from './hardware-orders.ts';
import { loadResources } from '../gateway/resource-registry.ts';
import { features, featureIdsOf, type FeatureName } from '../../src/schema/features.ts';
import { featuresByPartnerType, policies } from '../gateway/identity-access/partner-admin-role.ts';
import type { PartnerType } from '../../src/contract/partner-types.ts';
import { SAVE_FILTERS_OPTION } from '../../src/schema/saved-filters.ts';
import { COMPARTMENTS, HARDWARE_MODELS, HARDWARE_UNITS, PINPADS } from '../gateway/rules/shared/hardware-store.ts';
import { DEFAULT_MP_BULK_TICKETS } from '../gateway/rules/tickets/ticket-bulk.ts';
import { DOUBLE_BOOKING_OPTION } from '../gateway/rules/booking/bookings.ts';
import { WEB_APP_LINK_OPTION } from '../gateway/rules/shipments/web-app-link.ts';
import { TICKET_OPTIONS } from '../../src/schema/ticket-options.ts';
import {
  servicePointHardwareFields,
  type PadAtServicePoint,
  type UnitBadges,
} from '../gateway/rules/hardware/service-point-hardware-derived.ts';
import { demoAddresses, insertAddresses } from './address-index.ts';
import { hotlineProviders, partnerSetup } from './partner-network.ts';
import { demoPrices, seedInvoices } from './invoice-network.ts';
import { cities } from './geography.ts';
import { hardwareBadgeList, hardwareModels } from './hardware-catalogue.ts';
import { seedLocations } from './location-network.ts';
import { seedLocationGenerator } from './location-generator.ts';
import { buildHardwareNetwork, type ServicePointWithUnits } from './hardware-network.ts';
import { buildLicenceHistory, insertLicenceHistory } from './licence-history.ts';
import { demoMaintenanceOperators } from './maintenance-operators.ts';
import { demoHardwareAlerts, demoTicketAlerts, withRegeneration } from './alerts.ts';
import {
  bookingRecords,
  buildPieceNetwork,
  endUserRecords,
  insertPieceEvents,
  PIECE_VOLUME,
  pieceRecords,
} from './piece-network.ts';
import { seededRandom } from './random.ts';
import type { SeedSize } from './seed-size.ts';
import { buildTicketNetwork, ERROR_TYPES, JOB_TYPES, TICKET_EVENTS } from './ticket-network.ts';
import {
  carrierSetups,
  carriers,
  hardwareProviders,
  locationOwners,
  locationTypes,
  maintenanceProviders,
  regions,
  servicePointOf,
  subRegions,
  supportProviders,
  timeZones,
  type Partner,
} from './network-data.ts';
import { HardwareKind, ServicePointStatus } from '../../src/types/generated/codes.ts';

/** Every demo user signs in with this password (README). */
export const DEMO_PASSWORD = 'Demo#Locker2026';

export interface DemoUser {
  username: string;
  email: string;
  familyName: string;
  /** The first (only) group; none for a user without any group. */
  role?: string;
}

const operatorFeatures = Object.keys(features) as FeatureName[];

interface RoleDoc {
  role_name: string;
  role_description: string;
  role_description_translations?: Record<string, string>;
  partner_type: PartnerType;
  partner: string;
  permissions: ReturnType<typeof policies>;
}

function role(
  partnerType: PartnerType,
  partner: string,
  suffix: string,
  description: string,
  manages: FeatureName[],
  reads: FeatureName[] = [],
): RoleDoc {
  return {
    role_name: `${partnerType}_${partner}_${suffix}`,
    role_description: description,
    partner_type: partnerType,
    partner,
    permissions: policies(manages, reads),
  };
}

/** The role with policy options switched on or off for the given features (spec 01 §6). */
function withOptions(doc: RoleDoc, featureIds: number[], options: Record<string, boolean>): RoleDoc {
  const configurations = Object.entries(options).map(([type, show]) => ({ type, show }));
  return {
    ...doc,
    permissions: doc.permissions.map((policy) =>
      featureIds.includes(policy.feature_id)
        ? { ...policy, configurations: [...policy.configurations, ...configurations] }
        : policy,
    ),
  };
}

/** The role with a policy option switched on for the given features (e.g. saving a page's filters). */
function withOption(doc: RoleDoc, featureIds: number[], option: string): RoleDoc {
  return withOptions(doc, featureIds, { [option]: true });
}

/** The feature options of spec 01 §6 that shape the service point screens. */
export const SERVICE_POINT_OPTIONS = [
  'delivery_method',
  'address_autocomplete',
  'municipality_required',
  'address_mapping',
  'street_view',
  'region',
  'sub_region',
  'test_shipment',
  'pinpad',
] as const;

const allServicePointOptions = Object.fromEntries(SERVICE_POINT_OPTIONS.map((option) => [option, true]));

/**
 * The analyst's policy leaves region, sub-region and delivery method off and does not require a
 * municipality, so that two demo roles show the service point form differently.
 */
const analystServicePointOptions = {
  ...allServicePointOptions,
  region: false,
  sub_region: false,
  delivery_method: false,
  municipality_required: false,
};

const operatorRoleDescriptionsInFrench: Record<string, string> = {
  operator_infinity_superadmin: "Super administrateur de l'opérateur du réseau",
  operator_infinity_admin: "Administrateur de l'opérateur",
  operator_infinity_analyst: "Personnel de l'opérateur sans tableau de bord",
  operator_infinity_scout: "Prospecteur de l'opérateur",
};

/** The description in both app languages, as an administrator would have written them (profile page, roles list). */
function describedInBothLanguages(doc: RoleDoc, partnersByType: [PartnerType, Partner[]][]): RoleDoc {
  const partners = partnersByType.find(([type]) => type === doc.partner_type)?.[1] ?? [];
  const partnerName = partners.find((partner) => String(partner.id) === doc.partner)?.name;
  const french =
    operatorRoleDescriptionsInFrench[doc.role_name] ?? (partnerName ? `Administrateur de ${partnerName}` : undefined);
  if (!french) throw new Error(`The demo role ${doc.role_name} has no French description.`);
  // The English version is the description itself: a copy of it would hide a later edit of it.
  return { ...doc, role_description_translations: { 'fr-FR': french } };
}

/** The shipment logs option (spec 01 §6): the piece logs for the operator's admins, carriers and hotlines. */
const SHIPMENT_LOG_READERS: PartnerType[] = ['carrier', 'support_provider'];
const withShipmentLogs = (doc: RoleDoc) => withOption(doc, featureIdsOf('shipments'), 'shipment_logs');

const allTicketOptions = Object.fromEntries(Object.values(TICKET_OPTIONS).map((option) => [option, true]));

/**
 * The options of spec 01 §6 that shape tickets, bookings and shipments (src/schema/ticket-options.ts,
 * server/gateway/rules/booking/bookings.ts, server/gateway/rules/shipments/web-app-link.ts), spread so that two demo users
 * see the difference: the operator's super admin has them all, its administrator all but the parcel move
 * (an uninstall waits for an empty unit); the analyst none (no periodic, courier or service tickets, no
 * compartment inspection, error type, internal notes, double booking nor web app link); the hotline
 * (support) reports courier tickets, orders inspections and reads the notes, without error types; the
 * maintenance provider runs periodic and service visits, inspections and uninstalls with parcel move;
 * carrier 1 opens the end-user web app, carrier 2 does not; no carrier double-books.
 */
const OPTIONS_BY_ROLE: Record<string, Partial<Record<FeatureName, Record<string, boolean>>>> = {
  operator_infinity_superadmin: {
    maintenance_tickets: allTicketOptions,
    bookings: { [DOUBLE_BOOKING_OPTION]: true },
    shipments: { [WEB_APP_LINK_OPTION]: true },
  },
  // The administrator closes an uninstall ticket only once its unit is empty, as before the option.
  operator_infinity_admin: {
    maintenance_tickets: { ...allTicketOptions, [TICKET_OPTIONS.parcelMove]: false },
    bookings: { [DOUBLE_BOOKING_OPTION]: true },
    shipments: { [WEB_APP_LINK_OPTION]: true },
  },
  operator_infinity_analyst: {
    maintenance_tickets: Object.fromEntries(Object.values(TICKET_OPTIONS).map((option) => [option, false])),
    bookings: { [DOUBLE_BOOKING_OPTION]: false },
    shipments: { [WEB_APP_LINK_OPTION]: false },
  },
  support_provider: {
    maintenance_tickets: {
      [TICKET_OPTIONS.courier]: true,
      [TICKET_OPTIONS.notesColumn]: true,
      [TICKET_OPTIONS.compartmentInspection]: true,
    },
    shipments: { [WEB_APP_LINK_OPTION]: true },
  },
  maintenance_provider: {
    maintenance_tickets: {
      [TICKET_OPTIONS.periodic]: true,
      [TICKET_OPTIONS.service]: true,
      [TICKET_OPTIONS.errorType]: true,
      [TICKET_OPTIONS.compartmentInspection]: true,
      [TICKET_OPTIONS.parcelMove]: true,
    },
  },
  // A carrier's own bookings refuse a full service point (no double booking); the operator's may double-book.
  carrier_1_admin: { shipments: { [WEB_APP_LINK_OPTION]: true } },
};

/** A role's ticket, booking and shipment options: by its name, else by its partner type. */
function withAreaOptions(doc: RoleDoc): RoleDoc {
  const spread = OPTIONS_BY_ROLE[doc.role_name] ?? OPTIONS_BY_ROLE[doc.partner_type] ?? {};
  return Object.entries(spread).reduce(
    (role, [feature, options]) => withOptions(role, featureIdsOf(feature as FeatureName), options),
    doc,
  );
}

export function demoRoles(): RoleDoc[] {
  const roles: RoleDoc[] = [
    withOptions(
      withShipmentLogs(
        role('operator', 'infinity', 'superadmin', 'Super admin of the network operator', operatorFeatures),
      ),
      featureIdsOf('servicepoints'),
      allServicePointOptions,
    ),
    // The operator administrator's bulk tickets take their service point's maintenance provider (spec 01 §6).
    withOption(
      withOptions(
        withOption(
          withShipmentLogs(role('operator', 'infinity', 'admin', 'Operator administrator', operatorFeatures)),
          featureIdsOf('servicepoints'),
          SAVE_FILTERS_OPTION,
        ),
        featureIdsOf('servicepoints'),
        allServicePointOptions,
      ),
      featureIdsOf('maintenance_tickets'),
      DEFAULT_MP_BULK_TICKETS,
    ),
    withOptions(
      role(
        'operator',
        'infinity',
        'analyst',
        'Operator staff without dashboard',
        operatorFeatures.filter((f) => f !== 'dashboard'),
      ),
      featureIdsOf('servicepoints'),
      analystServicePointOptions,
    ),
    {
      ...role('operator', 'infinity', 'scout', 'Operator scout', []),
      permissions: [features.webtool_users.basic, features.servicepoints.scout].map((feature_id) => ({
        feature_id,
        has_permission: true,
        configurations: [],
      })),
    },
  ];
  const partnersByType: [Exclude<PartnerType, 'operator'>, Partner[]][] = [
    ['carrier', carriers],
    ['support_provider', supportProviders],
    ['maintenance_provider', maintenanceProviders],
    ['hardware_provider', hardwareProviders],
    ['location_owner', locationOwners],
  ];
  for (const [type, partners] of partnersByType) {
    for (const partner of partners) {
      const { manages, reads } = featuresByPartnerType[type];
      const admin = role(type, String(partner.id), 'admin', `${partner.name} administrator`, manages, reads);
      roles.push(SHIPMENT_LOG_READERS.includes(type) ? withShipmentLogs(admin) : admin);
    }
  }
  return roles.map((doc) => describedInBothLanguages(withAreaOptions(doc), partnersByType));
}

export const demoUsers: DemoUser[] = [
  {
    username: 'superadmin',
    email: 'superadmin@demo.locker.test',
    familyName: 'operator',
    role: 'operator_infinity_superadmin',
  },
  { username: 'operator', email: 'operator@demo.locker.test', familyName: 'operator', role: 'operator_infinity_admin' },
  { username: 'analyst', email: 'analyst@demo.locker.test', familyName: 'operator', role: 'operator_infinity_analyst' },
  { username: 'scout', email: 'scout@demo.locker.test', familyName: 'operator', role: 'operator_infinity_scout' },
  { username: 'carrier', email: 'carrier@demo.locker.test', familyName: 'carrier', role: 'carrier_1_admin' },
  { username: 'carrier2', email: 'carrier2@demo.locker.test', familyName: 'carrier', role: 'carrier_2_admin' },
  {
    username: 'support',
    email: 'support@demo.locker.test',
    familyName: 'support_provider',
    role: 'support_provider_1_admin',
  },
  {
    username: 'maintenance',
    email: 'maintenance@demo.locker.test',
    familyName: 'maintenance_provider',
    role: 'maintenance_provider_1_admin',
  },
  {
    username: 'hardware',
    email: 'hardware@demo.locker.test',
    familyName: 'hardware_provider',
    role: 'hardware_provider_1_admin',
  },
  {
    username: 'locationowner',
    email: 'locationowner@demo.locker.test',
    familyName: 'location_owner',
    role: 'location_owner_1_admin',
  },
  // Single sign-on (corporate directory) users, one per group-check result (spec 01 §4, §5).
  { username: 'sso.carrier', email: 'sso.carrier@demo.locker.test', familyName: 'carrier', role: 'carrier_1_admin' },
  { username: 'sso.nogroup', email: 'sso.nogroup@demo.locker.test', familyName: 'carrier' },
  {
    username: 'sso.mismatch',
    email: 'sso.mismatch@demo.locker.test',
    familyName: 'support_provider',
    role: 'carrier_1_admin',
  },
];

/**
 * How large a network the seed makes. `demo`: what `npm start` shows, the volume a real network has
 * (2,400 service points, about 24,000 pieces). `test`: the same kinds of connected records (every
 * status and badge, every demo user's partner, the named stuck cases, groups, tickets, alerts,
 * bookings) on the first 480 of the demo's service points, which are the demo's own (the generator
 * draws them in order), with fewer pieces and end users: the server tests' database, about a fifth
 * of the demo's, where a test does not need the demo's volume.
 */
export const SEED_SIZES: Record<SeedSize, { servicePoints: number; pieces: (typeof PIECE_VOLUME)[SeedSize] }> = {
  demo: { servicePoints: 2400, pieces: PIECE_VOLUME.demo },
  test: { servicePoints: 480, pieces: PIECE_VOLUME.test },
};
/** Service points the scout demo user proposed (their reduced list). */
const SCOUT_PROPOSALS = 6;
function partnerRecords(
  partners: Partner[],
  idField: string,
  extra: (p: Partner) => Record<string, unknown> = () => ({}),
): NewRecord[] {
  return partners.map((p) => ({
    key: String(p.id),
    partnerId: String(p.id),
    doc: { [idField]: p.id, name: p.name, active: true, ...extra(p) },
  }));
}

/**
 * A carrier as its administrator would have set it up: every field of its form filled. Draws three
 * numbers from `random`, as the seed always did, so that the service points drawn after it stay the same.
 */
function carrierDoc(carrier: Partner, random: ReturnType<typeof seededRandom>): Omit<Carrier, 'name'> {
  const setup = carrierSetups[carrier.id];
  return {
    primary_country_code: setup.country,
    service_point_radius: random.int(10, 200) / 10,
    color_code: `#${random.int(0x202020, 0xdfdfdf).toString(16)}`,
    allocation_default_behaviour: setup.allocation,
    booking_notification_behaviour: setup.notification,
    expiry_days: setup.expiryDays,
    end_user_signature: setup.endUserSignature,
    own_end_user_app: setup.ownEndUserApp,
    reminder: setup.reminder,
    // Fixed per carrier rather than random, so that the demo network is the same on every machine.
    api_key: createHash('sha256').update(`demo api key of carrier ${carrier.id}`).digest('base64url').slice(0, 32),
    webhook_url: `https://hooks.${setup.domain}/locker-events`,
    webhook_http_header: `Authorization: Bearer demo-${setup.courierPrefix.toLowerCase()}-webhook-token`,
    webhook_events: setup.webhookEvents,
    webhook_retry_attempts: setup.webhookRetryAttempts,
    webhook_retry_interval: random.pick([2, 5, 10, 15]),
    webhook_first_delay: setup.webhookFirstDelay,
    webhook_cycle_repeat: setup.webhookCycleRepeat,
    invoicing_email: `invoicing@${setup.domain}`,
    invoicing_reference: `${setup.courierPrefix}-LOCKERS-${String(carrier.id).padStart(3, '0')}`,
  };
}

/** The region, sub-region and time zone lists a service point's address names (spec 02 §7 lists). */
function servicePointAreaLists(): NewRecord[] {
  const item = (
    type: string,
    column_id: number | string,
    column_name: string,
    extra: Record<string, unknown> = {},
  ) => ({
    key: `${type}:${column_id}`,
    doc: { type, column_id, column_name, ...extra },
  });
  return [
    ...regions.map((region) => item('region', region.id, region.name, { country: region.country })),
    ...subRegions.map((area) => item('sub_region', area.id, area.name, { region_id: area.region })),
    ...timeZones.map((zone) => item('time_zones', zone.id, zone.name)),
  ];
}

/** The shipments of the hardware's service points: pieces in (and on their way to) its compartments. */
function seedShipments(
  hardware: ReturnType<typeof buildHardwareNetwork>,
  servicePoints: NewRecord[],
  volume: (typeof PIECE_VOLUME)[SeedSize],
) {
  const unitsAt = new Map<number, number[]>();
  for (const unit of hardware.units) {
    const at = unit.doc.service_point_id as number | null | undefined;
    if (at) unitsAt.set(at, [...(unitsAt.get(at) ?? []), unit.doc.hardware_id as number]);
  }
  return buildPieceNetwork(
    servicePoints.map((servicePoint) => servicePoint.doc as unknown as Parameters<typeof buildPieceNetwork>[0][number]),
    unitsAt,
    hardware.compartments.map((compartment) => compartment.doc as unknown as Compartment),
    new Date(),
    volume,
  );
}

/** Builds and stores the demo network, of the given size. Deterministic: the same records on every machine. */
export async function seedNetwork(db: Db, options: { size?: SeedSize } = {}) {
  const size = SEED_SIZES[options.size ?? 'demo'];
  const random = seededRandom(20261121);
  const resources = loadResources();
  /** Search fields come from the schema when the entity has one. */
  const target = (endpoint: string, search: string[] = []) => resources.get(endpoint) ?? { endpoint, search };
  const roles = demoRoles();
  await insertRecords(
    db,
    target('identity_access/roles', ['role_name', 'role_description']),
    roles.map((r) => ({
      key: r.role_name,
      partnerType: r.partner_type,
      partnerId: r.partner,
      doc: { ...r },
    })),
  );

  await insertRecords(
    db,
    target('partners/carrier', ['name']),
    partnerRecords(carriers, 'carrier_id', (carrier) => carrierDoc(carrier, random)),
  );
  await insertRecords(
    db,
    target('partners/location_owner', ['name']),
    partnerRecords(locationOwners, 'location_owner_id', (partner) => partnerSetup('location_owner', partner)),
  );
  await insertRecords(
    db,
    target('partners/hardware_provider', ['name']),
    partnerRecords(hardwareProviders, 'hardware_owner_id', (partner) => ({
      ...partnerSetup('hardware_provider', partner),
      is_default: partner.id === 1,
      events:
        partner.id === 2 ? ['unit_fault', 'compartment_fault'] : ['unit_installed', 'unit_uninstalled', 'unit_fault'],
    })),
  );
  await insertRecords(
    db,
    target('partners/maintenance_provider', ['name']),
    // FixIt Services has its periodic service tickets on, Nordic Field Care off (spec 02 §7).
    partnerRecords(maintenanceProviders, 'maintenance_provider_id', (partner) => ({
      ...partnerSetup('maintenance_provider', partner),
      periodic_tickets: partner.id === 1,
    })),
  );
  await insertRecords(
    db,
    target('partners/support_provider', ['name']),
    partnerRecords(supportProviders, 'support_provider_id', (partner) => partnerSetup('support_provider', partner)),
  );
  await insertRecords(
    db,
    target('partners/hotline_provider', ['name']),
    partnerRecords(hotlineProviders, 'hotline_provider_id', (partner) => ({
      ...partnerSetup('hotline_provider', partner),
      // One call centre no longer answers: the list's Active filter has both.
      active: partner.id !== 3,
    })),
  );

  const couriers: NewRecord[] = [];
  for (const carrier of carriers) {
    for (let n = 1; n <= 8; n += 1) {
      const id = couriers.length + 1;
      couriers.push({
        key: String(id),
        partnerType: 'carrier',
        partnerId: String(carrier.id),
        doc: {
          courier_id: id,
          carrier_id: carrier.id,
          code: `${carrierSetups[carrier.id].courierPrefix}${String(n).padStart(4, '0')}`,
          phone: `${carrierSetups[carrier.id].dialCode} ${random.int(20, 99)} ${random.int(10, 99)} ${random.int(10, 99)} ${random.int(10, 99)}`,
          box_inspection: random.chance(0.3),
          active: random.chance(0.9),
          // One courier in five reads their messages in French (issue 28.3), not drawn: the seed's draws stay as they were.
          language: id % 5 === 0 ? 'fr' : 'en',
        } satisfies Courier,
      });
    }
  }
  await insertRecords(db, target('couriers', ['code', 'phone']), couriers);

  const servicePoints: NewRecord[] = [];
  const withUnits: ServicePointWithUnits[] = [];
  for (let id = 1; id <= size.servicePoints; id += 1) {
    const { doc, units } = servicePointOf(random, id);
    servicePoints.push({
      key: String(id),
      partnerType: 'location_owner',
      partnerId: String(doc.location_owner_id),
      doc,
    });
    if (units) withUnits.push({ doc, units });
  }
  const hardware = buildHardwareNetwork(withUnits, new Date());

  const groups: NewRecord[] = Array.from({ length: 12 }, (_, index) => {
    const id = index + 1;
    const city = cities[index % cities.length];
    const members = servicePoints
      .filter((sp) => sp.doc.city === city.name && sp.doc.status === ServicePointStatus.Active)
      .slice(0, 5);
    return {
      key: String(id),
      doc: {
        service_point_group_id: id,
        group_name: `${city.name} ${index < cities.length ? 'central' : 'outskirts'}`,
        service_point_ids: members.map((sp) => sp.doc.service_point_id),
        carrier_ids: index % 3 === 0 ? [carriers[index % carriers.length].id] : [],
        active: true,
      },
    };
  });
  await insertRecords(db, target('service_points/service_point_groups'), groups);
  // A service point names its group, so that the list can be filtered by group.
  for (const group of groups) {
    for (const member of group.doc.service_point_ids as number[]) {
      servicePoints[member - 1].doc = {
        ...servicePoints[member - 1].doc,
        service_point_group_id: group.doc.service_point_group_id,
      };
    }
  }
  // The hardware facts of each service point, as the gateway derives them on every later write.
  const unitsAt = new Map<string, NewRecord[]>();
  for (const unit of hardware.units) {
    const key = String(unit.doc.service_point_id ?? '');
    unitsAt.set(key, [...(unitsAt.get(key) ?? []), unit]);
  }
  const padsAt = new Map(hardware.pinpads.map((pad) => [String(pad.doc.service_point_id ?? ''), pad.doc]));
  for (const servicePoint of servicePoints) {
    const units = (unitsAt.get(servicePoint.key) ?? []).map((unit) => unit.doc as UnitBadges);
    const pad = padsAt.get(servicePoint.key) as PadAtServicePoint | undefined;
    servicePoint.doc = { ...servicePoint.doc, ...servicePointHardwareFields(units, pad) };
  }
  // The scout's own proposals: a few New and Qualified service points name them as scout contact.
  const scoutEmail = demoUsers.find((user) => user.username === 'scout')!.email;
  for (const proposal of servicePoints
    .filter((sp) => sp.doc.status === ServicePointStatus.New || sp.doc.status === ServicePointStatus.Qualified)
    .slice(0, SCOUT_PROPOSALS)) {
    proposal.doc = { ...proposal.doc, scout_contact: scoutEmail, scout_email: scoutEmail };
  }
  await insertRecords(db, target('service_points'), servicePoints);
  await insertAddresses(db, demoAddresses(servicePoints.map((servicePoint) => servicePoint.doc)));
  await insertRecords(
    db,
    target(HARDWARE_MODELS, ['name']),
    hardwareModels.map((model) => ({ key: String(model.hardware_model_id), doc: { ...model } })),
  );
  // Issue 27.7: the hardware orders, whose produced sub orders made some of the warehouse's units.
  const hardwareOrders = demoHardwareOrders(hardware.units, new Date());
  for (const unit of hardware.units) {
    const link = hardwareOrders.unitLinks.get(Number(unit.doc.hardware_id));
    if (link) unit.doc = { ...unit.doc, ...link };
  }
  await insertRecords(db, target(HARDWARE_UNITS), hardware.units);
  await insertLicenceHistory(
    db,
    buildLicenceHistory(
      hardware.units.map((unit) => unit.doc as { hardware_id: number; license_status: number }),
      new Date(),
    ),
  );
  await insertRecords(db, target('service_points/hardware_order'), hardwareOrders.orders);
  await insertRecords(db, target('service_points/hardware_order/sub_orders'), hardwareOrders.subOrders);
  for (const entry of hardwareOrders.log) {
    await db.query(
      `INSERT INTO audit_log (at, username, partner_type, partner_id, resource, key, action, changes)
       VALUES ($1, $2, 'operator', 'infinity', $3, $4, $5, $6)`,
      [entry.at.toISOString(), entry.username, entry.resource, entry.key, entry.action, JSON.stringify(entry.changes)],
    );
  }
  const shipments = seedShipments(hardware, servicePoints, size.pieces);
  await insertRecords(db, target(COMPARTMENTS), hardware.compartments);
  await insertRecords(db, target(PINPADS), hardware.pinpads);
  const maintenance = buildTicketNetwork(
    {
      servicePoints: servicePoints.map((point) => point.doc as never),
      units: hardware.units.map((unit) => unit.doc as never),
      pinpads: hardware.pinpads.map((pad) => pad.doc as never),
      compartments: hardware.compartments.map((compartment) => compartment.doc as never),
      couriers: couriers.map((courier) => ({
        code: String(courier.doc.code),
        carrier: carriers.find((carrier) => carrier.id === courier.doc.carrier_id)?.name ?? '',
      })),
    },
    new Date(),
  );
  // The operators the tickets are assigned to, each with its contact details, and more of them.
  const maintenanceOperators = demoMaintenanceOperators(maintenanceProviders, servicePoints, maintenance.operators);
  await insertRecords(db, target('maintenance/operators'), maintenanceOperators);
  withRegeneration(maintenance.tickets);
  await insertRecords(db, target('maintenance/tickets'), maintenance.tickets);
  const hardwareAlerts = demoHardwareAlerts(hardware.units, servicePoints, new Date());
  const alerts = [...hardwareAlerts, ...demoTicketAlerts(maintenance.tickets, hardwareAlerts.length + 1, new Date())];
  await insertRecords(db, target('alerts'), alerts);
  await insertRecords(db, target('shipments/endusers'), endUserRecords(shipments.endUsers));
  await insertRecords(db, target('shipments'), pieceRecords(shipments.pieces), 5000);
  await insertPieceEvents(db, shipments.events);
  // The carriers' webhook events of the last 30 days, with NordPost's failed hour (issue 28).
  const carrierRows = await db.query<{ key: string; doc: Carrier }>(
    `SELECT key, doc FROM records WHERE resource = 'partners/carrier'`,
  );
  const webhookHistory = demoWebhookHistory(
    carrierRows.rows.map((row) => ({ id: Number(row.key), doc: row.doc })),
    shipments.pieces,
    shipments.events,
    new Date(),
  );
  await insertRecords(
    db,
    target(WEBHOOKS),
    webhookHistory.records.map((record) => ({ ...record, doc: { ...record.doc } })),
    5000,
  );
  await insertWebhookAttempts(db, webhookHistory.attempts);
  // What the end users and couriers were sent for the seeded pieces, by the gateway's rule (issue 28.3).
  const notifications = demoNotifications(
    carrierRows.rows.map((row) => ({ id: Number(row.key), doc: row.doc })),
    couriers.map((courier) => courier.doc as unknown as Courier),
    shipments.endUsers,
    shipments.pieces,
    shipments.events,
    new Date(),
  );
  await insertRecords(db, target(NOTIFICATIONS), notifications, 5000);
  const unitNames = new Map(hardware.units.map((unit) => [Number(unit.doc.hardware_id), String(unit.doc.name)]));
  const places = new Map(
    hardware.compartments.map(({ doc }) => [
      Number(doc.compartment_id),
      {
        hardware_name: unitNames.get(Number(doc.hardware_id)) ?? null,
        column: Number(doc.column),
        position: Number(doc.position),
      },
    ]),
  );
  const bookings = bookingRecords(shipments.pieces, shipments.events, shipments.endUsers, new Date(), places);
  await insertRecords(db, target('booking'), bookings, 5000);
  // The price structure, then the last three months' invoices computed from it and the pieces (issue 26).
  const prices = demoPrices(new Date());
  await insertRecords(db, target('invoicing/price_structure'), prices);
  await seedInvoices(db, new Date());

  // A few infinity test app users (issue 28): a piece booked for their phone or e-mail is a test shipment.
  const testAppUsers = demoTestAppUsers();
  await insertRecords(db, target('testappusers'), testAppUsers);

  const lookups: Record<string, string[]> = {
    location_types: locationTypes,
    foundations: ['Concrete slab', 'Paving stones', 'Wall mounted', 'Indoor floor'],
    accessories: ['Roof', 'Side panel', 'Ramp', 'Lighting'],
    hardware_positions: ['Outdoor', 'Indoor'],
    delivery_methods: ['Locker', 'Staffed counter', 'Curbside handover'],
    job_types: JOB_TYPES,
    error_types: ERROR_TYPES,
  };
  await insertRecords(db, target('lists', ['column_name']), [
    ...Object.entries(lookups).flatMap(([type, names]) =>
      names.map((column_name, index) => ({
        key: `${type}:${index + 1}`,
        doc: { type, column_id: index + 1, column_name },
      })),
    ),
    ...hardwareBadgeList.map((badge) => ({ key: `badges:${badge.column_id}`, doc: { type: 'badges', ...badge } })),
    ...servicePointAreaLists(),
    ...TICKET_EVENTS.map(([column_id, column_name]) => ({
      key: `ticket_events:${column_id}`,
      doc: { type: 'ticket_events', column_id, column_name },
    })),
  ]);

  const siteSeed = await seedLocations(db, target, {
    // About one location for every 40 service points: 60 in the demo, fewer in the tests' seed.
    count: Math.max(12, Math.round(size.servicePoints / 40)),
    servicePoints,
    locationOwnerIds: locationOwners.map((owner) => owner.id),
    modelIds: hardwareModels
      .filter((model) => model.hardware_type === HardwareKind.ParcelLocker)
      .map((model) => model.hardware_model_id),
  });
  await insertRecords(db, target('locations'), siteSeed.locations);
  await insertRecords(db, target('locations/proposals'), siteSeed.proposals);
  await insertRecords(db, target('locations/contacts'), siteSeed.contacts);

  const sequences: [string, number][] = [
    ['locations', siteSeed.locations.length],
    ['locations/proposals', siteSeed.proposals.length],
    ['locations/contacts', siteSeed.contacts.length],
    ['service_points/service_point_groups', groups.length],
    ['partners/carrier', carriers.length],
    ['partners/location_owner', locationOwners.length],
    ['partners/hardware_provider', hardwareProviders.length],
    ['partners/maintenance_provider', maintenanceProviders.length],
    ['partners/support_provider', supportProviders.length],
    ['partners/hotline_provider', hotlineProviders.length],
    ['invoicing/price_structure', prices.length],
    ['couriers', couriers.length],
    ['service_points', servicePoints.length],
    [HARDWARE_UNITS, hardware.units.length],
    [COMPARTMENTS, hardware.compartments.length],
    [PINPADS, hardware.pinpads.length],
    ['maintenance/operators', maintenanceOperators.length],
    ['maintenance/tickets', maintenance.tickets.length],
    ['alerts', alerts.length],
    ['shipments/endusers', shipments.endUsers.length],
    ['booking', bookings.length],
    ['service_points/hardware_order', hardwareOrders.orders.length],
    ['service_points/hardware_order/sub_orders', hardwareOrders.subOrders.length],
    [WEBHOOKS, webhookHistory.records.length],
    [NOTIFICATIONS, notifications.length],
    ['testappusers', testAppUsers.length],
  ];
  for (const [resource, last] of sequences) {
    await db.query('INSERT INTO id_sequences (resource, last_value) VALUES ($1, $2)', [resource, last]);
  }
  // The sort keys of every list, built now rather than by the first list of each resource (a fresh
  // database's first shipments list would otherwise wait for 24,000 pieces' keys).
  for (const resource of resources.values()) await ensureSortKeys(db, resource);
  // The location generator's points, areas and reports; one report converted through the write pipeline.
  await seedLocationGenerator(db);
  return {
    servicePoints: servicePoints.length,
    hardware: hardware.units.length,
    compartments: hardware.compartments.length,
    pieces: shipments.pieces.length,
    pieceEvents: shipments.events.length,
    endUsers: shipments.endUsers.length,
    pinpads: hardware.pinpads.length,
    tickets: maintenance.tickets.length,
    couriers: couriers.length,
    roles: roles.length,
    webhookEvents: webhookHistory.records.length,
  };
}
