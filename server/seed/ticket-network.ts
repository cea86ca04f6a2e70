import type { Ticket } from '../../src/types/generated/ticket.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import { OPEN_STATUSES, SERVICE_EVENT_TYPE, TICKET_TYPE, ticketBadge } from '../../src/schema/ticket-badge.ts';
import { maintenanceProviders } from './network-data.ts';
import { seededRandom } from './random.ts';
import { HardwareStatus, ServicePointStatus, TicketStatus } from '../../src/types/generated/codes.ts';

/**
 * The demo network's maintenance tickets and the operators they are assigned to: every type, status,
 * verification and badge, over the demo service points' units and PIN pads, with SLAs past and to
 * come. Pure and deterministic (its own seeded generator, dates relative to `now`), and consistent
 * with the ticket rules: open install tickets name planned units, open uninstall tickets installed ones,
 * at most one open PIN pad ticket per service point, none created for a parked service point.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Maintenance operators per provider. */
const OPERATORS_PER_PROVIDER = 6;
const OPERATOR_NAMES = [
  'Anna Berg',
  'Jonas Lind',
  'Maja Holm',
  'Piotr Nowak',
  'Elin Dahl',
  'Kasper Friis',
  'Sofia Aalto',
  'Mikkel Juhl',
  'Ola Nordmann',
  'Zofia Wiśniewska',
  'Lars Øster',
  'Ines Sørensen',
];
const CODE_PREFIX: Record<number, string> = { 1: 'FIX', 2: 'NFC' };

/** Ticket event types about one compartment: a ticket of these names the faulty compartment. */
const COMPARTMENT_FAULT = 610;
const DOOR_JAMMED = 620;

/** The event types of `webtool/lists?type=ticket_events`; 630 is a periodic service visit. */
export const TICKET_EVENTS: [number, string][] = [
  [COMPARTMENT_FAULT, 'Compartment fault'],
  [DOOR_JAMMED, 'Door jammed'],
  [SERVICE_EVENT_TYPE, 'Periodic service'],
  [640, 'Display fault'],
  [650, 'Power failure'],
  [660, 'Connectivity lost'],
  [670, 'Vandalism'],
  [680, 'Parcel stuck'],
];
export const JOB_TYPES = [
  'Repair',
  'Compartment inspection',
  'Cleaning',
  'Part replacement',
  'Installation',
  'Removal',
];
export const ERROR_TYPES = ['Mechanical', 'Electrical', 'Software', 'Network', 'Damage', 'Unknown'];

export interface TicketSeedServicePoint {
  service_point_id: number;
  name: string;
  status: number;
  parked?: boolean;
  maintenance_provider_id?: number;
  support_provider_id?: number;
}

export interface TicketSeedUnit {
  hardware_id?: number;
  name: string;
  service_point_id?: number | null;
  status?: number;
  warranty_expiry_badge?: number;
}

export interface TicketSeedPad {
  pinpad_id?: number;
  ble_chip_id: string;
  service_point_id?: number | null;
  hardware_id?: number | null;
}

export interface TicketSeedCompartment {
  compartment_id: number;
  hardware_id: number;
  is_faulty?: boolean;
  is_occupied?: boolean;
  piece_id?: string | null;
}

export interface SeedOperator {
  operator_id: number;
  maintenance_operator_id: string;
  name: string;
  maintenance_provider_id: number;
  sp_id: number | null;
  active: boolean;
}

export function buildOperators(servicePoints: TicketSeedServicePoint[]): SeedOperator[] {
  const operators: SeedOperator[] = [];
  for (const provider of maintenanceProviders) {
    const home = servicePoints.filter(
      (point) => point.maintenance_provider_id === provider.id && point.status === ServicePointStatus.Active,
    );
    for (let n = 1; n <= OPERATORS_PER_PROVIDER; n += 1) {
      const id = operators.length + 1;
      operators.push({
        operator_id: id,
        maintenance_operator_id: `${CODE_PREFIX[provider.id] ?? 'MOP'}-${String(n).padStart(3, '0')}`,
        name: OPERATOR_NAMES[(id - 1) % OPERATOR_NAMES.length],
        maintenance_provider_id: provider.id,
        sp_id: home[n * 7]?.service_point_id ?? null,
        // One operator per provider has left: the quick actions offer active operators only.
        active: n !== OPERATORS_PER_PROVIDER,
      });
    }
  }
  return operators;
}

export function buildTicketNetwork(
  input: {
    servicePoints: TicketSeedServicePoint[];
    units: TicketSeedUnit[];
    pinpads: TicketSeedPad[];
    compartments: TicketSeedCompartment[];
    /** The couriers who may report a fault (courier tickets), with their carrier's name. */
    couriers: { code: string; carrier: string }[];
  },
  now: Date,
) {
  const random = seededRandom(20261215);
  const isoDay = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  const isoTime = (days: number) => new Date(now.getTime() + days * DAY_MS).toISOString();
  const points = new Map(input.servicePoints.map((point) => [point.service_point_id, point]));
  const operators = buildOperators(input.servicePoints);
  const operatorsOf = (provider: number | undefined) =>
    operators.filter((operator) => operator.maintenance_provider_id === provider && operator.active);
  const reporter = (byCourier: boolean, provider: number | undefined) => {
    if (byCourier && input.couriers.length) {
      const courier = random.pick(input.couriers);
      return { reported_by: courier.code, reported_by_kind: 'courier' as const, reported_by_name: courier.carrier };
    }
    const team = operators.filter((operator) => operator.maintenance_provider_id === provider);
    // One draw either way, so that the tickets' other random values stay as they were.
    if (!team.length)
      return { reported_by: `U${random.int(10_000, 99_999)}`, reported_by_kind: null, reported_by_name: null };
    const operator = random.pick(team);
    return {
      reported_by: operator.maintenance_operator_id,
      reported_by_kind: 'operator' as const,
      reported_by_name: operator.name,
    };
  };
  const faulty = new Map<number, number>();
  const holding = new Set<number>();
  for (const compartment of input.compartments) {
    if (compartment.is_faulty && !faulty.has(compartment.hardware_id)) {
      faulty.set(compartment.hardware_id, compartment.compartment_id);
    }
    if (compartment.is_occupied || compartment.piece_id) holding.add(compartment.hardware_id);
  }
  const usable = (unit: TicketSeedUnit) => {
    const point = points.get(Number(unit.service_point_id));
    return point && !point.parked ? point : undefined;
  };
  const installed = input.units.filter(
    (unit) => (unit.status === HardwareStatus.Installed || unit.status === HardwareStatus.Active) && usable(unit),
  );
  const planned = input.units.filter((unit) => unit.status === HardwareStatus.Assigned && usable(unit));

  const tickets: Ticket[] = [];
  const withOpenTicket = new Set<number>();
  const pinpadTicketAt = new Set<number>();

  /** A status and verification that the rules allow together, weighted as a real backlog looks; open never closes. */
  const statusAndVerification = (open: boolean): [1 | 2 | 3 | 4, 0 | 1 | 2 | 3 | 4] => {
    if (!open) return [2, random.pick([1, 1, 1, 0, 2] as const)];
    const status = random.pick([1, 1, 1, 1, 1, 3, 3, 4] as const);
    const verification =
      status === TicketStatus.OnHold
        ? random.pick([0, 1, 1, 2, 3] as const)
        : random.pick([0, 0, 1, 1, 1, 2, 3, 4] as const);
    return [status, verification];
  };

  function add(ticket: Omit<Ticket, 'ticket_id' | 'badge'>, point: TicketSeedServicePoint, open: boolean) {
    const [status, verification] = statusAndVerification(open);
    const ageDays = random.int(0, 75);
    const createdAt = isoTime(-ageDays - random.next());
    // SLAs of two to seven days: the older open tickets are past theirs.
    const slaDate = isoDay(-ageDays + random.int(2, 7));
    const provider = random.chance(0.9)
      ? point.maintenance_provider_id
      : random.pick(maintenanceProviders.map((p) => p.id));
    const team = operatorsOf(provider);
    const operator = team.length && random.chance(0.75) ? random.pick(team) : undefined;
    const deadline = random.chance(0.5) ? isoDay(random.int(status === TicketStatus.Closed ? -40 : 1, 30)) : undefined;
    const full: Ticket = {
      ...ticket,
      ticket_id: tickets.length + 1,
      sp_name: point.name,
      status,
      ticket_verification_status: verification,
      support_provider_id: point.support_provider_id ?? null,
      maintenance_provider_id: provider ?? null,
      maintenance_operator_id: operator?.operator_id ?? null,
      operator_name: operator?.name ?? null,
      maintenance_operator_code: operator?.maintenance_operator_id ?? null,
      sla_date: status === TicketStatus.OnHold ? null : slaDate,
      sla_date_held: status === TicketStatus.OnHold ? slaDate : null,
      ...(deadline && { deadline_date: deadline, deadline_time: random.pick(['08:00', '10:30', '13:00', '16:00']) }),
      job_type: ticket.job_type ?? random.int(1, 4),
      error_type: ticket.error_type ?? random.int(1, ERROR_TYPES.length),
      // A courier ticket is reported by a courier (its code), any other by one of the provider's operators (issue 24).
      ...reporter(ticket.ticket_type === TICKET_TYPE.courier, provider),
      warranty_status: random.pick([1, 2, 2, 3] as const),
      created_at: createdAt,
      closed_at: status === TicketStatus.Closed ? isoTime(-random.int(0, ageDays)) : null,
      photos: [],
    };
    tickets.push({ ...full, badge: ticketBadge(full) });
    return full;
  }

  const descriptions: Record<number, string[]> = {
    610: ['Compartment door does not open', 'Compartment sensor reports a wrong state'],
    620: ['Door jammed after a delivery', 'Door stuck half open'],
    [SERVICE_EVENT_TYPE]: ['Quarterly service visit', 'Yearly inspection and cleaning'],
    640: ['Display is black', 'Touch screen does not react'],
    650: ['Locker without power since the night', 'Power supply trips'],
    660: ['No heartbeat for two days', 'SIM card lost its network'],
    670: ['Front panel scratched and dented', 'Graffiti on the side panel'],
    680: ['Parcel stuck behind the door', 'Parcel too large for its compartment'],
  };

  // Maintain tickets, a service visit among them, on installed units (some on a faulty compartment).
  for (const unit of installed.filter((_, index) => index % 9 === 0).slice(0, 200)) {
    const point = usable(unit)!;
    const [eventType] = random.chance(0.15) ? TICKET_EVENTS[2] : random.pick(TICKET_EVENTS);
    const compartment =
      eventType === COMPARTMENT_FAULT || eventType === DOOR_JAMMED ? faulty.get(unit.hardware_id!) : undefined;
    const open = random.chance(0.7);
    const ticket = add(
      {
        ticket_type: TICKET_TYPE.maintainHardware,
        sp_id: point.service_point_id,
        hardware_unit_id: unit.hardware_id,
        hardware_name: unit.name,
        compartment_id: compartment ?? null,
        event_type: eventType,
        description: random.pick(descriptions[eventType]),
        warranty_expiry_badge: (unit.warranty_expiry_badge ?? 1) as 1 | 2 | 3,
        ...(random.chance(0.3) && { internal_notes: 'Spare part ordered from the hardware owner.' }),
      },
      point,
      open,
    );
    if (OPEN_STATUSES.includes(ticket.status!)) withOpenTicket.add(unit.hardware_id!);
  }
  // Courier reports.
  for (const unit of installed.filter((_, index) => index % 13 === 5).slice(0, 70)) {
    const point = usable(unit)!;
    add(
      {
        ticket_type: TICKET_TYPE.courier,
        sp_id: point.service_point_id,
        hardware_unit_id: unit.hardware_id,
        hardware_name: unit.name,
        event_type: random.pick([620, 680, 640]),
        description: random.pick(['Courier could not open the locker', 'Courier reports a damaged door']),
        warranty_expiry_badge: (unit.warranty_expiry_badge ?? 1) as 1 | 2 | 3,
      },
      point,
      random.chance(0.6),
    );
  }
  // Uninstall tickets of installed units still holding parcels or not: closing waits for the parcels.
  for (const unit of installed
    .filter((unit, index) => index % 17 === 3 && !withOpenTicket.has(unit.hardware_id!))
    .slice(0, 30)) {
    const point = usable(unit)!;
    add(
      {
        ticket_type: TICKET_TYPE.uninstallHardware,
        sp_id: point.service_point_id,
        hardware_unit_id: unit.hardware_id,
        hardware_name: unit.name,
        job_type: 6,
        description: holding.has(unit.hardware_id!)
          ? 'Remove the unit once its parcels are collected'
          : 'Remove the unit',
        warranty_expiry_badge: (unit.warranty_expiry_badge ?? 1) as 1 | 2 | 3,
      },
      point,
      true,
    );
  }
  // Installation tickets: the planned units of a service point, to bring in by van or truck.
  const plannedAt = new Map<number, TicketSeedUnit[]>();
  for (const unit of planned) {
    const key = Number(unit.service_point_id);
    plannedAt.set(key, [...(plannedAt.get(key) ?? []), unit]);
  }
  for (const [servicePointId, units] of [...plannedAt].filter((_, index) => index % 3 === 0).slice(0, 40)) {
    const point = points.get(servicePointId)!;
    const deadline = random.int(10, 45);
    add(
      {
        ticket_type: TICKET_TYPE.install,
        sp_id: servicePointId,
        hardware_unit_ids: units.map((unit) => unit.hardware_id!),
        hardware_name: units.map((unit) => unit.name).join(', '),
        job_type: 5,
        description: `Install ${units.length} unit(s)`,
        installation_deadline: isoDay(deadline),
        earliest_installation_date: isoDay(random.int(1, deadline - 1)),
        vehicle_type: units.length > 2 ? 2 : random.pick([1, 2] as const),
        notes_to_operator: random.pick(['Call the store manager on arrival', 'Access through the loading bay']),
        accessories: random.chance(0.6) ? [random.int(1, 2), 4] : [],
      },
      point,
      true,
    );
  }
  // PIN pad tickets: one open at most per service point.
  for (const pad of input.pinpads.filter((pad) => pad.service_point_id).slice(0, 40)) {
    const point = points.get(Number(pad.service_point_id));
    if (!point || point.parked || pinpadTicketAt.has(point.service_point_id)) continue;
    pinpadTicketAt.add(point.service_point_id);
    const uninstall = random.chance(0.25);
    add(
      {
        ticket_type: uninstall ? TICKET_TYPE.uninstallPinpad : TICKET_TYPE.maintainPinpad,
        sp_id: point.service_point_id,
        pinpad_id: pad.pinpad_id,
        hardware_unit_id: pad.hardware_id ?? null,
        hardware_name: pad.ble_chip_id,
        event_type: uninstall ? null : random.pick([640, 650, 660]),
        description: uninstall ? 'Remove the PIN pad' : 'PIN pad keys do not respond',
      },
      point,
      true,
    );
  }

  return {
    operators: operators.map((operator): NewRecord => ({
      key: String(operator.operator_id),
      partnerType: 'maintenance_provider',
      partnerId: String(operator.maintenance_provider_id),
      doc: { ...operator },
    })),
    tickets: tickets.map((ticket): NewRecord => ({
      key: String(ticket.ticket_id),
      partnerType: 'maintenance_provider',
      partnerId: ticket.maintenance_provider_id === null ? null : String(ticket.maintenance_provider_id),
      doc: Object.fromEntries(Object.entries(ticket).filter(([, value]) => value !== undefined)),
    })),
  };
}
