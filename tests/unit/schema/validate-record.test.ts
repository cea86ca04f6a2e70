import { describe, expect, it } from 'vitest';
import { toFieldErrors, validateRecord } from '../../../src/schema/validate.ts';
import { errorsOf, registryWith } from './support.ts';

const servicePoint = {
  required: ['name', 'country', 'address'],
  properties: {
    name: {
      type: 'string',
      minLength: 3,
      maxLength: 10,
      allOf: [{ format: 'no-period-start' }, { format: 'no-special-characters' }],
    },
    country: { $ref: 'common#/$defs/countryCode' },
    radius: { type: 'number', minimum: 0.1, maximum: 20 },
    units: { type: 'integer', exclusiveMinimum: 0 },
    photos: { type: 'array', items: { type: 'string' }, maxItems: 2, uniqueItems: true },
    address: {
      type: 'object',
      required: ['address_id'],
      properties: { name: { type: 'string' }, address_id: { type: 'integer' } },
    },
    descriptions: {
      type: 'array',
      items: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 5 } } },
    },
  },
};
const valid = { name: 'Netto', country: 'DK', address: { name: 'Vesterbrogade 1', address_id: 4 } };

describe('validateRecord', () => {
  it('passes a valid record and returns it normalised', () => {
    const result = validateRecord(registryWith(servicePoint), 'test', { ...valid, radius: 5, zip: '   ' });
    expect(result).toEqual({ valid: true, data: { ...valid, radius: 5 }, errors: {} });
  });

  it('puts required errors on the missing field, nested paths dotted', () => {
    const result = validateRecord(registryWith(servicePoint), 'test', { name: 'Netto', address: { name: 'x' } });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual({
      country: { message: 'validation.required' },
      'address.address_id': { message: 'validation.required' },
    });
  });

  it('gives sizes and ranges their limits as arguments', () => {
    expect(errorsOf(servicePoint, { ...valid, name: 'ab', radius: 0, units: 0, photos: ['a', 'b', 'c'] })).toEqual({
      name: { message: 'validation.min_length', args: { min: 3 } },
      radius: { message: 'validation.min', args: { min: 0.1 } },
      units: { message: 'validation.greater_than', args: { min: 0 } },
      photos: { message: 'validation.max_items', args: { max: 2 } },
    });
    expect(errorsOf(servicePoint, { ...valid, name: 'Netto Østerbro', radius: 21, photos: ['a', 'a'] })).toEqual({
      name: { message: 'validation.max_length', args: { max: 10 } },
      radius: { message: 'validation.max', args: { max: 20 } },
      photos: { message: 'validation.unique_items' },
    });
  });

  it('shows one error per field, the most useful one', () => {
    expect(errorsOf(servicePoint, { ...valid, name: '.a' })).toEqual({
      name: { message: 'validation.no_period_start' },
    });
    expect(errorsOf(servicePoint, { ...valid, name: '.Netto Østerbro!' })).toEqual({
      name: { message: 'validation.no_period_start' },
    });
    expect(errorsOf(servicePoint, { ...valid, name: 12, country: 'US' })).toEqual({
      name: { message: 'validation.type' },
      country: { message: 'validation.choice' },
    });
  });

  it('reports array items by index', () => {
    expect(errorsOf(servicePoint, { ...valid, descriptions: [{ text: 'ok' }, { text: 'too long' }, {}] })).toEqual({
      'descriptions.1.text': { message: 'validation.max_length', args: { max: 5 } },
      'descriptions.2.text': { message: 'validation.required' },
    });
  });

  it('lets a PATCH leave out required properties, but not send them empty', () => {
    const registry = registryWith(servicePoint);
    expect(validateRecord(registry, 'test', { radius: 3 }, { partial: true })).toMatchObject({
      valid: true,
      errors: {},
    });
    expect(validateRecord(registry, 'test', { name: '  ', country: null }, { partial: true }).errors).toEqual({
      name: { message: 'validation.required' },
      country: { message: 'validation.required' },
    });
    expect(validateRecord(registry, 'test', { address: { name: 'x' } }, { partial: true }).errors).toEqual({
      'address.address_id': { message: 'validation.required' },
    });
    expect(validateRecord(registry, 'test', { radius: 3 }).errors).toHaveProperty('name');
  });

  it('maps conditional requirements, patterns, item counts and unexpected properties', () => {
    const schema = {
      additionalProperties: false,
      properties: {
        deadline_date: { type: 'string', format: 'date-dmy' },
        deadline_time: { type: 'string', format: 'time' },
        country: { type: 'string' },
        zip: { type: 'string', pattern: '^[0-9]{4}$' },
        methods: { type: 'array', items: { type: 'string' }, minItems: 1 },
        code: { type: 'string', not: { const: 'x' } },
      },
      dependentSchemas: { deadline_time: { properties: { deadline_date: true }, required: ['deadline_date'] } },
      if: { properties: { country: { const: 'DK' } }, required: ['country'] },
      then: { properties: { zip: true }, required: ['zip'] },
    };
    expect(errorsOf(schema, { deadline_time: '10:00', country: 'DK', methods: [], code: 'x', extra: 1 })).toEqual({
      deadline_date: { message: 'validation.required' },
      zip: { message: 'validation.required' },
      methods: { message: 'validation.min_items', args: { min: 1 } },
      code: { message: 'validation.invalid' },
      extra: { message: 'validation.invalid' },
    });
    expect(errorsOf(schema, { country: 'SE', zip: '12a' })).toEqual({ zip: { message: 'validation.format' } });
  });

  it('refuses an unknown schema id', () => {
    expect(() => validateRecord(registryWith(servicePoint), 'nope', {})).toThrow(/nope/);
  });
});

describe('toFieldErrors', () => {
  it('nests errors like the record and always gives args, as react-admin requires', () => {
    const result = validateRecord(registryWith(servicePoint), 'test', {
      name: 'ab',
      address: {},
      descriptions: [{ text: 'ok' }, {}],
    });
    expect(toFieldErrors(result)).toEqual({
      name: { message: 'validation.min_length', args: { min: 3 } },
      country: { message: 'validation.required', args: {} },
      address: { address_id: { message: 'validation.required', args: {} } },
      descriptions: [undefined, { text: { message: 'validation.required', args: {} } }],
    });
  });

  it("keeps a field's own message over its sub-fields'", () => {
    expect(
      toFieldErrors({
        errors: {
          'address.address_id': { message: 'validation.required' },
          address: { message: 'validation.invalid_address' },
        },
      }),
    ).toEqual({ address: { message: 'validation.invalid_address', args: {} } });
  });

  it('is empty for a valid record', () => {
    expect(toFieldErrors(validateRecord(registryWith(servicePoint), 'test', valid))).toEqual({});
  });
});
