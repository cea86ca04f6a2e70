import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import common from '../../schemas/common.schema.json';
import courier from '../../schemas/courier.schema.json';
import servicePoint from '../../schemas/service-point.schema.json';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import {
  importMessages,
  importModel,
  looksLikeFormula,
  parseCsv,
  repeatTracker,
  rowChecker,
  rowErrorKind,
  typedCell,
  validityOf,
  type ImportModel,
  type RowError,
} from '../../src/schema/bulk-import.ts';
import { validateRecord } from '../../src/schema/validate.ts';

/**
 * The import engine was made faster for `npm run bench` (README, Performance). These properties
 * hold the fast code to what it replaced: the oracles below are the former implementations.
 */
const registry = createSchemaRegistry([common, courier, servicePoint]);

const formerLooksLikeFormula = (value: string) =>
  /^[=@\t\r]/.test(value) || (/^[+-]/.test(value) && !/^[+-][\d\s().]*$/.test(value));

function formerTypedCell(type: string | undefined, cell: string): unknown {
  const value = cell.trim();
  if (type === 'array') {
    return value
      .split(';')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : cell;
  if (type === 'boolean') {
    const lower = value.toLowerCase();
    if (['true', '1', 'yes'].includes(lower)) return true;
    if (['false', '0', 'no'].includes(lower)) return false;
  }
  return cell;
}

function formerValidityOf(errors: Record<string, { message: string }>) {
  const messages = Object.values(errors).map((error) => error.message);
  if (!messages.length) return 'valid';
  return messages.every((message) => message === importMessages.repeated) ? 'repeated' : 'invalid';
}

function formerRepeatTracker(model: ImportModel) {
  const seen = new Map<string, number>();
  return (data: Record<string, unknown>, line: number): Record<string, RowError> => {
    const errors: Record<string, RowError> = {};
    const owner = model.ownerFields.map((field) => String(data[field] ?? '')).join('\u0000');
    for (const field of model.unique) {
      const values = [field, ...(model.uniqueWith[field] ?? [])].map((name) => data[name]);
      if (values.some((value) => value === undefined || value === null || String(value).trim() === '')) continue;
      const compared = values.map((value) => String(value).trim().toLowerCase()).join('\u0000');
      const key = `${field}\u0000${owner}\u0000${compared}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, line);
      else errors[field] = { message: importMessages.repeated, args: { line: first }, kind: 'repeated' };
    }
    return errors;
  };
}

/** The row check before rows were arrays of cells validated without a normalising copy. */
function formerCheckRow(schemaId: string, model: ImportModel, cells: Record<string, unknown>, present: string[]) {
  const errors: Record<string, RowError> = {};
  const input: Record<string, unknown> = {};
  for (const [field, raw] of Object.entries(cells)) {
    if (typeof raw === 'string' && formerLooksLikeFormula(raw)) {
      errors[field] = { message: importMessages.formula, kind: 'invalid_content' };
      continue;
    }
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) continue;
    input[field] = typeof raw === 'string' ? formerTypedCell(model.types[field], raw) : raw;
  }
  const result = validateRecord(registry, schemaId, input);
  for (const [field, error] of Object.entries(result.errors)) {
    if (errors[field]) continue;
    if (error.message === 'validation.required' && model.ownerFields.includes(field) && !present.includes(field))
      continue;
    errors[field] = {
      message: error.message,
      ...(error.args && { args: error.args }),
      kind: rowErrorKind(error.message),
    };
  }
  return { data: result.data, errors };
}

const cellText = fc.string({ unit: fc.constantFrom(...'=+-@\t\r .()0123456789aYesNOtruefals;'.split('')) });
const anyValue = fc.oneof(
  cellText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(cellText, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b'), cellText),
);

describe('the import engine after its speed-up', () => {
  it('tells formulas apart as before', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        expect(looksLikeFormula(text)).toBe(formerLooksLikeFormula(text));
      }),
    );
  });

  it('types cells as before', () => {
    const types = fc.constantFrom(undefined, 'string', 'integer', 'number', 'boolean', 'array', 'object');
    fc.assert(
      fc.property(types, cellText, (type, text) => {
        expect(typedCell(type, text)).toEqual(formerTypedCell(type, text));
      }),
    );
  });

  it('judges rows valid, repeated or invalid as before', () => {
    const message = fc.constantFrom(importMessages.repeated, 'validation.required', importMessages.formula);
    const errors = fc.dictionary(fc.constantFrom('name', 'code', '__row'), fc.record({ message }));
    fc.assert(
      fc.property(errors, (map) => {
        expect(validityOf(map)).toBe(formerValidityOf(map));
      }),
    );
  });

  it('finds the same repeated rows as before', () => {
    const model = importModel(registry.model('service-point'));
    const row = fc.record(
      {
        name: fc.constantFrom('Kiosk Oslo', ' kiosk oslo ', 'Mall', '', null, undefined),
        latitude: fc.constantFrom(59.9, '59.9', '59.90', ' 59.9 ', '.5', 0.5, ' ', undefined, 1e21, '1E+21', 'Kiosk'),
        longitude: fc.constantFrom(10.7, 10.75, null, 0, -0, '0', '-0', NaN, 'NaN', Infinity, '-Infinity', -Infinity),
        location_owner_id: fc.constantFrom(1, 2, undefined),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(row, { maxLength: 16 }), (rows) => {
        const now = repeatTracker(model);
        const before = formerRepeatTracker(model);
        rows.forEach((data, index) => expect(now(data, index + 2)).toEqual(before(data, index + 2)));
      }),
    );
  });

  it('checks rows of cells as the former record check did', () => {
    const columns = fc.shuffledSubarray(
      ['name', 'code', 'carrier_id', 'phone', 'active', 'status', 'latitude', 'hardware_models', 'max_hardware_units'],
      { minLength: 1 },
    );
    const cell = fc.oneof(cellText, fc.constantFrom('Kiosk', '3', '59.91', 'yes', 'M1; M2', '+4512345678'));
    fc.assert(
      fc.property(
        fc.constantFrom('courier', 'service-point'),
        columns,
        fc.array(cell, { maxLength: 9 }),
        (schemaId, header, cells) => {
          const model = importModel(registry.model(schemaId));
          const present = header.filter((field) => field !== 'carrier_id');
          const record = Object.fromEntries(header.map((field, index) => [field, cells[index]]));
          expect(rowChecker(registry, schemaId, model, header, present)(cells)).toEqual(
            formerCheckRow(schemaId, model, record, present),
          );
        },
      ),
    );
  });

  it('validates a record exactly as when its input needs normalising', () => {
    const fields = fc.constantFrom('name', 'code', 'carrier_id', 'phone', 'active', 'box_inspection', 'extra');
    fc.assert(
      fc.property(fc.constantFrom('courier', 'service-point'), fc.dictionary(fields, anyValue), (schemaId, data) => {
        // An undefined member is dropped by normalising: the same record, but never the fast path.
        const normalised = validateRecord(registry, schemaId, { ...data, zz_absent: undefined });
        const result = validateRecord(registry, schemaId, data);
        expect(result).toEqual(normalised);
        expect(Object.keys(result.data)).toEqual(Object.keys(normalised.data));
        expect(result.data).not.toBe(data);
      }),
    );
  });
});

describe('rows that do not fit the header, read without a copy per row', () => {
  it('refuses cells past the header and keeps the cells the header names', async () => {
    // papaparse reads a string as it streams a chosen File.
    const result = await parseCsv('carrier_id,code,phone\n1,NP-1,+4512345678,surplus\n1,NP-2\n' as unknown as File, {
      registry,
      schemaId: 'courier',
    });
    const [extra, short] = result.rows;
    expect(extra.data).toEqual({ carrier_id: 1, code: 'NP-1', phone: '+4512345678' });
    expect(extra.errors).toEqual({ __row: { message: 'import.errors.extra_cells', kind: 'invalid' } });
    expect(extra.validity).toBe('invalid');
    expect(short.data).toEqual({ carrier_id: 1, code: 'NP-2' });
    expect(Object.keys(short.data)).not.toContain('__parsed_extra');
  });
});
