/**
 * The location generator's shapes, as the gateway stores and answers them and the app reads them
 * (server/gateway/location-generator/, src/custom/location-generator/).
 */

/** A point as GeoJSON writes it: longitude, latitude. */
export type Position = [number, number];
/** A closed ring: its first position repeated last. */
export type Ring = Position[];
/** An area's or a zone's outline, a GeoJSON Polygon of one ring. */
export interface Polygon {
  type: 'Polygon';
  coordinates: Ring[];
}

/** How a candidate site's score is made: kept with it and shown beside it. */
export interface ScoreParts {
  /** Residents within the radius. */
  population: number;
  /** population / the most any eligible candidate serves: 0..1. */
  population_part: number;
  /** Metres to the nearest competitor within the search distance, else null. */
  nearest_competitor_m: number | null;
  /** min(nearest competitor / radius, 1): 1 when no competitor is within the radius. */
  competition_part: number;
  /** Metres to the nearest existing service point within the search distance, else null. */
  nearest_service_point_m: number | null;
  population_weight: number;
}
