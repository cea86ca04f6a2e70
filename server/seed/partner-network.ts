import type { Partner } from './network-data.ts';

/**
 * The partner setups of the demo network (location owners, hardware owners, maintenance, support and
 * hotline providers), each filled in as the operator company's staff would: organization number,
 * contact, address and earnings share within its cap (spec 02 §5). Fixed values, not drawn from the
 * seed's random numbers, so that the service points drawn after the partners stay the same.
 */
type PartnerSetup = {
  organization_number: string;
  contact_person: string;
  phone: string;
  email: string;
  address: string;
  zip: string;
  city: string;
  country_code: 'DK' | 'NO' | 'SE' | 'PL' | 'FI';
  earnings_share?: number;
};

const setups: Record<string, Record<number, PartnerSetup>> = {
  location_owner: {
    1: {
      organization_number: 'DK-29 11 42 05',
      contact_person: 'Mette Lund',
      phone: '+45 33 12 44 10',
      email: 'partners@coopnord.demo.locker.test',
      address: 'Roskildevej 12',
      zip: '2620',
      city: 'Albertslund',
      country_code: 'DK',
      earnings_share: 22.5,
    },
    2: {
      organization_number: 'NO 918 204 117',
      contact_person: 'Ola Berg',
      phone: '+47 22 40 18 30',
      email: 'drift@kiosk24.demo.locker.test',
      address: 'Storgata 5',
      zip: '0155',
      city: 'Oslo',
      country_code: 'NO',
      earnings_share: 18,
    },
    3: {
      organization_number: '556812-4410',
      contact_person: 'Sara Ek',
      phone: '+46 8 550 120 00',
      email: 'sites@fuelstop.demo.locker.test',
      address: 'Hornsgatan 40',
      zip: '11821',
      city: 'Stockholm',
      country_code: 'SE',
      earnings_share: 25,
    },
    4: {
      organization_number: 'PL 525-21-44-901',
      contact_person: 'Anna Nowak',
      phone: '+48 22 110 44 20',
      email: 'najem@citymalls.demo.locker.test',
      address: 'ul. Marszałkowska 104',
      zip: '00-017',
      city: 'Warszawa',
      country_code: 'PL',
      earnings_share: 30,
    },
    5: {
      organization_number: 'FI 0112038-9',
      contact_person: 'Juha Virtanen',
      phone: '+358 9 707 1200',
      email: 'kumppanit@railway.demo.locker.test',
      address: 'Kaivokatu 1',
      zip: '00100',
      city: 'Helsinki',
      country_code: 'FI',
      earnings_share: 12,
    },
  },
  hardware_provider: {
    1: {
      organization_number: 'DK-38 20 11 74',
      contact_person: 'Henrik Dahl',
      phone: '+45 70 20 30 40',
      email: 'service@lockerworks.demo.locker.test',
      address: 'Industrivej 8',
      zip: '8000',
      city: 'Aarhus',
      country_code: 'DK',
      earnings_share: 35,
    },
    2: {
      organization_number: '559011-2231',
      contact_person: 'Lina Holm',
      phone: '+46 31 700 20 00',
      email: 'support@boxtech.demo.locker.test',
      address: 'Lindholmspiren 3',
      zip: '41756',
      city: 'Göteborg',
      country_code: 'SE',
      earnings_share: 40,
    },
    3: {
      organization_number: 'NO 921 330 402',
      contact_person: 'Kari Moe',
      phone: '+47 55 30 20 10',
      email: 'ops@nordlock.demo.locker.test',
      address: 'Kong Oscars gate 20',
      zip: '5017',
      city: 'Bergen',
      country_code: 'NO',
      earnings_share: 28,
    },
  },
  maintenance_provider: {
    1: {
      organization_number: 'DK-41 55 02 18',
      contact_person: 'Jonas Friis',
      phone: '+45 40 11 22 33',
      email: 'dispatch@fixit.demo.locker.test',
      address: 'Vesterbrogade 90',
      zip: '1620',
      city: 'København',
      country_code: 'DK',
      earnings_share: 4.5,
    },
    2: {
      organization_number: 'NO 930 112 554',
      contact_person: 'Ingrid Solberg',
      phone: '+47 91 20 30 40',
      email: 'vakt@nordicfieldcare.demo.locker.test',
      address: 'Trondheimsveien 50',
      zip: '0560',
      city: 'Oslo',
      country_code: 'NO',
      earnings_share: 3,
    },
  },
  support_provider: {
    1: {
      organization_number: '556900-7781',
      contact_person: 'Emma Sjöberg',
      phone: '+46 771 40 40 40',
      email: 'hotline@helpdesknordic.demo.locker.test',
      address: 'Drottninggatan 71',
      zip: '11136',
      city: 'Stockholm',
      country_code: 'SE',
    },
    2: {
      organization_number: 'PL 779-23-10-556',
      contact_person: 'Piotr Zieliński',
      phone: '+48 61 222 33 44',
      email: 'kontakt@callpoint.demo.locker.test',
      address: 'ul. Półwiejska 32',
      zip: '61-888',
      city: 'Poznań',
      country_code: 'PL',
    },
  },
  hotline_provider: {
    1: {
      organization_number: 'DK-35 66 10 02',
      contact_person: 'Camilla Holt',
      phone: '+45 70 10 10 10',
      email: 'vagt@lockerline.demo.locker.test',
      address: 'Amagerbrogade 150',
      zip: '2300',
      city: 'København',
      country_code: 'DK',
    },
    2: {
      organization_number: 'FI 2980114-6',
      contact_person: 'Aino Korhonen',
      phone: '+358 20 690 900',
      email: 'palvelu@pakettipuhelin.demo.locker.test',
      address: 'Hämeenkatu 10',
      zip: '33100',
      city: 'Tampere',
      country_code: 'FI',
    },
    3: {
      organization_number: 'PL 113-28-90-331',
      contact_person: 'Marta Wiśniewska',
      phone: '+48 22 333 90 90',
      email: 'infolinia@paczkofon.demo.locker.test',
      address: 'ul. Grójecka 5',
      zip: '02-019',
      city: 'Warszawa',
      country_code: 'PL',
    },
  },
};

/** The call centres end users reach about their parcels (spec 01 §2.2 /hotline-providers). */
export const hotlineProviders: Partner[] = [
  { id: 1, name: 'LockerLine DK' },
  { id: 2, name: 'PakettiPuhelin' },
  { id: 3, name: 'Paczkofon' },
];

/** The setup fields of one demo partner of a partner type (by its record's endpoint type). */
export function partnerSetup(partnerType: keyof typeof setups | string, partner: Partner): PartnerSetup {
  const setup = setups[partnerType]?.[partner.id];
  if (!setup) throw new Error(`The demo partner ${partnerType} ${partner.id} has no setup.`);
  return setup;
}

/**
 * An administrator for every demo partner that has no README demo user (issue 26 item 6: each partner has
 * one), as the partner page's "Create administrator" would have made them, signed in with the demo
 * password. Hotline providers are no partner type of spec 01 §6, so they have no users.
 */
export function partnerAdminUsers(partners: Record<string, Partner[]>, taken: ReadonlySet<string>) {
  const users: { username: string; email: string; familyName: string; role: string }[] = [];
  for (const [partnerType, list] of Object.entries(partners)) {
    for (const partner of list) {
      const role = `${partnerType}_${partner.id}_admin`;
      if (taken.has(role)) continue;
      const slug = partner.name
        .replace(/Ø/g, 'O')
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9]+/g, '')
        .toLowerCase();
      users.push({ username: `${slug}.admin`, email: `${slug}.admin@demo.locker.test`, familyName: partnerType, role });
    }
  }
  return users;
}
