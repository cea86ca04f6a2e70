import { seededRandom } from '../../server/seed/random.ts';
import { locationOwners as demoLocationOwners, servicePointOf } from '../../server/seed/network-data.ts';
import { partnerSetup } from '../../server/seed/partner-network.ts';

/**
 * Service points made as the demo seed makes them (server/seed/network-data.ts), in any number and
 * always the same for a given count, so runs on different machines compare.
 */
export function servicePoints(count: number): Record<string, unknown>[] {
  const random = seededRandom(20260505);
  return Array.from({ length: count }, (_, index) => servicePointOf(random, index + 1).doc);
}

/**
 * Location owners as the demo seed sets them up (server/seed/partner-network.ts), in any number: the
 * demo's setups repeated under numbered names, so that a partner list can be measured at its 300 rows.
 */
export function locationOwners(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => {
    const owner = demoLocationOwners[index % demoLocationOwners.length];
    return {
      location_owner_id: index + 1,
      name: `${owner.name} ${index + 1}`,
      active: index % 7 !== 0,
      ...partnerSetup('location_owner', owner),
    };
  });
}
