import { crc32, deflateSync } from 'node:zlib';
import type { Db } from '../db/adapter.ts';
import type { NewRecord } from '../gateway/record-store.ts';
import type { ResourceDefinition } from '../gateway/resource-registry.ts';
import { storeUpload } from '../gateway/uploads.ts';
import type { Location } from '../../src/types/generated/location.ts';
import type { LocationContact } from '../../src/types/generated/location-contact.ts';
import type { LocationProposal } from '../../src/types/generated/location-proposal.ts';
import { ProposalStatus, ServicePointStatus } from '../../src/types/generated/codes.ts';
import { seededRandom } from './random.ts';

/** A small real PNG: a vertical gradient of one hue, so each demo picture looks like a photo placeholder. */
function demoPicture(hue: readonly [number, number, number], width = 64, height = 48) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Array.from({ length: height }, (_, y) => {
    const shade = 0.45 + (0.55 * y) / height;
    const pixel = hue.map((channel) => Math.round(channel * shade));
    return Buffer.from([0, ...Array.from({ length: width }, () => pixel).flat()]);
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const HUES: readonly (readonly [number, number, number])[] = [
  [70, 130, 180],
  [120, 160, 90],
  [200, 140, 60],
  [150, 100, 170],
];

const PROPOSAL_NAMES = ['Entrance', 'Parking lot', 'Side wall', 'Back yard', 'Lobby'];

interface AddressRow {
  address_id: number;
  country: string;
  street: string;
  house_number: string;
  postal_code: string;
  city: string;
  municipality_id: number;
  municipality_name: string;
  latitude: number;
  longitude: number;
}

type Target = (endpoint: string, search?: string[]) => Pick<ResourceDefinition, 'endpoint' | 'search'>;

/**
 * The demo's locations (issue 29): each at an address of the address index, with proposals in every
 * status (the Approved and Ready ones with pictures and a validated address), a contact person, and,
 * for the first few, an Approved proposal already made a service point (an Active one of the seed at
 * the same place), so that deleting that location is refused. Inserted like the rest of the seed;
 * the pictures are stored as uploads of their proposal.
 */
export async function seedLocations(
  db: Db,
  target: Target,
  options: {
    count: number;
    servicePoints: readonly NewRecord[];
    locationOwnerIds: readonly number[];
    modelIds: readonly number[];
  },
) {
  const random = seededRandom(2929);
  // Addresses spread over the whole index (every country and city), one in every `step`.
  const total = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM addresses')).rows[0].n);
  const step = Math.max(1, Math.floor(total / options.count));
  const addresses = (
    await db.query<AddressRow>(
      `SELECT address_id, country, street, house_number, postal_code, city, municipality_id, municipality_name,
              latitude, longitude
       FROM (SELECT *, row_number() OVER (ORDER BY address_id) AS n FROM addresses) AS spread
       WHERE n % $1 = 0 ORDER BY address_id LIMIT $2`,
      [step, options.count],
    )
  ).rows;
  const liveServicePoints = options.servicePoints
    .filter((point) => point.doc.status === ServicePointStatus.Active && point.doc.is_terminated !== true)
    .slice(0, Math.max(1, Math.floor(options.count / 8)));

  const locations: NewRecord[] = [];
  const proposals: NewRecord[] = [];
  const contacts: NewRecord[] = [];
  const pictures: { key: string; count: number; hue: number }[] = [];
  const statuses = Object.values(ProposalStatus);

  addresses.forEach((address, index) => {
    const locationId = index + 1;
    // The first location stays free to change (its proposals all editable); the next ones are in use.
    const linked = index > 0 ? liveServicePoints[index - 1] : undefined;
    const street = `${address.street} ${address.house_number}`;
    const location: Location = {
      location_id: locationId,
      // A location's name takes letters, digits, '_', '-' and spaces only ('ul. Długa' reads 'ul Długa').
      name: `${address.city} ${street}`
        .replace(/[^\p{L}\p{M}\p{Nd}_\- ]/gu, '')
        .replace(/ {2,}/g, ' ')
        .slice(0, 70),
      country: address.country as Location['country'],
      address_1: street,
      zip: address.postal_code,
      city: address.city,
      // The address's place: a location imported at the same coordinates is flagged (spec 02 §5).
      latitude: Number(address.latitude),
      longitude: Number(address.longitude),
      municipality_id: address.municipality_id,
      location_type_id: random.int(1, 7),
      location_owner_id: random.pick(options.locationOwnerIds),
      is_rural: random.chance(0.25),
    };
    locations.push({ key: String(locationId), doc: { ...location } });
    const howMany = linked ? 2 : random.int(1, 3);
    for (let n = 0; n < howMany; n += 1) {
      const proposalId = proposals.length + 1;
      const status = linked && n === 0 ? ProposalStatus.Approved : statuses[(proposalId - 1) % statuses.length];
      const decided = status === ProposalStatus.Approved || status === ProposalStatus.Ready;
      const units = random.int(1, 3);
      const models = [...options.modelIds]
        .sort(() => random.next() - 0.5)
        .slice(0, Math.min(units, options.modelIds.length));
      const place = linked && n === 0 ? linked.doc : undefined;
      const proposal: LocationProposal = {
        proposal_id: proposalId,
        location_id: locationId,
        name: `${PROPOSALS_NAME(n)} ${address.city}`.slice(0, 70),
        status,
        priority: random.int(1, 3) as LocationProposal['priority'],
        max_capacity: Math.min(7, models.length + random.int(0, 2)),
        hardware_models: models as [number, ...number[]],
        position: random.int(1, 2) as LocationProposal['position'],
        foundation_id: random.int(1, 4),
        accessories: random.chance(0.5) ? [random.int(1, 2), 4] : [],
        earliest_installation_date: `2027-0${random.int(1, 4)}-0${random.int(1, 9)}`,
        installation_deadline: `2027-0${random.int(5, 9)}-1${random.int(0, 9)}`,
        scouting_data: random.chance(0.6) ? 'Foot traffic good in the mornings; power socket 10 m away.' : undefined,
        location_description: random.chance(0.5)
          ? `Next to the ${random.pick(['entrance', 'car park', 'ticket hall'])}.`
          : undefined,
        country: (place?.country ?? address.country) as LocationProposal['country'],
        address: String(place?.address ?? street),
        address_id: Number(place?.address_id ?? address.address_id),
        zip: String(place?.zip ?? address.postal_code),
        city: String(place?.city ?? address.city),
        municipality: String(place?.municipality ?? address.municipality_name),
        latitude: Number(place?.latitude ?? address.latitude),
        longitude: Number(place?.longitude ?? address.longitude),
        photos: [],
        used: place !== undefined,
        ...(place && { service_point_id: Number(place.service_point_id) }),
      };
      if (!decided && random.chance(0.5)) {
        delete proposal.latitude;
        delete proposal.longitude;
      }
      proposals.push({ key: String(proposalId), doc: { ...proposal } });
      if (decided || random.chance(0.4))
        pictures.push({ key: String(proposalId), count: random.int(1, 3), hue: proposalId });
    }
    contacts.push({
      key: String(contacts.length + 1),
      doc: {
        contact_id: contacts.length + 1,
        location_id: locationId,
        name: `${random.pick(['Anna', 'Jonas', 'Maria', 'Piotr', 'Sofie', 'Lars'])} ${random.pick(['Berg', 'Nowak', 'Holm', 'Dahl', 'Popescu'])}`,
        phone: `+45${random.int(20000000, 99999999)}`,
        email: `site${locationId}@demo.locker.test`,
        proposal_id: proposals.length - howMany + 1,
      } satisfies LocationContact,
    });
  });

  const proposalTarget = target('locations/proposals', ['name', 'address', 'city']);
  for (const picture of pictures) {
    const proposal = proposals[Number(picture.key) - 1];
    const photos = [];
    for (let n = 0; n < picture.count; n += 1) {
      const content = demoPicture(HUES[(picture.hue + n) % HUES.length]);
      const stored = await storeUpload(db, {
        resource: proposalTarget as ResourceDefinition,
        key: picture.key,
        field: 'photos',
        fileName: `site-${picture.key}-${n + 1}.png`,
        contentType: 'image/png',
        extension: 'png',
        content,
        createdBy: 'seed',
      });
      photos.push({
        photo_id: stored.name.replace(/\.\w+$/, ''),
        url: stored.url,
        file_name: `site-${picture.key}-${n + 1}.png`,
        content_type: 'image/png',
        size: content.length,
      });
    }
    proposal.doc = { ...proposal.doc, photos };
  }
  return { locations, proposals, contacts };
}

const PROPOSALS_NAME = (n: number) => PROPOSAL_NAMES[n % PROPOSAL_NAMES.length];
