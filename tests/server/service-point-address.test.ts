import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';

let stack: Stack;
let operator: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
});
afterAll(() => stack.close());

interface Suggestion {
  address_id: number;
  label: string;
  address: string;
  street: string;
  house_number: string;
  postal_code: string;
  city: string;
  country: string;
  municipality_id: number;
  municipality_name: string;
  latitude: number;
  longitude: number;
}

const suggest = (query: Record<string, string>) =>
  stack.send(operator, { method: 'GET', path: 'webtool/service_points', query: { opname: 'address', ...query } });

async function suggestions(query: Record<string, string>) {
  const answer = await suggest(query);
  expect(answer.status).toBe(200);
  return answer.body.data as Suggestion[];
}

const create = (body: Record<string, unknown>) =>
  stack.send(operator, { method: 'POST', path: 'webtool/service_points', body });
const patch = (body: Record<string, unknown>) =>
  stack.send(operator, { method: 'PATCH', path: 'webtool/service_points', body });

async function storedServicePoint(id: number | string) {
  const rows = await stack.db.query<{ doc: Record<string, unknown>; version: number }>(
    `SELECT doc, version FROM records WHERE resource = 'service_points' AND key = $1`,
    [String(id)],
  );
  return rows.rows[0];
}

/** A new service point at the picked address, as the form sends it. */
const newServicePoint = (address: Suggestion, overrides: Record<string, unknown> = {}) => ({
  name: 'Address Kiosk',
  status: 1,
  country: address.country,
  address: address.address,
  zip: address.postal_code,
  city: address.city,
  municipality: address.municipality_name,
  latitude: address.latitude,
  longitude: address.longitude,
  address_id: address.address_id,
  delivery_methods: [1],
  ...overrides,
});

describe('address suggestions', () => {
  it('finds the street by the start of its name, accents and case aside, within the country', async () => {
    const found = await suggestions({ text: 'NORREGADE 1', boundary: 'dk' });
    expect(found.length).toBe(10);
    expect(found[0]).toMatchObject({ street: 'Nørregade', house_number: '1', country: 'DK' });
    expect(found.every((s) => s.country === 'DK' && s.street === 'Nørregade')).toBe(true);
    expect(found[0].label).toBe(`Nørregade 1, ${found[0].postal_code} ${found[0].city}`);
    expect(Object.keys(found[0])).toEqual(
      expect.arrayContaining(['address_id', 'label', 'city', 'latitude', 'longitude', 'postal_code']),
    );
    expect(Object.keys(found[0])).toEqual(
      expect.arrayContaining(['municipality_id', 'municipality_name', 'region_id']),
    );

    const polish = await suggestions({ text: 'dluga 7 gdansk', boundary: 'PL' });
    expect(polish[0]).toMatchObject({ street: 'ul. Długa', house_number: '7', city: 'Gdańsk' });
    expect(polish.map((s) => s.house_number).slice(0, 3)).toEqual(['7', '70', '71']);
    expect(polish.every((s) => s.city === 'Gdańsk' && s.house_number.startsWith('7'))).toBe(true);
  });

  it('ranks a street before a zip before a city, and a number typed narrows the street', async () => {
    // "Turku" is a Finnish city; no street begins with it, so every suggestion is in Turku.
    const byCity = await suggestions({ text: 'turku', boundary: 'FI' });
    expect(byCity.length).toBe(10);
    expect(byCity.every((s) => s.city === 'Turku')).toBe(true);

    const byZip = await suggestions({ text: '8000', boundary: 'DK' });
    expect(byZip.every((s) => s.postal_code === '8000' && s.city === 'Aarhus')).toBe(true);

    const byStreet = await suggestions({ text: 'storgata 12', boundary: 'NO' });
    expect(byStreet.map((s) => s.address)).toEqual(expect.arrayContaining(['Storgata 12']));
    expect(byStreet.every((s) => s.address.startsWith('Storgata 12'))).toBe(true);
  });

  it('keeps to a box on the map, nearest its centre first, and without text lists what is near', async () => {
    const [first] = await suggestions({ text: 'vestergade 90', boundary: 'DK' });
    const box = [first.latitude - 0.002, first.longitude - 0.003, first.latitude + 0.002, first.longitude + 0.003];
    const near = await suggestions({ text: '', boundary: box.join(',') });
    expect(near.length).toBeGreaterThan(0);
    expect(near[0].address_id).toBe(first.address_id);
    for (const s of near) {
      expect(s.latitude).toBeGreaterThanOrEqual(box[0]);
      expect(s.latitude).toBeLessThanOrEqual(box[2]);
      expect(s.longitude).toBeGreaterThanOrEqual(box[1]);
      expect(s.longitude).toBeLessThanOrEqual(box[3]);
    }
    const farAway = await suggestions({ text: 'vestergade', boundary: '10,10,11,11' });
    expect(farAway).toEqual([]);
  });

  it('answers 400 for a malformed boundary, a text too long, or neither text nor box', async () => {
    for (const boundary of ['DNK', '1,2,3', '56,12,55,13', 'a,b,c,d', '91,0,92,1', '55,181,56,182']) {
      const answer = await suggest({ text: 'vest', boundary });
      expect(answer.status, boundary).toBe(400);
      expect(String(answer.body.message)).toContain('boundary');
    }
    expect((await suggest({ text: 'x'.repeat(101), boundary: 'DK' })).status).toBe(400);
    expect((await suggest({ text: ' ', boundary: 'DK' })).status).toBe(400);
  });

  it('answers fast on the demo index', async () => {
    await suggestions({ text: 'a', boundary: 'SE' });
    const started = performance.now();
    for (const text of ['k', 'kungs', 'drottninggatan 1', '411', 'malmo']) await suggestions({ text, boundary: 'SE' });
    const each = (performance.now() - started) / 5;
    expect(each).toBeLessThan(250);
  });
});

describe('the demo network', () => {
  it('names the indexed address of every demo service point', async () => {
    const unmatched = await stack.db.query(
      `SELECT r.key FROM records r LEFT JOIN addresses a ON a.address_id = (r.doc->>'address_id')::int
       WHERE r.resource = 'service_points' AND (a.address_id IS NULL
         OR r.doc->>'zip' <> a.postal_code OR r.doc->>'city' <> a.city
         OR r.doc->>'address' <> a.street || ' ' || a.house_number)`,
    );
    expect(unmatched.rows).toEqual([]);
    const count = await stack.db.query<{ n: string }>('SELECT count(*) AS n FROM addresses');
    expect(Number(count.rows[0].n)).toBeGreaterThan(10000);
  });
});

describe('address must be validated', () => {
  it('creates a service point at a picked address, with its coordinates', async () => {
    const [picked] = await suggestions({ text: 'kungsgatan 33', boundary: 'SE' });
    const answer = await create(newServicePoint(picked));
    expect(answer.status).toBe(201);
    const saved = await storedServicePoint((answer.body.data as { service_point_id: number }).service_point_id);
    expect(saved.doc).toMatchObject({ address_id: picked.address_id, address: 'Kungsgatan 33' });
  });

  it('refuses an empty address, an address not picked, one edited after picking, and missing coordinates', async () => {
    const [picked] = await suggestions({ text: 'mannerheimintie 5', boundary: 'FI' });
    const before = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records WHERE resource = 'service_points'`,
    );

    const empty = await create(newServicePoint(picked, { address: undefined, address_id: undefined }));
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({
      message: 'Please enter address',
      errors: { address: { message: 'service_points.map.enter_address' } },
    });

    const typed = await create(newServicePoint(picked, { address_id: undefined }));
    expect(typed.status).toBe(422);
    expect(typed.body.errors).toEqual({ address: { message: 'validation.invalid_address' } });

    const edited = await create(newServicePoint(picked, { address: 'Mannerheimintie 6' }));
    expect(edited.status).toBe(422);
    expect(edited.body.errors).toEqual({ address: { message: 'validation.invalid_address' } });

    const otherCity = await create(newServicePoint(picked, { city: 'Tampere', zip: '33100' }));
    expect(otherCity.status).toBe(422);

    const unknownId = await create(newServicePoint(picked, { address_id: 999 }));
    expect(unknownId.status).toBe(422);

    const noCoordinates = await create(newServicePoint(picked, { latitude: undefined, longitude: undefined }));
    expect(noCoordinates.status).toBe(422);
    expect(noCoordinates.body).toMatchObject({
      message: 'Please select coordinates on the map',
      errors: { latitude: { message: 'service_points.map.select_coordinates' } },
    });

    const after = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM records WHERE resource = 'service_points'`,
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('checks an edit of the address again, but not an edit of anything else', async () => {
    const existing = await storedServicePoint(3);
    const note = await patch({ service_point_id: 3, version: existing.version, comments: 'Back door' });
    expect(note.status).toBe(200);

    const typed = await patch({ service_point_id: 3, version: existing.version + 1, address: 'Somewhere 1' });
    expect(typed.status).toBe(422);
    expect(typed.body.errors).toEqual({ address: { message: 'validation.invalid_address' } });

    const country = String(existing.doc.country);
    const [picked] = await suggestions({ text: String(existing.doc.city), boundary: country });
    const moved = await patch({
      service_point_id: 3,
      version: existing.version + 1,
      address: picked.address,
      zip: picked.postal_code,
      city: picked.city,
      address_id: picked.address_id,
      latitude: picked.latitude,
      longitude: picked.longitude,
    });
    expect(moved.status).toBe(200);
    expect((await storedServicePoint(3)).doc).toMatchObject({ address_id: picked.address_id, address: picked.address });

    const current = await storedServicePoint(3);
    const lost = await patch({ service_point_id: 3, version: current.version, latitude: null, longitude: null });
    expect(lost.status).toBe(422);
    expect(lost.body.errors).toEqual({ latitude: { message: 'service_points.map.select_coordinates' } });
  });

  it('imports a row at an indexed address with its address_id, and one elsewhere without', async () => {
    const [picked] = await suggestions({ text: 'hameenkatu 20 tampere', boundary: 'FI' });
    const row = (name: string, address: string, zip: string) => ({
      name,
      country: 'FI',
      status: 1,
      address,
      zip,
      city: 'Tampere',
      latitude: 61.5 + name.length / 1000,
      longitude: 23.76,
      max_hardware_units: 1,
    });
    const answer = await stack.send(operator, {
      method: 'POST',
      path: 'webtool/service_points',
      body: {
        opname: 'bulk_import',
        data: [
          row('Imported Indexed', 'Hämeenkatu 20', '33100'),
          row('Imported Elsewhere', 'Pispalan valtatie 9', '33270'),
        ],
      },
    });
    expect(answer.status).toBe(200);
    const rows = await stack.db.query<{ doc: Record<string, unknown> }>(
      `SELECT doc FROM records WHERE resource = 'service_points' AND doc->>'name' LIKE 'Imported %' ORDER BY doc->>'name'`,
    );
    expect(rows.rows.map((r) => [r.doc.name, r.doc.address_id])).toEqual([
      ['Imported Elsewhere', undefined],
      ['Imported Indexed', picked.address_id],
    ]);
  });
});

describe('opening hours', () => {
  it('refuses a closing time before or at the opening time, on that day, and keeps closed days', async () => {
    const existing = await storedServicePoint(4);
    const hours = (tuesday: Record<string, unknown>) => ({
      monday: { closed: false, open: '08:00', close: '17:00' },
      tuesday,
      sunday: { closed: true },
    });
    const early = await patch({
      service_point_id: 4,
      version: existing.version,
      opening_hours: hours({ closed: false, open: '09:00', close: '08:30' }),
    });
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual({ 'opening_hours.tuesday.close': { message: 'validation.time_after' } });
    const same = await patch({
      service_point_id: 4,
      version: existing.version,
      opening_hours: hours({ closed: false, open: '09:00', close: '09:00' }),
    });
    expect(same.status).toBe(422);

    const fine = await patch({
      service_point_id: 4,
      version: existing.version,
      opening_hours: hours({ closed: false, open: '09:00', close: '21:30' }),
    });
    expect(fine.status).toBe(200);
    expect((await storedServicePoint(4)).doc.opening_hours).toEqual(
      hours({ closed: false, open: '09:00', close: '21:30' }),
    );
  });
});
