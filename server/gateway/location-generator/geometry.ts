/**
 * Plane geometry of the location generator over GeoJSON polygons ([longitude, latitude] pairs): the
 * areas and zones are a few kilometres wide, where treating degrees as a plane for containment is exact
 * enough; distances are great-circle metres.
 */

export type { Polygon, Position, Ring } from '../../../src/contract/location-generator.ts';
import type { Polygon, Position, Ring } from '../../../src/contract/location-generator.ts';

const EARTH_RADIUS_M = 6371008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres between two points given as latitude, longitude. */
export function distanceMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = radians(lat2 - lat1);
  const dLng = radians(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const same = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** Why a drawn shape is no polygon, as a catalogue key; undefined when it is one. */
export type PolygonProblem = 'catalogue.generator_polygon_invalid' | 'catalogue.generator_polygon_crossing';

/**
 * The polygon a client sent, closed and checked: a Polygon of one ring with at least three distinct
 * vertices of valid coordinates, an area, and no edge crossing another. Answers the ring or the problem.
 */
export function readPolygon(value: unknown): { ring: Ring } | { problem: PolygonProblem } {
  const invalid = { problem: 'catalogue.generator_polygon_invalid' as const };
  if (!value || typeof value !== 'object') return invalid;
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (type !== 'Polygon' || !Array.isArray(coordinates) || coordinates.length !== 1) return invalid;
  const raw = coordinates[0] as unknown;
  if (!Array.isArray(raw) || raw.length > 500) return invalid;
  const ring: Ring = [];
  for (const position of raw as unknown[]) {
    if (!Array.isArray(position) || position.length !== 2) return invalid;
    const [lng, lat] = position as unknown[];
    if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
      return invalid;
    }
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return invalid;
    ring.push([lng, lat]);
  }
  if (ring.length && same(ring[0], ring[ring.length - 1])) ring.pop();
  const distinct = ring.filter((position, index) => index === 0 || !same(position, ring[index - 1]));
  if (distinct.length < 3) return invalid;
  const closed: Ring = [...distinct, distinct[0]];
  if (selfCrossing(closed)) return { problem: 'catalogue.generator_polygon_crossing' };
  if (Math.abs(signedArea(closed)) < 1e-12) return invalid;
  return { ring: closed };
}

export const polygonOf = (ring: Ring): Polygon => ({ type: 'Polygon', coordinates: [ring] });

/** Twice the signed area of a closed ring (shoelace), in square degrees. */
export function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return sum / 2;
}

const cross = (o: Position, a: Position, b: Position) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

/** Whether segments ab and cd cross at a point inside both (touching at an end is no crossing). */
function properlyCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function selfCrossing(ring: Ring): boolean {
  const edges = ring.length - 1;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 2; j < edges; j++) {
      if (i === 0 && j === edges - 1) continue; // neighbours through the closing vertex
      if (properlyCross(ring[i], ring[i + 1], ring[j], ring[j + 1])) return true;
    }
  }
  return false;
}

function onSegment(p: Position, a: Position, b: Position): boolean {
  if (Math.abs(cross(a, b, p)) > 1e-12) return false;
  return (
    Math.min(a[0], b[0]) - 1e-12 <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) + 1e-12 &&
    Math.min(a[1], b[1]) - 1e-12 <= p[1] &&
    p[1] <= Math.max(a[1], b[1]) + 1e-12
  );
}

/** Whether a point ([longitude, latitude]) lies inside a closed ring or on its edge (ray casting). */
export function pointInRing(point: Position, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const a = ring[i];
    const b = ring[j];
    if (onSegment(point, a, b)) return true;
    if (a[1] > point[1] !== b[1] > point[1] && point[0] < ((b[0] - a[0]) * (point[1] - a[1])) / (b[1] - a[1]) + a[0]) {
      inside = !inside;
    }
  }
  return inside;
}

/**
 * Whether the inner ring lies within the outer one (edges may touch): every vertex inside or on the outer
 * ring, no edge crossing one of the outer's, and each inner edge's midpoint inside (a concave outer ring
 * could otherwise hold an edge that leaves it between two vertices that touch its boundary).
 */
export function ringWithin(inner: Ring, outer: Ring): boolean {
  if (!inner.every((point) => pointInRing(point, outer))) return false;
  for (let i = 0; i < inner.length - 1; i++) {
    for (let j = 0; j < outer.length - 1; j++) {
      if (properlyCross(inner[i], inner[i + 1], outer[j], outer[j + 1])) return false;
    }
    const middle: Position = [(inner[i][0] + inner[i + 1][0]) / 2, (inner[i][1] + inner[i + 1][1]) / 2];
    if (!pointInRing(middle, outer)) return false;
  }
  return true;
}

/** The convex hull of points (Andrew's monotone chain), as a closed ring: a municipality's outline. */
export function convexHull(points: readonly Position[]): Ring {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const half = (list: Position[]) => {
    const hull: Position[] = [];
    for (const p of list) {
      while (hull.length >= 2 && cross(hull[hull.length - 2], hull[hull.length - 1], p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  const hull = [...half(sorted), ...half([...sorted].reverse())];
  return hull.length ? [...hull, hull[0]] : [];
}

/** A ring pushed outwards from its centre by `meters` (a municipality's hull with room around its edge). */
export function grownRing(ring: Ring, meters: number): Ring {
  const open = ring.slice(0, -1);
  const centre: Position = [
    open.reduce((sum, p) => sum + p[0], 0) / open.length,
    open.reduce((sum, p) => sum + p[1], 0) / open.length,
  ];
  const grown = open.map(([lng, lat]): Position => {
    const dx = (lng - centre[0]) * 111320 * Math.cos(radians(centre[1]));
    const dy = (lat - centre[1]) * 110540;
    const length = Math.hypot(dx, dy) || 1;
    const factor = (length + meters) / length;
    return [
      Number((centre[0] + (lng - centre[0]) * factor).toFixed(6)),
      Number((centre[1] + (lat - centre[1]) * factor).toFixed(6)),
    ];
  });
  return [...grown, grown[0]];
}

/** The box around a ring: [minLng, minLat, maxLng, maxLat]. */
export function boxOf(ring: Ring): [number, number, number, number] {
  const lngs = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}
