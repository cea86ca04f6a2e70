import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import type { Location } from '../../src/types/generated/location.ts';
import { startStack, type Stack } from './support/stack.ts';
import { recordsFingerprint } from './support/records-fingerprint.ts';
import { signInAll } from './support/sessions.ts';
import { findRecord, findRecords } from './support/seed-finders.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let fingerprint: Awaited<ReturnType<typeof recordsFingerprint>>;
let municipalityId: number;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier } = await signInAll(stack, ['operator', 'carrier']));
  fingerprint = await recordsFingerprint(stack.db);
  const municipality = await stack.db.query<{ id: number }>(
    `SELECT municipality_id AS id FROM addresses WHERE country = 'DK' AND municipality_id IS NOT NULL LIMIT 1`,
  );
  municipalityId = municipality.rows[0].id;
}, 240_000);
afterAll(() => stack?.close());

type RowErrors = { index: number; line: number; errors: Record<string, { message: string; args?: object }> }[];

let place = 0;
/** A valid row at a place of its own, so that only what a test changes can be flagged. */
const row = (overrides: Record<string, unknown> = {}) => {
  place += 1;
  return {
    name: `Imported Site ${place}`,
    country: 'DK',
    address_1: 'Vesterbrogade 1',
    zip: '1620',
    city: 'København',
    municipality_id: municipalityId,
    location_type_id: 2,
    latitude: 30 + place / 1000,
    longitude: 40,
    ...overrides,
  };
};

const bulk = (body: Record<string, unknown>, session = operator) =>
  stack.send(session, { method: 'POST', path: 'webtool/locations', body: { opname: 'bulk_import', ...body } });

const errorsByLine = (body: Record<string, unknown>) =>
  Object.fromEntries((body.row_errors as RowErrors).map((entry) => [entry.line, entry.errors]));

/** A refused import: 422, its row errors by file line, and not one record or audit entry written. */
async function refusedImport(data: Record<string, unknown>[]) {
  const before = await fingerprint();
  const answer = await bulk({ data, import_from: 'csv' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.body.row_errors).toBeDefined();
  expect(await fingerprint()).toEqual(before);
  return errorsByLine(answer.body);
}

/** Spec 02 §5 import limits of a location's text fields, each with a value one too long. */
const LIMITS: [field: string, max: number, tooLong: string][] = [
  ['name', 70, 'N'.repeat(71)],
  ['address_1', 255, 'A'.repeat(256)],
  ['zip', 8, '123456789'],
  ['city', 100, 'C'.repeat(101)],
  ['description', 500, 'D'.repeat(501)],
  ['comments', 500, 'K'.repeat(501)],
  ['operator_reference', 8, 'OP1234567'],
  ['owner_contact_phone', 15, '+45 1234 5678 90'],
  ['contact_person', 70, 'P'.repeat(71)],
  ['contact_email', 70, `${'e'.repeat(63)}@test.dk`],
  // Named in the file, looked up before the gateway sees them: the cell as the file gave it.
  ['location_type_id', 100, 'T'.repeat(101)],
  ['municipality_id', 100, 'M'.repeat(101)],
  ['country', 100, 'L'.repeat(101)],
];

describe('bulk import of locations: the limits of spec 02 §5', () => {
  it('imports every text field at its limit, as given', async () => {
    const full = row({
      name: 'N'.repeat(70),
      address_1: 'A'.repeat(255),
      zip: '123',
      city: 'C'.repeat(100),
      description: 'D'.repeat(500),
      comments: 'K'.repeat(500),
      operator_reference: 'OP123456',
      owner_contact_phone: '+45123456789012',
      contact_person: 'P'.repeat(70),
      contact_email: `${'e'.repeat(62)}@test.dk`,
    });
    const answer = await bulk({ data: [full, row({ zip: '12345678' })], import_from: 'csv', fileName: 'sites.csv' });
    expect(answer).toMatchObject({ status: 200, body: { imported: 2 } });
    const stored = await findRecord<Location>(stack.db, 'locations', { name: full.name });
    expect(stored.doc).toMatchObject({ ...full, is_rural: false });
    const audit = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM audit_log WHERE resource = 'locations' AND key = $1`,
      [String(stored.doc.location_id)],
    );
    expect(Number(audit.rows[0].n)).toBe(1);
  });

  it.each(LIMITS)(
    'refuses %s past %i characters, naming the limit, and imports nothing',
    async (field, max, tooLong) => {
      const errors = await refusedImport([row(), row({ [field]: tooLong })]);
      expect(errors[2]).toBeUndefined();
      expect(errors[3][field]).toEqual({ message: 'validation.max_length', args: { max } });
    },
  );

  it('refuses a zip of 2 characters (3 at least) and a malformed e-mail or phone', async () => {
    const errors = await refusedImport([
      row({ zip: '12' }),
      row({ contact_email: 'not-an-address' }),
      row({ owner_contact_phone: 'call me' }),
      row({ name: 'Bad#Site' }),
    ]);
    expect(errors[2].zip).toEqual({ message: 'validation.min_length', args: { min: 3 } });
    expect(Object.keys(errors[3])).toEqual(['contact_email']);
    expect(Object.keys(errors[4])).toEqual(['owner_contact_phone']);
    expect(errors[5].name.message).toBe('validation.name_characters');
  });

  it("refuses a municipality of another country than the location's", async () => {
    const norwegian = await stack.db.query<{ id: number }>(
      `SELECT municipality_id AS id FROM addresses WHERE country = 'NO' AND municipality_id IS NOT NULL LIMIT 1`,
    );
    const errors = await refusedImport([row(), row({ municipality_id: norwegian.rows[0].id })]);
    expect(errors[3]).toEqual({ municipality_id: { message: 'validation.unknown_municipality' } });
  });

  it('refuses a row without a name, or with a country not in the list', async () => {
    const errors = await refusedImport([row({ name: undefined }), row({ country: 'XX' })]);
    expect(errors[2].name.message).toBe('validation.required');
    expect(Object.keys(errors[3])).toEqual(['country']);
  });
});

describe('bulk import of locations: duplicates', () => {
  it('flags a name or coordinates repeated in the file, in any case', async () => {
    const first = row();
    const errors = await refusedImport([
      first,
      row({ name: first.name.toUpperCase() }),
      row({ latitude: first.latitude, longitude: first.longitude }),
      row({ latitude: first.latitude, longitude: first.longitude + 0.5 }),
    ]);
    expect(errors[2]).toBeUndefined();
    expect(errors[3].name).toEqual({ message: 'import.errors.repeated', args: { line: 2 } });
    expect(errors[4].latitude).toEqual({ message: 'import.errors.repeated', args: { line: 2 } });
    expect(errors[5]).toBeUndefined();
  });

  it('flags a name or coordinates a stored location already has, with its id', async () => {
    const [first, second] = await findRecords<Location>(
      stack.db,
      'locations',
      `jsonb_typeof(doc->'latitude') = 'number'`,
      {
        orderBy: 'key::int',
        limit: 2,
      },
    );

    const errors = await refusedImport([
      row({ name: first.doc.name.toLowerCase() }),
      row({ latitude: second.doc.latitude, longitude: second.doc.longitude }),
      row(),
    ]);
    expect(errors[2]).toEqual({ name: { message: 'import.errors.exists', args: { id: Number(first.key) } } });
    expect(errors[3]).toEqual({ latitude: { message: 'import.errors.exists', args: { id: Number(second.key) } } });
    expect(errors[4]).toBeUndefined();
  });
});

describe('bulk import of locations: access', () => {
  it('keeps the import to the operator company', async () => {
    const before = await fingerprint();
    const answer = await bulk({ data: [row()] }, carrier);
    expect(answer.status).toBeGreaterThanOrEqual(403);
    expect(answer.status).toBeLessThan(500);
    expect(await fingerprint()).toEqual(before);
  });
});
