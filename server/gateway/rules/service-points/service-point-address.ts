import type { Db } from '../../../db/adapter.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { badRequest, HttpError } from '../../http-error.ts';
import type { RuleContext } from '../../resource-rules.ts';
import { foldedText, foldedWords, streetLine } from '../shared/address-text.ts';
import type { AddressSuggestion } from '../../../../src/contract/addresses.ts';
import { queryParams } from '../shared/params.ts';

/** At most this many suggestions per answer (spec 02 §3, address suggestions). */
export const MAX_SUGGESTIONS = 10;
const MAX_TEXT = 100;

const SAVE_FAILED = 'Save failed, check the fields in error state';
const ENTER_ADDRESS = 'Please enter address';
const SELECT_COORDINATES = 'Please select coordinates on the map';

/** The part of the world the suggestions come from: one country, or a box on the map. */
export type Boundary = { country: string } | { box: { south: number; west: number; north: number; east: number } };

const COUNTRY = /^[A-Za-z]{2}$/;

/**
 * `boundary`: an ISO country code (`DK`), or a box `south,west,north,east` in decimal degrees with
 * south <= north and west <= east (a box across the antimeridian is not needed by the demo countries).
 */
export function parseBoundary(text: string | undefined): Boundary | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (COUNTRY.test(text.trim())) return { country: text.trim().toUpperCase() };
  const parts = text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
  const [south, west, north, east] = parts;
  const valid =
    parts.length === 4 &&
    parts.every(Number.isFinite) &&
    south >= -90 &&
    north <= 90 &&
    west >= -180 &&
    east <= 180 &&
    south <= north &&
    west <= east;
  // Not a shape: four numbers within their ranges and in order, south to north and west to east.
  if (!valid) throw badRequest('gateway.boundary_format');
  return { box: { south, west, north, east } };
}

interface AddressRow extends Omit<AddressSuggestion, 'address'> {
  label_key: string;
}

const SUGGESTION_COLUMNS = `address_id, label, street, house_number, postal_code, city, municipality_id,
  municipality_name, region_id, country, latitude, longitude`;

const suggestionOf = (row: AddressRow): AddressSuggestion => ({
  address_id: row.address_id,
  label: row.label,
  street: row.street,
  house_number: row.house_number,
  address: streetLine(row.street, row.house_number),
  postal_code: row.postal_code,
  city: row.city,
  municipality_id: row.municipality_id,
  municipality_name: row.municipality_name,
  region_id: row.region_id,
  country: row.country,
  latitude: row.latitude,
  longitude: row.longitude,
});

/**
 * Suggestions for a typed text within a boundary. Every word typed must begin a word of the address
 * ('vest 12' finds 'Vestergade 12'); the order: the text begins the street line, then the zip, then
 * the city, then any other match; within a box, nearest its centre first; then street and number.
 * Without text (the map was clicked) a box is needed: its addresses, nearest the centre first.
 */
export async function addressSuggestions(db: Db, text: string, boundary: Boundary | undefined) {
  const query = foldedText(text);
  const params: unknown[] = [query];
  // Each word typed begins a word of the label: one plain string search per word, no join.
  const where = foldedWords(text).map((word) => {
    params.push(` ${word}`);
    return `strpos(search_text, $${params.length}) > 0`;
  });
  let nearest = '';
  if (boundary && 'country' in boundary) {
    params.push(boundary.country);
    where.push(`country = $${params.length}`);
  } else if (boundary) {
    const { south, west, north, east } = boundary.box;
    params.push(south, north, west, east);
    const [s, n, w, e] = [params.length - 3, params.length - 2, params.length - 1, params.length];
    where.push(`latitude BETWEEN $${s} AND $${n} AND longitude BETWEEN $${w} AND $${e}`);
    nearest = `(latitude - ($${s} + $${n}) / 2) ^ 2 + (longitude - ($${w} + $${e}) / 2) ^ 2, `;
  }
  const rows = await db.query<AddressRow>(
    `SELECT ${SUGGESTION_COLUMNS} FROM addresses
     WHERE ${where.length ? where.join(' AND ') : 'true'}
     ORDER BY CASE
         WHEN left(street_key, length($1)) = $1 THEN 0
         WHEN left(postal_key, length($1)) = $1 THEN 1
         WHEN left(city_key, length($1)) = $1 THEN 2
         ELSE 3
       END, ${nearest}street, length(house_number), house_number, city
     LIMIT ${MAX_SUGGESTIONS}`,
    params,
  );
  return rows.rows.map(suggestionOf);
}

/**
 * `GET webtool/service_points?opname=address&text=...&boundary=...`: up to ten suggestions
 * (`{ success, data }`), 400 for a malformed boundary, a text of over 100 characters, or neither
 * text nor box.
 */
const addressParams = queryParams({
  text: {
    schema: { type: 'string', maxLength: MAX_TEXT },
    refusal: ['gateway.max_length', { name: 'text', max: MAX_TEXT }],
    optional: true,
  },
});

export const servicePointAddressQueries = {
  async address(ctx: { db: Db }, query: Record<string, string>) {
    const { text = '' } = addressParams(query);
    const boundary = parseBoundary(query.boundary);
    // Not a shape: some text or a box, one parameter standing in for the other.
    if (foldedText(text) === '' && !(boundary && 'box' in boundary)) {
      throw badRequest('gateway.address_text_required');
    }
    const data = await addressSuggestions(ctx.db, text, boundary);
    return { success: true, data, total: data.length };
  },
};

const refusal = (message: string, field: string, key: string) =>
  new HttpError(422, message, {
    message_key: `service_points.map.${key}`,
    errors: { [field]: { message: `service_points.map.${key}` } },
  });

const ADDRESS_FIELDS = ['address', 'zip', 'city', 'country', 'address_id'] as const;

const sameText = (a: string | undefined, b: string | undefined) => foldedText(a ?? '') === foldedText(b ?? '');
const sameZip = (a: string | undefined, b: string | undefined) =>
  (a ?? '').replace(/\s/g, '').toUpperCase() === (b ?? '').replace(/\s/g, '').toUpperCase();

async function indexedAddress(tx: Db, addressId: number) {
  const rows = await tx.query<AddressRow>(`SELECT ${SUGGESTION_COLUMNS} FROM addresses WHERE address_id = $1`, [
    addressId,
  ]);
  return rows.rows[0];
}

/** The saved street line, zip, city and country are those of the indexed address. */
const matches = (doc: ServicePoint, address: AddressRow) =>
  sameText(doc.address, streetLine(address.street, address.house_number)) &&
  sameZip(doc.zip, address.postal_code) &&
  sameText(doc.city, address.city) &&
  doc.country === address.country;

/** An imported row's address, looked up in the index by its text. */
async function addressIdByText(tx: Db, doc: ServicePoint) {
  if (!doc.address) return undefined;
  const rows = await tx.query<AddressRow>(
    `SELECT ${SUGGESTION_COLUMNS} FROM addresses WHERE country = $1 AND street_key = $2 AND city_key = $3`,
    [doc.country, foldedText(doc.address), foldedText(doc.city ?? '')],
  );
  return rows.rows.find((row) => matches(doc, row))?.address_id;
}

/**
 * Spec 02 §5, "address must be validated": a new service point, or an edit of its address, zip,
 * city or country, names (`address_id`) an address of the index whose street line, zip, city and
 * country are the ones saved; and it has its coordinates, chosen on the map. An edit that leaves the
 * address alone is not checked again, so that a service point imported before keeps saving.
 *
 * Imported rows (a create with no request body of its own, `input` unset) are not refused: an
 * address found in the index by its text gets its `address_id`, any other is imported without one,
 * unvalidated, until someone picks it in the form.
 */
export async function validatedAddress(
  tx: Db,
  input: RuleContext['input'],
  doc: ServicePoint,
  before: ServicePoint | undefined,
): Promise<ServicePoint> {
  const imported = !before && input === undefined;
  if (imported) {
    if (doc.address_id !== undefined) return doc;
    const addressId = await addressIdByText(tx, doc);
    return addressId === undefined ? doc : { ...doc, address_id: addressId };
  }
  const addressChanged = !before || ADDRESS_FIELDS.some((field) => before[field] !== doc[field]);
  const coordinatesChanged = before && (before.latitude !== doc.latitude || before.longitude !== doc.longitude);
  if (addressChanged) {
    if (!doc.address?.trim()) throw refusal(ENTER_ADDRESS, 'address', 'enter_address');
    const address = doc.address_id === undefined ? undefined : await indexedAddress(tx, doc.address_id);
    if (!address || !matches(doc, address)) {
      throw new HttpError(422, SAVE_FAILED, {
        message_key: 'validation.invalid_address',
        errors: { address: { message: 'validation.invalid_address' } },
      });
    }
  }
  if ((addressChanged || coordinatesChanged) && (doc.latitude === undefined || doc.longitude === undefined)) {
    throw refusal(SELECT_COORDINATES, 'latitude', 'select_coordinates');
  }
  return doc;
}
