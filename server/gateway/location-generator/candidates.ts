import { distanceMeters, pointInRing, type Ring } from './geometry.ts';
import type { ScoreParts } from '../../../src/contract/location-generator.ts';

/**
 * The location generator's computation (issue 29.4): where in the chosen regions a new service point
 * would serve most people. Every address point inside a region is a candidate site; each is scored by the
 * residents living within the catchment radius (the population part) and by how far the nearest
 * competitor is (the competition part, full when none is within the radius), weighted by the report's
 * criteria. Sites closer than the minimum distance to an existing service point are left out, and the
 * best are taken one by one, each keeping the same distance from those taken before, up to the maximum.
 */

export interface PopulationPoint {
  address_id: number;
  latitude: number;
  longitude: number;
  residents: number;
}

export interface Site {
  latitude: number;
  longitude: number;
}

export interface Region {
  /** The zone the candidates found in it belong to; undefined for a whole area. */
  zone_id?: number;
  ring: Ring;
}

export interface Criteria {
  /** Catchment: residents within this many metres count as served. */
  radius_m: number;
  /** No candidate this close to an existing service point, nor to another candidate. */
  min_distance_m: number;
  max_candidates: number;
  /** 0..1: the population part's weight; the competition part weighs the rest. */
  population_weight: number;
}

export const DEFAULT_CRITERIA: Criteria = {
  radius_m: 500,
  min_distance_m: 400,
  max_candidates: 20,
  population_weight: 0.7,
};

/** The limits a report's criteria are checked against. */
export const CRITERIA_LIMITS: Record<keyof Criteria, [number, number]> = {
  radius_m: [100, 5000],
  min_distance_m: [0, 5000],
  max_candidates: [1, 200],
  population_weight: [0, 1],
};

export type { ScoreParts } from '../../../src/contract/location-generator.ts';

export interface Candidate {
  rank: number;
  address_id: number;
  zone_id?: number;
  latitude: number;
  longitude: number;
  /** 0..100: 100 × (weight × population part + (1 − weight) × competition part). */
  score: number;
  parts: ScoreParts;
}

/** How far the nearest service point or competitor is looked for (distances beyond read as "none near"). */
export const SEARCH_DISTANCE_M = 3000;

/** Points in square cells of about `cellMeters`, to find those near a point without reading them all. */
export class PointIndex<T extends Site> {
  private readonly cells = new Map<string, T[]>();
  private readonly cellLat: number;
  private readonly cellLng: number;

  constructor(points: readonly T[], cellMeters: number, referenceLatitude = points[0]?.latitude ?? 0) {
    this.cellLat = cellMeters / 110540;
    this.cellLng = cellMeters / (111320 * Math.max(0.1, Math.cos((referenceLatitude * Math.PI) / 180)));
    for (const point of points) {
      const key = this.key(Math.floor(point.latitude / this.cellLat), Math.floor(point.longitude / this.cellLng));
      const cell = this.cells.get(key);
      if (cell) cell.push(point);
      else this.cells.set(key, [point]);
    }
  }

  private key(row: number, column: number) {
    return `${row}:${column}`;
  }

  /** Each point within `meters` of the position, with its distance. */
  *within(latitude: number, longitude: number, meters: number): Generator<[T, number]> {
    const rows = Math.ceil(meters / (this.cellLat * 110540)) + 1;
    const columns = Math.ceil(meters / (111320 * Math.cos((latitude * Math.PI) / 180)) / this.cellLng) + 1;
    const row = Math.floor(latitude / this.cellLat);
    const column = Math.floor(longitude / this.cellLng);
    for (let r = row - rows; r <= row + rows; r++) {
      for (let c = column - columns; c <= column + columns; c++) {
        for (const point of this.cells.get(this.key(r, c)) ?? []) {
          const distance = distanceMeters(latitude, longitude, point.latitude, point.longitude);
          if (distance <= meters) yield [point, distance];
        }
      }
    }
  }

  nearest(latitude: number, longitude: number, meters: number): number | null {
    let best: number | null = null;
    for (const [, distance] of this.within(latitude, longitude, meters)) {
      if (best === null || distance < best) best = distance;
    }
    return best;
  }
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function computeCandidates(input: {
  regions: readonly Region[];
  population: readonly PopulationPoint[];
  servicePoints: readonly Site[];
  competitors: readonly Site[];
  criteria: Criteria;
}): Candidate[] {
  const { regions, population, servicePoints, competitors, criteria } = input;
  if (!population.length || !regions.length) return [];
  const reference = population[0].latitude;
  const people = new PointIndex(population, criteria.radius_m, reference);
  const servicePointIndex = new PointIndex(servicePoints, SEARCH_DISTANCE_M, reference);
  const competitorIndex = new PointIndex(competitors, SEARCH_DISTANCE_M, reference);

  // Each address inside a region (the first region holding it names its zone), once.
  const sites: { point: PopulationPoint; zone_id?: number }[] = [];
  const boxes = regions.map((region) => {
    const lngs = region.ring.map((p) => p[0]);
    const lats = region.ring.map((p) => p[1]);
    return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
  });
  for (const point of population) {
    const position: [number, number] = [point.longitude, point.latitude];
    const index = regions.findIndex((region, i) => {
      const [minLng, minLat, maxLng, maxLat] = boxes[i];
      return (
        point.longitude >= minLng &&
        point.longitude <= maxLng &&
        point.latitude >= minLat &&
        point.latitude <= maxLat &&
        pointInRing(position, region.ring)
      );
    });
    if (index >= 0) sites.push({ point, zone_id: regions[index].zone_id });
  }

  const eligible = sites
    .map(({ point, zone_id }) => {
      const nearestServicePoint = servicePointIndex.nearest(point.latitude, point.longitude, SEARCH_DISTANCE_M);
      if (nearestServicePoint !== null && nearestServicePoint < criteria.min_distance_m) return undefined;
      let served = 0;
      for (const [neighbour] of people.within(point.latitude, point.longitude, criteria.radius_m)) {
        served += neighbour.residents;
      }
      return {
        point,
        zone_id,
        served,
        nearestServicePoint,
        nearestCompetitor: competitorIndex.nearest(point.latitude, point.longitude, SEARCH_DISTANCE_M),
      };
    })
    .filter((site) => site !== undefined);
  const most = Math.max(1, ...eligible.map((site) => site.served));
  const weight = criteria.population_weight;
  const scored = eligible.map((site) => {
    const populationPart = site.served / most;
    const competitionPart =
      site.nearestCompetitor === null ? 1 : Math.min(site.nearestCompetitor / criteria.radius_m, 1);
    return {
      ...site,
      populationPart,
      competitionPart,
      score: 100 * (weight * populationPart + (1 - weight) * competitionPart),
    };
  });
  scored.sort((a, b) => b.score - a.score || a.point.address_id - b.point.address_id);

  const taken: Candidate[] = [];
  const takenIndex: Site[] = [];
  for (const site of scored) {
    if (taken.length >= criteria.max_candidates) break;
    const tooClose = takenIndex.some(
      (other) =>
        distanceMeters(site.point.latitude, site.point.longitude, other.latitude, other.longitude) <
        criteria.min_distance_m,
    );
    if (tooClose) continue;
    takenIndex.push(site.point);
    taken.push({
      rank: taken.length + 1,
      address_id: site.point.address_id,
      ...(site.zone_id === undefined ? {} : { zone_id: site.zone_id }),
      latitude: site.point.latitude,
      longitude: site.point.longitude,
      score: round(site.score, 2),
      parts: {
        population: site.served,
        population_part: round(site.populationPart, 4),
        nearest_competitor_m: site.nearestCompetitor === null ? null : Math.round(site.nearestCompetitor),
        competition_part: round(site.competitionPart, 4),
        nearest_service_point_m: site.nearestServicePoint === null ? null : Math.round(site.nearestServicePoint),
        population_weight: weight,
      },
    });
  }
  return taken;
}

/** Residents of a demo address: deterministic, more towards a city's centre (lower house numbers). */
export function demoResidents(addressId: number): number {
  const houseNumber = addressId % 1000;
  const hash = ((addressId * 2654435761) >>> 0) % 1000;
  const density = Math.max(1, Math.round(60 - houseNumber / 4));
  return 1 + (((hash * density) % 997) % density);
}
