import { cities, streets } from './geography.ts';
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
 * the same network (the benchmarks use it for their 100,000 rows too). `units`: hardware to install.
 */
export function servicePointOf(random: ReturnType<typeof seededRandom>, id: number) {
  const city = cities[(id - 1) % cities.length];
  const status = (id - 1) % 10;
  const owner = random.pick(locationOwners);
  const units = status >= 5 && status <= 8 ? random.int(1, 3) : 0;
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
  };
  return { doc, units, spId };
}
