import type { Db } from '../db/adapter.ts';
import { foldedText, searchText, splitStreetLine, streetLine } from '../gateway/rules/shared/address-text.ts';
import { cities, streets, type City } from './geography.ts';

/** House numbers of every demo street in every demo city: the service points draw theirs from the same range. */
export const HOUSE_NUMBERS = 180;

/** Degrees between two neighbouring house numbers along a street (about 40 m). */
const HOUSE_STEP = 0.0004;

/**
 * The demo address's id, readable: city, street within the country's streets, house number
 * (København's Nørregade 12 is 1_2_012 = 102012). Undefined for an address outside the demo index.
 */
export function demoAddressId(city: City, address: string): number | undefined {
  const parts = splitStreetLine(address);
  const cityIndex = cities.indexOf(city);
  const streetIndex = parts ? streets[city.country].indexOf(parts.street) : -1;
  const number = Number(parts?.houseNumber);
  if (cityIndex < 0 || streetIndex < 0 || !Number.isInteger(number) || number < 1 || number > HOUSE_NUMBERS) {
    return undefined;
  }
  return (cityIndex + 1) * 100000 + (streetIndex + 1) * 1000 + number;
}

export interface IndexedAddress {
  address_id: number;
  country: string;
  street: string;
  house_number: string;
  postal_code: string;
  city: string;
  municipality_id: number;
  municipality_name: string;
  latitude: number;
  longitude: number;
}

/** Each demo street runs out from its city's centre in a direction of its own, numbers rising outwards. */
function gridAddresses(): IndexedAddress[] {
  return cities.flatMap((city, cityIndex) =>
    streets[city.country].flatMap((street, streetIndex, all) => {
      const angle = (2 * Math.PI * streetIndex) / all.length;
      return Array.from({ length: HOUSE_NUMBERS }, (_, index) => {
        const number = index + 1;
        const along = number * HOUSE_STEP;
        return {
          address_id: demoAddressId(city, streetLine(street, String(number)))!,
          country: city.country,
          street,
          house_number: String(number),
          postal_code: city.zip,
          city: city.name,
          municipality_id: cityIndex + 1,
          municipality_name: city.name,
          latitude: Number((city.lat + Math.cos(angle) * along).toFixed(6)),
          // A degree of longitude is shorter this far north: stretch it so that streets look straight.
          longitude: Number((city.lng + (Math.sin(angle) * along) / Math.cos((city.lat * Math.PI) / 180)).toFixed(6)),
        };
      });
    }),
  );
}

interface PlacedServicePoint {
  address_id?: number;
  latitude?: number;
  longitude?: number;
}

/**
 * The demo countries' address index: every house of every demo street, each service point's address
 * where the service point stands (the first one there, when several share an address), so that a
 * demo service point's saved address and coordinates are those of the address it names.
 */
export function demoAddresses(servicePoints: readonly PlacedServicePoint[]): IndexedAddress[] {
  const byId = new Map(gridAddresses().map((address) => [address.address_id, address]));
  const placed = new Set<number>();
  for (const { address_id: id, latitude, longitude } of servicePoints) {
    const address = id === undefined ? undefined : byId.get(id);
    if (!address || placed.has(address.address_id) || latitude === undefined || longitude === undefined) continue;
    placed.add(address.address_id);
    byId.set(address.address_id, { ...address, latitude, longitude });
  }
  return [...byId.values()];
}

/** Each column of the index with its SQL type: the rows go in as one array per column. */
const COLUMNS = [
  ['address_id', 'integer'],
  ['country', 'text'],
  ['street', 'text'],
  ['house_number', 'text'],
  ['postal_code', 'text'],
  ['city', 'text'],
  ['municipality_id', 'integer'],
  ['municipality_name', 'text'],
  ['latitude', 'double precision'],
  ['longitude', 'double precision'],
  ['label', 'text'],
  ['label_key', 'text'],
  ['street_key', 'text'],
  ['postal_key', 'text'],
  ['city_key', 'text'],
  ['search_text', 'text'],
] as const;

/** The label a suggestion shows: 'Vestergade 12, 1050 København'. */
export const addressLabel = (address: IndexedAddress) =>
  `${streetLine(address.street, address.house_number)}, ${address.postal_code} ${address.city}`;

/**
 * Writes the index in one statement of one array per column (`unnest`): tens of thousands of bound
 * values would cost seconds, and every test stack seeds the index afresh.
 */
export async function insertAddresses(db: Db, addresses: readonly IndexedAddress[]) {
  const columns: unknown[][] = COLUMNS.map(() => []);
  for (const address of addresses) {
    const label = addressLabel(address);
    const values = [
      address.address_id,
      address.country,
      address.street,
      address.house_number,
      address.postal_code,
      address.city,
      address.municipality_id,
      address.municipality_name,
      address.latitude,
      address.longitude,
      label,
      foldedText(label),
      foldedText(streetLine(address.street, address.house_number)),
      foldedText(address.postal_code),
      foldedText(address.city),
      searchText(label),
    ];
    values.forEach((value, index) => columns[index].push(value));
  }
  const arrays = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  await db.query(
    `INSERT INTO addresses (${COLUMNS.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${arrays})`,
    columns,
  );
}
