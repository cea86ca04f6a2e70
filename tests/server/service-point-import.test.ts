import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { ServicePoint } from '../../src/types/generated/service-point.ts';
import { startStack, type Stack } from './support/stack.ts';

let stack: Stack;
let operator: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  operator = await stack.signIn('operator');
  // A copy of the seeded database: minutes on a busy machine, not the 60 s default.
}, 240_000);
afterAll(() => stack.close());

type RowErrors = { index: number; line: number; errors: Record<string, { message: string; args?: object }> }[];

let place = 0;
/** A valid row at a place of its own, so that only what a test changes can be flagged. */
const row = (overrides: Record<string, unknown> = {}) => {
  place += 1;
  return {
    name: `Import Kiosk ${place}`,
    country: 'NO',
    status: 1,
    address: 'Storgata 1',
    zip: '0155',
    city: 'Oslo',
    latitude: 10 + place / 1000,
    longitude: 20,
    max_hardware_units: 2,
    ...overrides,
  };
};

const bulk = (body: Record<string, unknown>) =>
  stack.send(operator, { method: 'POST', path: 'webtool/service_points', body: { opname: 'bulk_import', ...body } });

async function count() {
  const found = await stack.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM records WHERE resource = 'service_points'`,
  );
  return Number(found.rows[0].n);
}

const errorsByLine = (body: Record<string, unknown>) =>
  Object.fromEntries((body.row_errors as RowErrors).map((entry) => [entry.line, entry.errors]));

/** Spec 02 §5 import limits of the service point's text fields, each with a value one too long. */
const LIMITS: [field: string, max: number, tooLong: string][] = [
  ['location_name', 70, 'L'.repeat(71)],
  ['address', 255, 'A'.repeat(256)],
  ['zip', 8, '123456789'],
  ['city', 100, 'C'.repeat(101)],
  ['municipality', 100, 'M'.repeat(101)],
  ['description', 500, 'D'.repeat(501)],
  ['comments', 500, 'N'.repeat(501)],
  ['owner_contact_phone', 15, '+47 1234 5678 90'],
  ['contact_person', 70, 'P'.repeat(71)],
  ['email', 70, `${'e'.repeat(63)}@test.no`],
];

describe('bulk import of service points: the limits of spec 02 §5', () => {
  it('takes every text field at its limit', async () => {
    const full = row({
      name: 'N'.repeat(70),
      location_name: 'L'.repeat(70),
      address: 'A'.repeat(255),
      zip: '12345678',
      city: 'C'.repeat(100),
      // A municipality is one of the country's list now (issue 29), not free text of up to 100 characters.
      municipality: 'Oslo',
      description: 'D'.repeat(500),
      comments: 'N'.repeat(500),
      owner_contact_phone: '+47123456789012',
      contact_person: 'P'.repeat(70),
      email: `${'e'.repeat(62)}@test.no`,
    });
    expect(await bulk({ data: [full], import_from: 'csv' })).toMatchObject({ status: 200, body: { imported: 1 } });
  });

  it.each(LIMITS)(
    'refuses %s past %i characters, naming the limit, and imports nothing',
    async (field, max, tooLong) => {
      const before = await count();
      const answer = await bulk({ data: [row(), row({ [field]: tooLong })], import_from: 'csv' });
      expect(answer.status).toBe(422);
      expect(errorsByLine(answer.body)[3][field]).toEqual({ message: 'validation.max_length', args: { max } });
      expect(await count()).toBe(before);
    },
  );

  it('refuses a zip of 3 characters: the form wants 4 at least, and an imported record must be editable', async () => {
    const answer = await bulk({ data: [row({ zip: '123' })] });
    expect(errorsByLine(answer.body)[2].zip).toEqual({ message: 'validation.min_length', args: { min: 4 } });
  });

  it('flags a name with a leading space or a forbidden character, an address starting with a period', async () => {
    const answer = await bulk({
      data: [row({ name: ' Leading' }), row({ name: 'Bad#Name' }), row({ address: '.Storgata 1' })],
    });
    const errors = errorsByLine(answer.body);
    expect(errors[2].name.message).toBe('validation.name_characters');
    expect(errors[3].name.message).toBe('validation.name_characters');
    expect(errors[4].address.message).toBe('validation.no_period_start');
  });

  it("refuses a municipality that is not in the list of the service point's country", async () => {
    const before = await count();
    const answer = await bulk({ data: [row({ municipality: 'Bergen' }), row({ municipality: 'Atlantis' })] });
    expect(answer.status).toBe(422);
    const errors = errorsByLine(answer.body);
    expect(errors[2]).toBeUndefined();
    expect(errors[3]).toEqual({ municipality: { message: 'validation.unknown_municipality' } });
    expect(await count()).toBe(before);
  });

  it('flags more hardware models than units as a mismatch', async () => {
    const answer = await bulk({
      data: [row({ max_hardware_units: 1, hardware_models: ['Compact 2', 'City 3'] })],
    });
    expect(errorsByLine(answer.body)[2]).toEqual({ hardware_models: { message: 'validation.count_mismatch' } });
  });
});

describe('bulk import of service points: duplicates', () => {
  it('flags a name or coordinates a live service point already has, in any case, with its id', async () => {
    const stored = await stack.db.query<{ key: string; doc: ServicePoint }>(
      `SELECT key, doc FROM records WHERE resource = 'service_points' AND doc->>'is_terminated' = 'false'
       ORDER BY key::int LIMIT 2`,
    );
    const [first, second] = stored.rows;
    const before = await count();
    const answer = await bulk({
      data: [
        row({ name: ` ${first.doc.name.toUpperCase()}`.trim() }),
        row({ latitude: second.doc.latitude, longitude: second.doc.longitude }),
        row({ latitude: second.doc.latitude, longitude: Number(second.doc.longitude) + 0.5 }),
      ],
    });
    expect(answer.status).toBe(422);
    const errors = errorsByLine(answer.body);
    expect(errors[2]).toEqual({ name: { message: 'import.errors.exists', args: { id: Number(first.key) } } });
    expect(errors[3]).toEqual({ latitude: { message: 'import.errors.exists', args: { id: Number(second.key) } } });
    expect(errors[4]).toBeUndefined();
    expect(await count()).toBe(before);
  });

  it('lets a terminated service point free its name and place', async () => {
    const terminated = await stack.db.query<{ doc: ServicePoint }>(
      `SELECT doc FROM records WHERE resource = 'service_points' AND doc->>'is_terminated' = 'true' LIMIT 1`,
    );
    const { name, latitude, longitude } = terminated.rows[0].doc;
    const answer = await bulk({ data: [row({ name, latitude, longitude })] });
    expect(answer).toMatchObject({ status: 200, body: { imported: 1 } });
  });
});

describe('bulk import of service points: the request of spec 02 §7', () => {
  it('validates import_from: a CSV file or a location report', async () => {
    const refused = await bulk({ data: [row()], import_from: 'excel' });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'import_from must be one of: csv, location_report.', message_key: 'gateway.one_of' },
    });
    expect((await bulk({ data: [row()], import_from: 'location_report' })).status).toBe(200);
    expect((await bulk({ data: [row()], import_from: 7 })).status).toBe(400);
  });

  it('imports the new fields as given, as test service points when the toggle is on', async () => {
    const answer = await bulk({
      data: [
        row({
          name: 'Toggle Fields Kiosk',
          tag1: 'Parking',
          tag2: 'City centre',
          delivery_methods: [1, 2],
          delivery_days: [1, 2, 3, 4, 5, 6],
          region_id: 5,
          sub_region_id: 5,
          foundation_id: 2,
          location_type_id: 2,
          time_zone: 'Europe/Oslo',
          wheelchair_accessible: true,
          contract_signed: true,
          description: 'Ved hovedinngangen.',
          description_language: 'nb',
          carriers_access: [1, 2],
        }),
      ],
      import_from: 'csv',
      fileName: 'points.csv',
      is_toggle_enabled: true,
    });
    expect(answer).toMatchObject({ status: 200, body: { imported: 1 } });
    const stored = await stack.db.query<{ doc: ServicePoint }>(
      `SELECT doc FROM records WHERE resource = 'service_points' AND doc->>'name' = 'Toggle Fields Kiosk'`,
    );
    expect(stored.rows[0].doc).toMatchObject({
      test_sp: true,
      tag1: 'Parking',
      delivery_methods: [1, 2],
      delivery_days: [1, 2, 3, 4, 5, 6],
      region_id: 5,
      time_zone: 'Europe/Oslo',
      description_language: 'nb',
      carriers_access: [1, 2],
    });
  });

  it('imports live service points with the toggle off, and refuses an unknown delivery method', async () => {
    const answer = await bulk({ data: [row({ name: 'Toggle Off Kiosk' })], is_toggle_enabled: false });
    expect(answer.status).toBe(200);
    const stored = await stack.db.query<{ test: string }>(
      `SELECT doc->>'test_sp' AS test FROM records WHERE resource = 'service_points' AND doc->>'name' = 'Toggle Off Kiosk'`,
    );
    expect(stored.rows).toEqual([{ test: 'false' }]);
    const none = await bulk({ data: [row({ delivery_methods: [] })] });
    expect(errorsByLine(none.body)[2].delivery_methods.message).toBe('validation.min_items');
  });
});
