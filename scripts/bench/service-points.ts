import { cities, streets } from '../../server/seed/geography.ts';
import { seededRandom } from '../../server/seed/random.ts';

const owners = ['Coop Nord', 'Kiosk 24', 'FuelStop', 'City Malls', 'Railway Stations'];
const venues = ['Supermarket', 'Kiosk', 'Fuel station', 'Mall', 'Station', 'Library', 'Pharmacy'];

/**
 * Service points shaped like the demo seed's (server/seed/demo-network.ts), in any number and
 * always the same for a given count, so runs on different machines compare.
 */
export function servicePoints(count: number): Record<string, unknown>[] {
  const random = seededRandom(20260505);
  const rows: Record<string, unknown>[] = [];
  for (let id = 1; id <= count; id += 1) {
    const city = cities[(id - 1) % cities.length];
    const status = (id - 1) % 10;
    const owner = random.int(1, owners.length);
    const venue = random.int(0, venues.length - 1);
    rows.push({
      service_point_id: id,
      sp_id: `${city.country}${String(id).padStart(6, '0')}`,
      name: `${owners[owner - 1]} ${venues[venue]} ${city.name} ${id}`,
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
      max_hardware_units: random.int(1, 4),
      location_owner_id: owner,
      maintenance_provider_id: random.int(1, 2),
      support_provider_id: random.int(1, 2),
    });
  }
  return rows;
}
