import { servicePointOf } from '../../server/seed/network-data.ts';
import { seededRandom } from '../../server/seed/random.ts';

/**
 * Service points made as the demo seed makes them (server/seed/network-data.ts), in any number and
 * always the same for a given count, so runs on different machines compare.
 */
export function servicePoints(count: number): Record<string, unknown>[] {
  const random = seededRandom(20260505);
  return Array.from({ length: count }, (_, index) => servicePointOf(random, index + 1).doc);
}
