import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import common from '../../schemas/common.schema.json';
import courier from '../../schemas/courier.schema.json';
import servicePoint from '../../schemas/service-point.schema.json';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { checkFile, importFile, looksLikeFormula, parseCsv } from '../../src/schema/bulk-import.ts';
import { validateRecord } from '../../src/schema/validate.ts';

const registry = createSchemaRegistry([
  common,
  courier,
  servicePoint,
  {
    $id: 'location',
    type: 'object',
    'x-resource': { name: 'locations', endpoint: 'locations', id: 'location_id' },
    required: ['name'],
    properties: {
      location_id: { type: 'integer', readOnly: true },
      name: {
        type: 'string',
        maxLength: 70,
        allOf: [{ format: 'no-period-start' }, { format: 'no-special-characters' }],
        'x-import': { unique: true },
      },
      zip: { type: 'string', minLength: 3, maxLength: 8 },
      units: { type: 'integer', minimum: 1, maximum: 7 },
      carrier_ids: { type: 'array', items: { $ref: 'common#/$defs/id' } },
    },
  },
]);
const couriers = { registry, schemaId: 'courier' };

const csvFile = (content: string | Uint8Array, name = 'couriers.csv', type = 'text/csv') =>
  new File([content as BlobPart], name, { type });
const parse = (content: string | Uint8Array, options = couriers) => importFile(csvFile(content), options);

describe('checkFile', () => {
  it('tells the file states from name, type, size and first bytes', () => {
    expect(checkFile(undefined).state).toBe('empty_field');
    expect(checkFile({ name: 'a.xlsx', type: 'application/vnd.ms-excel', size: 3 }).state).toBe('invalid_type');
    expect(checkFile({ name: 'a.csv', type: 'image/png', size: 3 }).state).toBe('invalid_type');
    expect(checkFile({ name: 'a.csv', type: 'text/csv', size: 0 }).state).toBe('empty');
    expect(checkFile({ name: 'a.CSV', type: '', size: 3 }, new TextEncoder().encode('a,b')).state).toBe('uploaded');
    expect(
      checkFile({ name: 'a.csv', type: 'text/csv', size: 5 }, new Uint8Array([0xef, 0xbb, 0xbf, 10, 32])).state,
    ).toBe('empty');
    expect(checkFile({ name: 'a.csv', type: 'text/csv', size: 4 }, new Uint8Array([0xff, 0xfe, 0x61, 0])).state).toBe(
      'invalid_content',
    );
  });
});

describe('importFile', () => {
  it('accepts a UTF-8 BOM', async () => {
    const result = await parse('\uFEFFcarrier_id,code,phone\n1,NP-1,+4512345678\n');
    expect(result.state).toBe('uploaded');
    expect(result.rows).toEqual([
      { line: 2, data: { carrier_id: 1, code: 'NP-1', phone: '+4512345678' }, validity: 'valid', errors: {} },
    ]);
  });

  it('keeps a quoted newline inside one cell and numbers records, not physical lines', async () => {
    const result = await parse('carrier_id,code,phone\n1,"NP\n2",\n1,NP-3,\n');
    expect(result.rows.map((row) => [row.line, row.validity])).toEqual([
      [2, 'invalid'],
      [3, 'valid'],
    ]);
    expect(result.rows[0].errors.code).toMatchObject({ message: 'validation.alphanumeric_hyphen', kind: 'invalid' });
  });

  it('reports Windows-1252 bytes as invalid content, in the first bytes or later', async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('carrier_id,code\n1,K'), 0xf8, 0x62, 10]);
    expect((await parse(latin1)).state).toBe('invalid_content');
    const late = new Uint8Array([
      ...new TextEncoder().encode(`carrier_id,code\n${'1,NP-1\n'.repeat(10_000)}1,K`),
      0xe6,
      10,
    ]);
    const result = await parse(late, { ...couriers, rowLimit: 20_000 } as typeof couriers);
    expect(result).toMatchObject({ state: 'invalid_content', rows: [] });
  });

  it('reports a missing required header and an unknown one', async () => {
    expect(await parse('carrier_id,phone\n1,+4512345678\n')).toMatchObject({
      state: 'header_missing',
      message: 'import.state.header_missing',
      args: { fields: 'code' },
      rows: [],
    });
    expect(await parse('code,colour\nNP-1,red\n')).toMatchObject({
      state: 'header_mismatch',
      args: { fields: 'colour' },
    });
    // The owner field may be left out: the gateway fills it in for a carrier.
    expect((await parse('code\nNP-1\n')).rows[0].validity).toBe('valid');
  });

  it('skips blank rows, before the header too, numbering rows as a spreadsheet does; a repeated header is a mismatch', async () => {
    const result = await parse('\n , \ncarrier_id,code\n1,NP-1\n,\n  \n1,NP-2\n');
    expect(result.state).toBe('uploaded');
    expect(result.counts).toMatchObject({ rows: 2, valid: 2 });
    expect(result.rows.map((row) => row.data.code)).toEqual(['NP-1', 'NP-2']);
    // Numbered as a spreadsheet numbers them: blank rows count.
    expect(result.rows.map((row) => row.line)).toEqual([4, 7]);
    expect(await parse('carrier_id,code,code\n1,NP-1,NP-2\n')).toMatchObject({ state: 'header_mismatch' });
  });

  it('reports a file without rows as empty', async () => {
    expect((await parse('carrier_id,code\n\n ,\n')).state).toBe('empty');
    expect((await parse('\n\n')).state).toBe('empty');
  });

  it('refuses an injected formula and never passes it on', async () => {
    const result = await parse('carrier_id,code,phone\n1,"=HYPERLINK(""http://x"")",+4512345678\n1,NP-2,-1+cmd|calc\n');
    expect(result.rows[0].errors.code).toEqual({ message: 'import.errors.formula', kind: 'invalid_content' });
    expect(result.rows[0].data).not.toHaveProperty('code');
    expect(result.rows[1].errors.phone.kind).toBe('invalid_content');
    expect(result.counts).toMatchObject({ rows: 2, invalid: 2, valid: 0 });
    expect(looksLikeFormula('+45 12 34 56 78')).toBe(false);
    expect(looksLikeFormula('@SUM(A1)')).toBe(true);
    expect(looksLikeFormula('\tx')).toBe(true);
  });

  it('flags repeated unique values per owner, case-insensitively', async () => {
    const result = await parse('carrier_id,code\n1,NP-1\n1,np-1\n2,NP-1\n');
    expect(result.rows.map((row) => row.validity)).toEqual(['valid', 'repeated', 'valid']);
    expect(result.rows[1].errors.code).toEqual({
      message: 'import.errors.repeated',
      args: { line: 2 },
      kind: 'repeated',
    });
    expect(result.counts).toEqual({ rows: 3, valid: 2, invalid: 0, repeated: 1 });
  });

  it('reads a list cell into items of the schema type, through their $ref', async () => {
    const result = await parse('name,carrier_ids\nKiosk,3; 6\nMall,3; x\n', { registry, schemaId: 'location' });
    expect(result.rows[0]).toMatchObject({ validity: 'valid', data: { name: 'Kiosk', carrier_ids: [3, 6] } });
    expect(result.rows[1].errors['carrier_ids.1']).toMatchObject({ kind: 'invalid' });
  });

  it('maps field errors to the spec row error kinds', async () => {
    const result = await parse(
      `name,zip,units\n.Hidden,1234,2\nA&B,12,3\n${'x'.repeat(71)},1234,9\n,1234,1\nFine,1234,abc\n`,
      { registry, schemaId: 'location' },
    );
    const kinds = result.rows.map((row) => Object.fromEntries(Object.entries(row.errors).map(([f, e]) => [f, e.kind])));
    expect(kinds).toEqual([
      { name: 'period_at_start' },
      { name: 'special_characters', zip: 'length' },
      { name: 'length', units: 'invalid' },
      { name: 'missing' },
      { units: 'invalid' },
    ]);
    expect(result.rows[2].errors.name).toMatchObject({ message: 'validation.max_length', args: { max: 70 } });
  });

  it('stops at the row limit without reading the rest of a file', async () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `1,NP-${i}`).join('\n');
    const result = await parse(`carrier_id,code\n${rows}\n`);
    expect(result).toMatchObject({
      state: 'row_limit_exceeded',
      message: 'import.state.row_limit_exceeded',
      args: { count: 5000 },
      rows: [],
    });
    expect((await parse(`carrier_id,code\n${rows.split('\n').slice(0, 5000).join('\n')}`)).counts.valid).toBe(5000);
  });

  it('stops a 1,000,001-row stream soon after the limit, reading it lazily', async () => {
    let generated = 0;
    function* lines() {
      yield 'carrier_id,code\n';
      for (let chunk = 0; chunk < 1000; chunk++) {
        const start = generated;
        generated += chunk === 999 ? 1001 : 1000;
        yield Array.from({ length: generated - start }, (_, i) => `1,NP-${start + i}\n`).join('');
      }
    }
    const stream = Readable.from(lines(), { objectMode: false });
    const started = Date.now();
    const result = await parseCsv(stream, couriers);
    stream.destroy();
    expect(result.state).toBe('row_limit_exceeded');
    expect(generated).toBeLessThan(50_000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('service point files', () => {
  const points = { registry, schemaId: 'service-point' };
  const header = 'name,country,status,latitude,longitude,max_hardware_units,hardware_models';

  it('reads a list cell, flags repeated coordinates and more models than units', async () => {
    const result = await parse(
      [
        header,
        'Kiosk One,NO,1,59.91,10.75,2,Locker 12; Locker 24',
        'Kiosk Two,NO,1,59.91,10.75,2,',
        'Kiosk Three,NO,1,59.92,10.75,1,Locker 12;Locker 24',
      ].join('\n'),
      points,
    );
    expect(result.state).toBe('uploaded');
    const [one, two, three] = result.rows;
    expect(one.validity).toBe('valid');
    expect(one.data.hardware_models).toEqual(['Locker 12', 'Locker 24']);
    expect(two.validity).toBe('repeated');
    expect(two.errors.latitude).toEqual({ message: 'import.errors.repeated', args: { line: 2 }, kind: 'repeated' });
    expect(three.errors.hardware_models).toEqual({ message: 'validation.count_mismatch', kind: 'mismatch' });
  });

  it('applies the field limits of the import: name length and characters, zip, phone, e-mail', async () => {
    const result = await parse(
      [
        `${header},zip,owner_contact_phone,email,address`,
        `${'N'.repeat(71)},NO,1,1,1,1,,123456789,+47 123 456 7890,nope,.Storgata`,
        `Bad#Name,NO,1,2,2,1,,0155,+4712345678,a@b.no,Storgata 1`,
      ].join('\n'),
      points,
    );
    const [long, special] = result.rows;
    expect(long.errors).toMatchObject({
      name: { kind: 'length' },
      zip: { kind: 'length' },
      owner_contact_phone: { kind: 'length' },
      email: { kind: 'invalid' },
      address: { kind: 'period_at_start' },
    });
    expect(special.errors).toEqual({ name: { message: 'validation.name_characters', kind: 'special_characters' } });
  });
});

describe('property: a row marked valid passes validateRecord', () => {
  const cell = fc.oneof(
    fc.string({ maxLength: 25 }),
    fc.constantFrom('NP-1', 'ab', 'A', '=1+1', '+4512345678', '12-34', '1', 'true', 'no', ' ', '.x', 'x-y-z'),
  );
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

  it('holds for generated files', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('1', '2', 'x', ''), cell, cell, cell), { minLength: 1, maxLength: 8 }),
        async (rows) => {
          const csv = `carrier_id,code,phone,active\n${rows.map((row) => row.map(quote).join(',')).join('\n')}\n`;
          const result = await parse(csv);
          for (const row of result.rows.filter((r) => r.validity === 'valid')) {
            expect(validateRecord(registry, 'courier', row.data).valid).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
