import type { MaintenanceOperator } from '../../src/types/generated/maintenance-operator.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import type { Partner } from './network-data.ts';
import { seededRandom } from './random.ts';

/** The code prefix of each demo maintenance provider's operators (FixIt Services: FIX-0001...). */
const CODE_PREFIX: Record<number, string> = { 1: 'FIX', 2: 'NFC' };
const FIRST_NAMES = ['Anna', 'Erik', 'Sofia', 'Lars', 'Maja', 'Jonas', 'Ida', 'Mikkel', 'Ewa', 'Piotr', 'Elin', 'Ola'];
const LAST_NAMES = ['Hansen', 'Lindqvist', 'Nowak', 'Berg', 'Jensen', 'Virtanen', 'Kowalski', 'Dahl', 'Nilsen'];
export const OPERATORS_PER_PROVIDER = 14;

/**
 * The field operators of each demo maintenance provider: most active, a few switched off, each
 * serving some of the service points its provider maintains. Deterministic, with its own generator,
 * so that the rest of the demo network stays the same.
 */
export function demoMaintenanceOperators(
  providers: Partner[],
  servicePoints: { doc: Record<string, unknown> }[],
): NewRecord[] {
  const random = seededRandom(20261125);
  const records: NewRecord[] = [];
  for (const provider of providers) {
    const maintained = servicePoints
      .map((sp) => sp.doc)
      .filter((doc) => doc.maintenance_provider_id === provider.id && doc.status === 7)
      .map((doc) => doc.service_point_id as number);
    for (let n = 1; n <= OPERATORS_PER_PROVIDER; n += 1) {
      const id = records.length + 1;
      const first = FIRST_NAMES[(id * 5) % FIRST_NAMES.length];
      const last = LAST_NAMES[(id * 7) % LAST_NAMES.length];
      const start = random.int(0, Math.max(0, maintained.length - 8));
      const doc: MaintenanceOperator = {
        operator_id: id,
        maintenance_operator_id: `${CODE_PREFIX[provider.id] ?? `MP${provider.id}`}-${String(n).padStart(4, '0')}`,
        name: `${first} ${last}`,
        maintenance_provider_id: provider.id,
        email: `${first}.${last}.${n}@${provider.name.toLowerCase().replace(/[^a-z]+/g, '')}.example`.toLowerCase(),
        phone: `+47 ${random.int(40, 99)} ${random.int(10, 99)} ${random.int(10, 99)} ${random.int(10, 99)}`,
        sp_id: maintained.slice(start, start + random.int(2, 8)),
        active: n % 6 !== 0,
      };
      records.push({
        key: String(id),
        partnerType: 'maintenance_provider',
        partnerId: String(provider.id),
        doc: { ...doc },
      });
    }
  }
  return records;
}
