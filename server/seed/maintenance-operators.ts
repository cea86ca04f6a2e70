import type { MaintenanceOperator } from '../../src/types/generated/maintenance-operator.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import type { Partner } from './network-data.ts';
import { seededRandom } from './random.ts';
import { ServicePointStatus } from '../../src/types/generated/codes.ts';

/** The code prefix of each demo maintenance provider's operators (FixIt Services: FIX-001...). */
const CODE_PREFIX: Record<number, string> = { 1: 'FIX', 2: 'NFC' };
const FIRST_NAMES = ['Anna', 'Erik', 'Sofia', 'Lars', 'Maja', 'Jonas', 'Ida', 'Mikkel', 'Ewa', 'Piotr', 'Elin', 'Ola'];
const LAST_NAMES = ['Hansen', 'Lindqvist', 'Nowak', 'Berg', 'Jensen', 'Virtanen', 'Kowalski', 'Dahl', 'Nilsen'];
/** Enough operators per provider for the list to page (20 a page). */
export const OPERATORS_PER_PROVIDER = 14;

/** An operator the ticket seed assigns tickets to (server/seed/ticket-network.ts): its id, code and name stay. */
interface BaseOperator {
  doc: Record<string, unknown>;
}

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z]+/g, '')
    .toLowerCase();

/**
 * The field operators of each demo maintenance provider: first those the demo tickets are assigned to
 * (their ids, codes and names kept), then more, up to 14 per provider; most active, a few switched off,
 * each with a phone and e-mail and serving some of the service points its provider maintains.
 * Deterministic, with its own generator, so that the rest of the demo network stays the same.
 */
export function demoMaintenanceOperators(
  providers: Partner[],
  servicePoints: { doc: Record<string, unknown> }[],
  base: BaseOperator[] = [],
): NewRecord[] {
  const random = seededRandom(20261125);
  const operators: MaintenanceOperator[] = [];
  let nextId = Math.max(0, ...base.map((operator) => Number(operator.doc.operator_id))) + 1;
  for (const provider of providers) {
    const domain = `${slug(provider.name)}.example`;
    const maintained = servicePoints
      .map((sp) => sp.doc)
      .filter((doc) => doc.maintenance_provider_id === provider.id && doc.status === ServicePointStatus.Active)
      .map((doc) => doc.service_point_id as number);
    const serving = (home: unknown) => {
      const start = random.int(0, Math.max(0, maintained.length - 8));
      const more = maintained.slice(start, start + random.int(2, 7));
      return [...new Set([...(typeof home === 'number' ? [home] : []), ...more])];
    };
    const own = base.filter((operator) => operator.doc.maintenance_provider_id === provider.id);
    for (const operator of own) {
      const name = String(operator.doc.name);
      operators.push({
        operator_id: Number(operator.doc.operator_id),
        maintenance_operator_id: String(operator.doc.maintenance_operator_id),
        name,
        maintenance_provider_id: provider.id,
        email: `${slug(name.split(' ')[0])}.${slug(name.split(' ').at(-1)!)}@${domain}`,
        phone: `+47 ${random.int(40, 99)} ${random.int(10, 99)} ${random.int(10, 99)} ${random.int(10, 99)}`,
        sp_id: serving(operator.doc.sp_id),
        active: operator.doc.active !== false,
      });
    }
    for (let n = own.length + 1; n <= OPERATORS_PER_PROVIDER; n += 1) {
      const id = nextId++;
      const first = FIRST_NAMES[(id * 5) % FIRST_NAMES.length];
      const last = LAST_NAMES[(id * 7) % LAST_NAMES.length];
      operators.push({
        operator_id: id,
        maintenance_operator_id: `${CODE_PREFIX[provider.id] ?? 'MOP'}-${String(n).padStart(3, '0')}`,
        name: `${first} ${last}`,
        maintenance_provider_id: provider.id,
        email: `${slug(first)}.${slug(last)}.${n}@${domain}`,
        phone: `+47 ${random.int(40, 99)} ${random.int(10, 99)} ${random.int(10, 99)} ${random.int(10, 99)}`,
        sp_id: serving(undefined),
        active: n % 5 !== 0,
      });
    }
  }
  return operators
    .sort((a, b) => a.operator_id! - b.operator_id!)
    .map((doc) => ({
      key: String(doc.operator_id),
      partnerType: 'maintenance_provider',
      partnerId: String(doc.maintenance_provider_id),
      doc: { ...doc },
    }));
}
