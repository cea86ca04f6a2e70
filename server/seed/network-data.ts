import type { Carrier } from '../../src/types/generated/carrier.ts';
import { cities, streets } from './geography.ts';
import { demoAddressId } from './address-index.ts';
import type { seededRandom } from './random.ts';

/**
 * The demo network's fixed partners and its service point maker. Nothing here touches Node or the
 * database: the benchmarks make their 100,000 service points with it, in Node and in the browser
 * (scripts/bench/list-render).
 */

export interface Partner {
  id: number;
  name: string;
}

export const carriers: Partner[] = [
  { id: 1, name: 'NordPost' },
  { id: 2, name: 'FjordFrakt' },
  { id: 3, name: 'Baltic Express' },
  { id: 4, name: 'Vistula Kurier' },
  { id: 5, name: 'Suomi Parcel' },
  { id: 6, name: 'Øresund Logistics' },
];

/**
 * How each demo carrier is set up, as its administrator would have filled the carrier form. `courierPrefix`:
 * the start of its couriers' codes, plain ASCII letters as the courier code rule wants (not 'ØR').
 */
export interface CarrierSetup {
  country: Carrier['primary_country_code'];
  dialCode: string;
  courierPrefix: string;
  domain: string;
  allocation: NonNullable<Carrier['allocation_default_behaviour']>;
  notification: NonNullable<Carrier['booking_notification_behaviour']>;
  expiryDays: number;
  endUserSignature: boolean;
  ownEndUserApp: boolean;
  reminder: boolean;
  webhookEvents: NonNullable<Carrier['webhook_events']>;
  webhookRetryAttempts: number;
  webhookFirstDelay: number;
  webhookCycleRepeat: number;
}

const allWebhookEvents: CarrierSetup['webhookEvents'] = [
  'piece_reserved',
  'courier_delivered',
  'enduser_pickup',
  'courier_pickup',
  'piece_expired',
  'piece_cancelled',
];

export const carrierSetups: Record<number, CarrierSetup> = {
  1: {
    country: 'DK',
    dialCode: '+45',
    courierPrefix: 'NO',
    domain: 'nordpost.demo.locker.test',
    allocation: 'nearest',
    notification: 'email_and_sms',
    expiryDays: 7,
    endUserSignature: false,
    ownEndUserApp: true,
    reminder: true,
    webhookEvents: allWebhookEvents,
    webhookRetryAttempts: 3,
    webhookFirstDelay: 0,
    webhookCycleRepeat: 12,
  },
  2: {
    country: 'NO',
    dialCode: '+47',
    courierPrefix: 'FJ',
    domain: 'fjordfrakt.demo.locker.test',
    allocation: 'selected',
    notification: 'sms',
    expiryDays: 5,
    endUserSignature: true,
    ownEndUserApp: false,
    reminder: true,
    webhookEvents: ['courier_delivered', 'enduser_pickup', 'piece_expired'],
    webhookRetryAttempts: 2,
    webhookFirstDelay: 5,
    webhookCycleRepeat: 24,
  },
  3: {
    country: 'SE',
    dialCode: '+46',
    courierPrefix: 'BA',
    domain: 'balticexpress.demo.locker.test',
    allocation: 'first_free',
    notification: 'email',
    expiryDays: 10,
    endUserSignature: false,
    ownEndUserApp: false,
    reminder: false,
    webhookEvents: ['piece_reserved', 'courier_delivered', 'enduser_pickup'],
    webhookRetryAttempts: 3,
    webhookFirstDelay: 10,
    webhookCycleRepeat: 12,
  },
  4: {
    country: 'PL',
    dialCode: '+48',
    courierPrefix: 'VI',
    domain: 'vistulakurier.demo.locker.test',
    allocation: 'nearest',
    notification: 'email_and_sms',
    expiryDays: 3,
    endUserSignature: true,
    ownEndUserApp: true,
    reminder: true,
    webhookEvents: allWebhookEvents,
    webhookRetryAttempts: 1,
    webhookFirstDelay: 0,
    webhookCycleRepeat: 10,
  },
  5: {
    country: 'FI',
    dialCode: '+358',
    courierPrefix: 'SU',
    domain: 'suomiparcel.demo.locker.test',
    allocation: 'selected',
    notification: 'email',
    expiryDays: 14,
    endUserSignature: false,
    ownEndUserApp: false,
    reminder: true,
    webhookEvents: ['courier_delivered', 'enduser_pickup', 'courier_pickup', 'piece_expired'],
    webhookRetryAttempts: 3,
    webhookFirstDelay: 30,
    webhookCycleRepeat: 18,
  },
  6: {
    country: 'DK',
    dialCode: '+45',
    courierPrefix: 'OR',
    domain: 'oresund.demo.locker.test',
    allocation: 'first_free',
    notification: 'sms',
    expiryDays: 7,
    endUserSignature: true,
    ownEndUserApp: false,
    reminder: false,
    webhookEvents: ['piece_reserved', 'courier_delivered', 'piece_cancelled'],
    webhookRetryAttempts: 2,
    webhookFirstDelay: 15,
    webhookCycleRepeat: 12,
  },
};

export const locationOwners: Partner[] = [
  { id: 1, name: 'Coop Nord' },
  { id: 2, name: 'Kiosk 24' },
  { id: 3, name: 'FuelStop' },
  { id: 4, name: 'City Malls' },
  { id: 5, name: 'Railway Stations' },
];
export const hardwareProviders: Partner[] = [
  { id: 1, name: 'LockerWorks' },
  { id: 2, name: 'BoxTech' },
  { id: 3, name: 'NordLock Systems' },
];
export const maintenanceProviders: Partner[] = [
  { id: 1, name: 'FixIt Services' },
  { id: 2, name: 'Nordic Field Care' },
];
export const supportProviders: Partner[] = [
  { id: 1, name: 'HelpDesk Nordic' },
  { id: 2, name: 'CallPoint PL' },
];

export const venues = ['Supermarket', 'Kiosk', 'Fuel station', 'Mall', 'Station', 'Library', 'Pharmacy'];
export const locationTypes = [
  'Supermarket',
  'Kiosk',
  'Fuel station',
  'Shopping mall',
  'Railway station',
  'Library',
  'Pharmacy',
];

/**
 * The `id`th demo service point, drawing from `random` in a fixed order, so that the same seed gives
 * the same network (the benchmarks use it for their 100,000 rows too). `units`: hardware units there
 * (spec 02 §9: 1 to 7), from "ready for installation" to "inactive"; a terminated one has none (§4).
 */
export function servicePointOf(random: ReturnType<typeof seededRandom>, id: number) {
  const city = cities[(id - 1) % cities.length];
  const status = (id - 1) % 10;
  const owner = random.pick(locationOwners);
  // One draw, as before, so that later draws stay the same: mostly one to three units, at most seven.
  const units = status >= 5 && status <= 8 ? 1 + Math.floor(random.next() ** 3 * 7) : 0;
  const spId = `${city.country}${String(id).padStart(5, '0')}`;
  const venue = random.int(0, venues.length - 1);
  const doc = {
    service_point_id: id,
    sp_id: spId,
    name: `${owner.name} ${venues[venue]} ${city.name} ${id}`,
    location_type_id: venue + 1,
    status,
    is_terminated: status === 9,
    parked: status === 4 && random.chance(0.2),
    test_sp: random.chance(0.02),
    active: status === 7,
    country: city.country,
    address: `${random.pick(streets[city.country])} ${random.int(1, 180)}`,
    zip: city.zip,
    city: city.name,
    latitude: Number((city.lat + (random.next() - 0.5) * 0.2).toFixed(6)),
    longitude: Number((city.lng + (random.next() - 0.5) * 0.3).toFixed(6)),
    time_zone: city.timeZone,
    max_hardware_units: Math.max(units, random.int(1, 4)),
    location_owner_id: owner.id,
    maintenance_provider_id: random.pick(maintenanceProviders).id,
    support_provider_id: random.pick(supportProviders).id,
    // From the id, not from `random`: a new draw would change every later demo service point.
    carriers_access: carriers.filter((_, index) => (id + index) % 3 === 0).map((carrier) => carrier.id),
    delivery_methods: id % 4 === 0 ? [1, 2] : [1],
  };
  return { doc: { ...doc, address_id: demoAddressId(city, doc.address) }, units, spId };
}
