/**
 * One answer of `GET webtool/service_points?opname=address&text=&boundary=` (spec 02 §3, "Address
 * suggestion"), with the street line a form saves as the service point's address.
 */
export interface AddressSuggestion {
  address_id: number;
  label: string;
  street: string;
  house_number: string;
  /** Street and house number, as saved in a service point's `address`. */
  address: string;
  postal_code: string;
  city: string;
  municipality_id: number | null;
  municipality_name: string | null;
  region_id: number | null;
  country: string;
  latitude: number;
  longitude: number;
}

/** The query's `boundary`: a country code, or a box `south,west,north,east` in decimal degrees. */
export const boundaryBox = (south: number, west: number, north: number, east: number) =>
  [south, west, north, east].map((degrees) => degrees.toFixed(6)).join(',');
