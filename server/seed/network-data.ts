import type { Carrier } from '../../src/types/generated/carrier.ts';
import type { ServicePoint } from '../../src/types/generated/service-point.ts';
import { cities, streets, type City } from './geography.ts';
import { demoAddressId } from './address-index.ts';
import { seededRandom } from './random.ts';
import { ServicePointStatus } from '../../src/types/generated/codes.ts';

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
    is_terminated: status === ServicePointStatus.Terminated,
    parked: status === ServicePointStatus.InNegotiation && random.chance(0.2),
    // A test service point never goes live (spec 02 §4): an Active one is not made a test one.
    test_sp: random.chance(0.02) && status !== ServicePointStatus.Active,
    active: status === ServicePointStatus.Active,
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
  return {
    doc: {
      ...doc,
      address_id: demoAddressId(city, doc.address),
      ...servicePointDetailsOf(id, city, venue, status, doc.carriers_access),
    },
    units,
    spId,
  };
}

/** Regions of the demo countries, one list for all (`webtool/lists?type=region`); ids are the list's. */
export const regions: { id: number; country: City['country']; name: string }[] = [
  { id: 1, country: 'DK', name: 'Hovedstaden' },
  { id: 2, country: 'DK', name: 'Midtjylland' },
  { id: 3, country: 'DK', name: 'Syddanmark' },
  { id: 4, country: 'DK', name: 'Nordjylland' },
  { id: 5, country: 'NO', name: 'Oslo' },
  { id: 6, country: 'NO', name: 'Vestland' },
  { id: 7, country: 'NO', name: 'Trøndelag' },
  { id: 8, country: 'SE', name: 'Stockholms län' },
  { id: 9, country: 'SE', name: 'Västra Götaland' },
  { id: 10, country: 'SE', name: 'Skåne' },
  { id: 11, country: 'SE', name: 'Uppsala län' },
  { id: 12, country: 'PL', name: 'Mazowieckie' },
  { id: 13, country: 'PL', name: 'Małopolskie' },
  { id: 14, country: 'PL', name: 'Pomorskie' },
  { id: 15, country: 'PL', name: 'Dolnośląskie' },
  { id: 16, country: 'PL', name: 'Wielkopolskie' },
  { id: 17, country: 'FI', name: 'Uusimaa' },
  { id: 18, country: 'FI', name: 'Pirkanmaa' },
  { id: 19, country: 'FI', name: 'Varsinais-Suomi' },
];

/** Each demo city's region and its central district (`sub_region`, whose list id is the city's position + 1). */
const cityAreas: Record<string, { region: number; district: string }> = {
  København: { region: 1, district: 'Indre By' },
  Aarhus: { region: 2, district: 'Aarhus C' },
  Odense: { region: 3, district: 'Odense C' },
  Aalborg: { region: 4, district: 'Aalborg Centrum' },
  Oslo: { region: 5, district: 'Sentrum' },
  Bergen: { region: 6, district: 'Bergenhus' },
  Trondheim: { region: 7, district: 'Midtbyen' },
  Stockholm: { region: 8, district: 'Norrmalm' },
  Göteborg: { region: 9, district: 'Inom Vallgraven' },
  Malmö: { region: 10, district: 'Innerstaden' },
  Uppsala: { region: 11, district: 'Fjärdingen' },
  Warszawa: { region: 12, district: 'Śródmieście' },
  Kraków: { region: 13, district: 'Stare Miasto' },
  Gdańsk: { region: 14, district: 'Główne Miasto' },
  Wrocław: { region: 15, district: 'Rynek' },
  Poznań: { region: 16, district: 'Stary Rynek' },
  Helsinki: { region: 17, district: 'Kluuvi' },
  Tampere: { region: 18, district: 'Keskusta' },
  Turku: { region: 19, district: 'Keskusta' },
};

/** Sub-regions (`webtool/lists?type=sub_region`): the central district of each demo city. */
export const subRegions = cities.map((city, index) => ({
  id: index + 1,
  region: cityAreas[city.name].region,
  name: `${city.name} ${cityAreas[city.name].district}`,
}));

/** The time zones of the demo countries (`webtool/lists?type=time_zones`), named by their city in English. */
export const timeZones = [...new Set(cities.map((city) => city.timeZone))].map((zone) => ({
  id: zone,
  name: zone.replace(/^Europe\//, ''),
}));

type OpeningHours = NonNullable<ServicePoint['opening_hours']>;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

function week(weekdays: [string, string], saturday: [string, string] | null, sunday: [string, string] | null) {
  const day = (hours: [string, string] | null) =>
    hours ? { closed: false, open: hours[0], close: hours[1] } : { closed: true };
  return Object.fromEntries(
    WEEKDAYS.map((name, index) => [name, day(index < 5 ? weekdays : index === 5 ? saturday : sunday)]),
  ) as OpeningHours;
}

/** Opening hours by venue (the order of `venues`): shops late, some closed on Sunday, fuel stations 24/7. */
function openingHoursOf(venue: number, random: ReturnType<typeof seededRandom>): OpeningHours {
  const sundayClosed = random.chance(0.4);
  switch (venues[venue]) {
    case 'Supermarket':
      return week(['08:00', '22:00'], ['08:00', '22:00'], sundayClosed ? null : ['10:00', '20:00']);
    case 'Kiosk':
      return random.chance(0.3)
        ? week(['00:00', '23:59'], ['00:00', '23:59'], ['00:00', '23:59'])
        : week(['07:00', '22:00'], ['08:00', '22:00'], ['09:00', '21:00']);
    case 'Fuel station':
      return week(['00:00', '23:59'], ['00:00', '23:59'], ['00:00', '23:59']);
    case 'Mall':
      return week(['10:00', '20:00'], ['10:00', '18:00'], sundayClosed ? null : ['11:00', '17:00']);
    case 'Station':
      return week(['05:00', '23:30'], ['06:00', '23:30'], ['06:00', '23:30']);
    case 'Library':
      return week(['10:00', '19:00'], ['10:00', '15:00'], null);
    default:
      return week(['09:00', '18:00'], ['10:00', '14:00'], null);
  }
}

const TAGS = [
  'Parking',
  'City centre',
  'Near bus stop',
  'Student area',
  'Shopping street',
  'Residential',
  'Lit at night',
];
const LANGUAGE_OF: Record<City['country'], NonNullable<ServicePoint['description_language']>> = {
  DK: 'da',
  NO: 'nb',
  SE: 'sv',
  PL: 'pl',
  FI: 'fi',
};
/** A public description in the country's language: where to find the locker. */
const DESCRIPTIONS: Record<NonNullable<ServicePoint['description_language']>, (venue: string) => string> = {
  en: (venue) => `The parcel locker stands by the main entrance of the ${venue.toLowerCase()}.`,
  fr: (venue) => `La consigne se trouve à l'entrée principale (${venue}).`,
  da: () => 'Pakkeautomaten står ved hovedindgangen, til venstre for kasserne.',
  nb: () => 'Pakkeautomaten står ved hovedinngangen, til venstre for kassene.',
  sv: () => 'Paketskåpet står vid huvudentrén, till vänster om kassorna.',
  pl: () => 'Paczkomat stoi przy głównym wejściu, po lewej stronie od kas.',
  fi: () => 'Pakettiautomaatti on pääsisäänkäynnin vieressä, kassojen vasemmalla puolella.',
};
const STATUS_COMMENTS: Partial<Record<number, string>> = {
  2: 'Site visit done, waiting for the owner to confirm the spot',
  4: 'Contract draft sent to the location owner',
  6: 'Units ordered, delivery expected within three weeks',
  8: 'Closed during renovation of the shop',
};

/**
 * The fields of spec 02 §3 added to the demo service points, drawn from a generator of their own
 * seeded by the id, so that the values `servicePointOf` drew before stay the same.
 */
function servicePointDetailsOf(
  id: number,
  city: City,
  venue: number,
  status: number,
  carriersAccess: number[],
): Partial<ServicePoint> {
  const random = seededRandom(0x5e7d1 + id * 7919);
  const area = cityAreas[city.name];
  const language = random.chance(0.25) ? 'en' : LANGUAGE_OF[city.country];
  const tags = TAGS.filter(() => random.chance(0.25)).slice(0, 3);
  const indoor = ['Mall', 'Station', 'Library'].includes(venues[venue]);
  const comment = STATUS_COMMENTS[status];
  return {
    location_name: `${venues[venue]} ${city.name}`,
    ...(id % 5 === 0 && { alt_sp_id: `ALT-${String(id).padStart(6, '0')}` }),
    ...(comment && id % 2 === 0 && { status_comment: comment }),
    municipality: city.name,
    region_id: area.region,
    sub_region_id: cities.indexOf(city) + 1,
    foundation_id: indoor ? 4 : random.int(1, 3),
    delivery_days: random.chance(0.6)
      ? [1, 2, 3, 4, 5, 6]
      : random.chance(0.5)
        ? [1, 2, 3, 4, 5]
        : [1, 2, 3, 4, 5, 6, 7],
    opening_hours: openingHoursOf(venue, random),
    wheelchair_accessible: indoor || random.chance(0.6),
    contract_signed: status >= 3,
    description: DESCRIPTIONS[language](venues[venue]),
    description_language: language,
    ...Object.fromEntries(tags.map((tag, index) => [`tag${index + 1}`, tag])),
    carrier_settings: carriersAccess.map((carrierId) => ({
      carrier_id: carrierId,
      first_mile: random.chance(0.7),
      last_mile: true,
      ...(random.chance(0.3) && { expiry_days: random.pick([3, 5, 10, 14]) }),
    })),
  };
}
