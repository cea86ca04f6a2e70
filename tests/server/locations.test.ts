import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { png, uploadBody } from '../fixtures/upload-files.ts';
import { gunzipSync } from 'node:zlib';
import { pdfPages } from './support/pdf-text.ts';
import { signInAll } from './support/sessions.ts';
import { findRecord, findRecords, readRecord } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;

interface Suggestion {
  address_id: number;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  municipality_name: string;
  latitude: number;
  longitude: number;
}

type Doc = Record<string, unknown> & { version: number };

const LOCATIONS = 'webtool/locations';
const PROPOSALS = 'webtool/locations/proposals';
const CONTACTS = 'webtool/locations/contacts';

let address: Suggestion;
let models: number[];
let ownerId: number;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
  fingerprint = await recordsFingerprint(stack.db);
  const street = await stack.db.query<{ street: string; country: string }>(
    `SELECT street, country FROM addresses WHERE country = 'DK' ORDER BY address_id LIMIT 1`,
  );
  const found = await stack.send(operator, {
    method: 'GET',
    path: PROPOSALS,
    query: { opname: 'address', text: street.rows[0].street, boundary: 'DK' },
  });
  expect(found.status).toBe(200);
  address = (found.body.data as Suggestion[])[0];
  const modelRows = await findRecords(stack.db, 'hardware_models', { hardware_type: 1 }, { limit: 2 });
  models = modelRows.map((row) => Number(row.key));
  ownerId = Number((await findRecord(stack.db, 'partners/location_owner')).key);
});
afterAll(() => stack?.close());

const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: Record<string, unknown>) =>
  stack.send(
    operator,
    method === 'GET' ? { method, path, query: body as Record<string, string | number> } : { method, path, body },
  );

async function created(path: string, body: Record<string, unknown>) {
  const answer = await send('POST', path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body.data as Doc;
}

/** A refused call: its status, the English catalogue text, and not one record or audit entry written. */
async function refused(call: () => Promise<{ status: number; body: Record<string, unknown> }>, status: number) {
  const before = await fingerprint();
  const answer = await call();
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(await fingerprint()).toEqual(before);
  return answer.body as { message: string; message_key?: string; errors?: Record<string, { message: string }> };
}

const validatedPlace = () => ({
  country: address.country,
  address: address.address,
  address_id: address.address_id,
  zip: address.postal_code,
  city: address.city,
  municipality: address.municipality_name,
  latitude: address.latitude,
  longitude: address.longitude,
});

const newLocation = (name: string) =>
  created(LOCATIONS, { name, country: 'DK', address_1: address.address, location_owner_id: ownerId, is_rural: false });

const newProposal = (locationId: unknown, overrides: Record<string, unknown> = {}) => ({
  location_id: locationId,
  name: 'Kiosk corner',
  status: 1,
  country: 'DK',
  max_capacity: 2,
  hardware_models: [models[0]],
  earliest_installation_date: '2027-03-01',
  installation_deadline: '2027-04-01',
  ...overrides,
});

const picture = (seed: number) =>
  uploadBody(
    png(4, 3, () => [seed * 30, 90, 120]),
    `front-${seed}.png`,
    'image/png',
  );

describe('locations and proposals', () => {
  it('refuses every broken proposal with its message and writes nothing', async () => {
    const location = await newLocation('Harbour Square');
    const id = location.location_id;

    const duplicated = await refused(
      () => send('POST', PROPOSALS, newProposal(id, { hardware_models: [models[0], models[0]] })),
      422,
    );
    expect(duplicated.errors?.hardware_models.message).toBe('validation.duplicate_hardware_model');

    const capacity = await refused(() => send('POST', PROPOSALS, newProposal(id, { max_capacity: 8 })), 422);
    expect(capacity.errors?.max_capacity).toBeDefined();

    const crowded = await refused(
      () => send('POST', PROPOSALS, newProposal(id, { max_capacity: 1, hardware_models: models })),
      422,
    );
    expect(crowded.errors?.hardware_models).toBeDefined();

    const dates = await refused(
      () =>
        send(
          'POST',
          PROPOSALS,
          newProposal(id, { earliest_installation_date: '2027-05-01', installation_deadline: '2027-04-01' }),
        ),
      422,
    );
    expect(dates.errors?.installation_deadline.message).toBe('validation.not_before');

    const nameless = await refused(() => send('POST', PROPOSALS, newProposal(id, { name: undefined })), 422);
    expect(nameless.errors?.name).toBeDefined();
    const modelless = await refused(() => send('POST', PROPOSALS, newProposal(id, { hardware_models: [] })), 422);
    expect(modelless.errors?.hardware_models).toBeDefined();

    // Approved without a picture.
    const approved = await refused(
      () => send('POST', PROPOSALS, newProposal(id, { status: 2, ...validatedPlace() })),
      422,
    );
    expect(approved.errors?.photos.message).toBe('validation.picture_required');
  });

  it('takes at most five pictures of at most 1 MB each, images only', async () => {
    const location = await newLocation('Station Road');
    const proposal = await created(PROPOSALS, newProposal(location.location_id));
    const id = proposal.proposal_id;
    const put = (file: Record<string, unknown>) => send('PUT', PROPOSALS, { proposal_id: id, ...file });

    const text = await refused(() => put(uploadBody('not an image at all', 'notes.png', 'image/png')), 422);
    expect(text.message).toBe('Invalid photo format');

    const big = await refused(() => put(uploadBody(Buffer.alloc(2 * 1024 * 1024, 7), 'big.png', 'image/png')), 422);
    expect(big.message).toBe('Image too large or too many');

    for (let seed = 1; seed <= 5; seed += 1) expect((await put(picture(seed))).status).toBe(200);
    const sixth = await refused(() => put(picture(6)), 422);
    expect(sixth.message).toBe('Image too large or too many');

    const stored = await send('GET', PROPOSALS, { proposal_id: id });
    expect(((stored.body.data as Doc[])[0].photos as unknown[]).length).toBe(5);
  });

  it('sets the coordinates picked on the map (update_latlng), refusing a pick without them', async () => {
    const location = await newLocation('Market Hall');
    const proposal = await created(PROPOSALS, newProposal(location.location_id));
    const missing = await refused(
      () => send('PATCH', LOCATIONS, { opname: 'update_latlng', proposal_id: proposal.proposal_id, latitude: 55.1 }),
      422,
    );
    expect(missing.message).toBe('Please select coordinates on the map');
    const picked = await send('PATCH', LOCATIONS, {
      opname: 'update_latlng',
      proposal_id: proposal.proposal_id,
      latitude: 55.676,
      longitude: 12.568,
    });
    expect(picked.status).toBe(200);
    expect(picked.body.data).toMatchObject({ latitude: 55.676, longitude: 12.568, version: proposal.version + 1 });
  });

  it('uses only an approved proposal as a service point, all in one transaction, and then keeps the location', async () => {
    const location = await newLocation('Central Mall');
    const proposal = await created(PROPOSALS, newProposal(location.location_id, { ...validatedPlace() }));
    const id = proposal.proposal_id;
    const open = await refused(
      () => send('POST', LOCATIONS, { opname: 'create_as_service_point', proposal_id: id }),
      409,
    );
    expect(open.message).toBe('Only an approved proposal can be used as a service point');

    expect((await send('PUT', PROPOSALS, { proposal_id: id, ...picture(1) })).status).toBe(200);
    const current = (await send('GET', PROPOSALS, { proposal_id: id })).body.data as Doc[];
    const approve = await send('PATCH', PROPOSALS, { ...current[0], status: 2 });
    expect(approve.status, JSON.stringify(approve.body)).toBe(200);

    const used = await send('POST', LOCATIONS, { opname: 'create_as_service_point', proposal_id: id });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    const servicePointId = (used.body.data as { service_point_id: number }).service_point_id;
    const servicePoint = await send('GET', 'webtool/service_points', { service_point_id: servicePointId });
    const point = (servicePoint.body.data as Doc[])[0];
    const model = await readRecord(stack.db, 'hardware_models', models[0]);
    expect(point).toMatchObject({
      name: 'Kiosk corner',
      location_name: 'Central Mall',
      status: 3,
      address_id: address.address_id,
      latitude: address.latitude,
      max_hardware_units: 2,
      hardware_models: [model.doc.name],

      location_owner_id: ownerId,
    });
    const after = (await send('GET', PROPOSALS, { proposal_id: id })).body.data as Doc[];
    expect(after[0]).toMatchObject({ used: true, service_point_id: servicePointId });

    const again = await refused(
      () => send('POST', LOCATIONS, { opname: 'create_as_service_point', proposal_id: id }),
      409,
    );
    expect(again.message_key).toBe('catalogue.proposal_used');
    await refused(() => send('PATCH', PROPOSALS, { ...after[0], name: 'Renamed kiosk' }), 409);

    const blocked = await refused(
      () => send('DELETE', LOCATIONS, { location_id: location.location_id, version: location.version }),
      409,
    );
    expect(blocked.message).toBe(
      "Location contains active service point and can only be terminated by the provider's operations",
    );
  });

  it('deletes a location without a live service point with its proposals and contacts', async () => {
    const location = await newLocation('Old Depot');
    const proposal = await created(PROPOSALS, newProposal(location.location_id));
    await created(CONTACTS, { location_id: location.location_id, name: 'Ann Berg', phone: '+4520304050' });
    const removed = await send('DELETE', LOCATIONS, { location_id: location.location_id, version: location.version });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const left = await stack.db.query(
      `SELECT 1 FROM records WHERE (resource = 'locations' AND key = $1)
         OR (resource IN ('locations/proposals', 'locations/contacts') AND doc->>'location_id' = $1)`,
      [String(location.location_id)],
    );
    expect(left.rows).toHaveLength(0);
    expect(proposal.proposal_id).toBeDefined();
  });

  it('keeps one contact per phone number and one contact per proposal', async () => {
    const location = await newLocation('Park Gate');
    const proposal = await created(PROPOSALS, newProposal(location.location_id));
    await created(CONTACTS, {
      location_id: location.location_id,
      name: 'Ole Dam',
      phone: '+4520304060',
      proposal_id: proposal.proposal_id,
    });
    const samePhone = await refused(
      () => send('POST', CONTACTS, { location_id: location.location_id, name: 'Eva Dam', phone: '+45 20 30 40 60' }),
      422,
    );
    expect(samePhone.message).toBe('Contact person already exists with this number');
    const taken = await refused(
      () =>
        send('POST', CONTACTS, {
          location_id: location.location_id,
          name: 'Eva Dam',
          phone: '+4520304070',
          proposal_id: proposal.proposal_id,
        }),
      422,
    );
    expect(taken.message).toBe('Selected proposal already has a contact');
  });

  it('lists municipalities by country and keeps locations to the operator company', async () => {
    const answer = await send('GET', 'webtool/lists', { type: 'municipality', country_iso: 'DK' });
    const items = answer.body.data as { column_id: number; country: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.country === 'DK')).toBe(true);
    // The postal codes, compressed (spec 02 §7), and plain on request; the same list either way.
    const packed = await send('GET', 'webtool/lists', { type: 'postal_codes', country_iso: 'DK' });
    expect(packed.body.compressed).toBe('gzip-base64');
    const codes = JSON.parse(gunzipSync(Buffer.from(packed.body.data as string, 'base64')).toString()) as {
      column_id: string;
      country: string;
    }[];
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code.country === 'DK' && /^\d{4}$/.test(code.column_id))).toBe(true);
    const plain = await send('GET', 'webtool/lists', { type: 'postal_codes', country_iso: 'DK', compressed: 'false' });
    expect(plain.body.data).toEqual(codes);
    expect((await send('GET', 'webtool/lists', { type: 'postal_codes', country_iso: 'Denmark' })).status).toBe(400);
    for (const type of ['location_types', 'foundations', 'accessories', 'hardware_positions']) {
      const list = await send('GET', 'webtool/lists', { type });
      expect((list.body.data as unknown[]).length, type).toBeGreaterThan(0);
    }
    for (const path of [LOCATIONS, PROPOSALS, CONTACTS]) {
      expect((await stack.send(carrier, { method: 'GET', path })).status).toBe(403);
    }
  });
  it('refuses a coordinates pick on a stale proposal (409) and writes nothing', async () => {
    const location = await newLocation('Harbour Gate');
    const proposal = await created(PROPOSALS, newProposal(location.location_id));
    const body = { opname: 'update_latlng', proposal_id: proposal.proposal_id, latitude: 55.7, longitude: 12.5 };
    expect((await send('PATCH', LOCATIONS, { ...body, version: proposal.version })).status).toBe(200);
    await refused(() => send('PATCH', LOCATIONS, { ...body, latitude: 55.8, version: proposal.version }), 409);
  });

  it('makes the location sheet as a real PDF (get_pdf) with its data, proposals and contacts, in French too', async () => {
    const location = await created(LOCATIONS, {
      name: 'Pdf Sheet Corner',
      country: 'DK',
      address_1: address.address,
      zip: '1050',
      city: 'København',
      location_owner_id: ownerId,
      operator_reference: 'OPX42',
      description: 'Beside the bakery',
    });
    const proposal = await created(
      PROPOSALS,
      newProposal(location.location_id, { name: 'Bakery wall', latitude: 55.67, longitude: 12.56 }),
    );
    await created(CONTACTS, {
      location_id: location.location_id,
      name: 'Karen Holm',
      phone: '+4512345678',
      proposal_id: proposal.proposal_id,
    });
    const answer = await send('GET', LOCATIONS, {
      opname: 'get_pdf',
      location_id: location.location_id,
      lang: 'en-US',
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(answer.body).toMatchObject({ content_type: 'application/pdf' });
    expect(answer.body.file_name).toMatch(/^location-\d+-Pdf_Sheet_Corner\.pdf$/);
    const bytes = Buffer.from(answer.body.data as string, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfPages(bytes).join('\n');
    for (const expected of ['Location sheet', 'Pdf Sheet Corner', '1050 København', 'OPX42', 'Beside the bakery']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Proposals (1)');
    expect(text).toContain('Bakery wall');
    expect(text).toContain('Open');
    expect(text).toContain('55.67, 12.56');
    expect(text).toContain('Contacts (1)');
    expect(text).toContain('Karen Holm');
    expect(text).toContain('+4512345678');

    const french = await send('GET', LOCATIONS, { opname: 'get_pdf', location_id: location.location_id, lang: 'fr' });
    const frenchText = pdfPages(Buffer.from(french.body.data as string, 'base64')).join('\n');
    expect(frenchText).toContain("Fiche d'emplacement");
    expect(frenchText).toContain('Ouverte');

    // Only a visible location, by a valid id; a carrier may not print one.
    expect((await send('GET', LOCATIONS, { opname: 'get_pdf', location_id: 'x' })).status).toBe(400);
    expect((await send('GET', LOCATIONS, { opname: 'get_pdf', location_id: 99999999 })).status).toBe(404);
    const query = { opname: 'get_pdf', location_id: String(location.location_id) };
    expect((await stack.send(carrier, { method: 'GET', path: LOCATIONS, query })).status).toBe(403);
  });
});
