import { demoAddresses } from '../../server/seed/address-index.ts';
import {
  computeCandidates,
  demoResidents,
  type Criteria,
  type PopulationPoint,
  type Site,
} from '../../server/gateway/location-generator/candidates.ts';
import {
  convexHull,
  distanceMeters,
  grownRing,
  pointInRing,
} from '../../server/gateway/location-generator/geometry.ts';
import { alternate, median, ratioResult, type BenchResult } from './measure.ts';

const COUNTRY = 'PL';
const TARGET_RATIO = 0.25;
const CRITERIA: Criteria = { radius_m: 500, min_distance_m: 400, max_candidates: 200, population_weight: 0.7 };

/**
 * The location generator's candidate computation over a whole country (issue 29.4): every address of the
 * demo country's index a candidate inside one area drawn around the country (its addresses' hull), its
 * residents, one existing service point for every 40 addresses and one competitor for every 61, 200
 * candidates kept. Baseline: the same scores computed by brute force in the same run (every candidate
 * against every point, no spatial index); the results must be equal.
 */
export async function locationGeneratorBench(runs = 3): Promise<BenchResult> {
  const addresses = demoAddresses([]).filter((address) => address.country === COUNTRY);
  const population: PopulationPoint[] = addresses.map((address) => ({
    address_id: address.address_id,
    latitude: address.latitude,
    longitude: address.longitude,
    residents: demoResidents(address.address_id),
  }));
  const offset = (point: PopulationPoint): Site => ({
    latitude: point.latitude + 0.0002,
    longitude: point.longitude + 0.0002,
  });
  const servicePoints = population.filter((_, index) => index % 40 === 7).map(offset);
  const competitors = population.filter((point) => ((point.address_id * 7919) >>> 0) % 61 === 0).map(offset);
  const ring = grownRing(convexHull(population.map((point) => [point.longitude, point.latitude])), 200);
  const input = { regions: [{ ring }], population, servicePoints, competitors, criteria: CRITERIA };

  let ours: ReturnType<typeof computeCandidates> = [];
  let brute: { address_id: number; score: number }[] = [];
  const times = await alternate(
    runs,
    () => {
      ours = computeCandidates(input);
    },
    () => {
      brute = bruteForce(input.population, servicePoints, competitors, ring);
    },
  );
  const same =
    ours.length === brute.length &&
    ours.every(
      (candidate, index) => candidate.address_id === brute[index].address_id && candidate.score === brute[index].score,
    );
  if (!same) throw new Error('The location generator bench: the indexed and brute-force candidates differ');
  return ratioResult(
    'Location generator: candidates of a country',
    median(times.ours),
    median(times.baseline),
    TARGET_RATIO,
    [
      `${population.length} addresses of ${COUNTRY} as candidates, ${servicePoints.length} service points, ${competitors.length} competitors, ${ours.length} candidates kept; median of ${runs}.`,
      'Baseline: the same scores by brute force (every candidate against every point), results checked equal.',
    ],
  );
}

function bruteForce(
  population: PopulationPoint[],
  servicePoints: Site[],
  competitors: Site[],
  ring: [number, number][],
) {
  const { radius_m: radius, min_distance_m: minimum, population_weight: weight } = CRITERIA;
  const nearest = (point: PopulationPoint, sites: Site[]) => {
    let best: number | null = null;
    for (const site of sites) {
      const d = distanceMeters(point.latitude, point.longitude, site.latitude, site.longitude);
      if (d <= 3000 && (best === null || d < best)) best = d;
    }
    return best;
  };
  const eligible = population
    .filter((point) => pointInRing([point.longitude, point.latitude], ring))
    .map((point) => {
      const sp = nearest(point, servicePoints);
      if (sp !== null && sp < minimum) return undefined;
      let served = 0;
      for (const other of population) {
        if (distanceMeters(point.latitude, point.longitude, other.latitude, other.longitude) <= radius)
          served += other.residents;
      }
      return { point, served, competitor: nearest(point, competitors) };
    })
    .filter((site) => site !== undefined);
  const most = Math.max(1, ...eligible.map((site) => site.served));
  const scored = eligible
    .map((site) => ({
      point: site.point,
      score:
        100 *
        (weight * (site.served / most) +
          (1 - weight) * (site.competitor === null ? 1 : Math.min(site.competitor / radius, 1))),
    }))
    .sort((a, b) => b.score - a.score || a.point.address_id - b.point.address_id);
  const taken: { address_id: number; score: number; point: PopulationPoint }[] = [];
  for (const site of scored) {
    if (taken.length >= CRITERIA.max_candidates) break;
    if (
      taken.some(
        (other) =>
          distanceMeters(site.point.latitude, site.point.longitude, other.point.latitude, other.point.longitude) <
          minimum,
      )
    )
      continue;
    taken.push({ address_id: site.point.address_id, score: Number(site.score.toFixed(2)), point: site.point });
  }
  return taken;
}
