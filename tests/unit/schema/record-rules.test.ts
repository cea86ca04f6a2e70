import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasDefaultDescription } from '../../../src/schema/validators/default-description.ts';
import { isScoutValue } from '../../../src/schema/validators/scout.ts';
import { errorsOf, valueErrors } from './support.ts';

describe('scout-value format', () => {
  it('is an email address or a user_id', () => {
    expect(isScoutValue('scout@example.com')).toBe(true);
    expect(isScoutValue('42')).toBe(true);
    for (const value of ['0', '-1', 'scout', 'scout@', '4 2']) expect(isScoutValue(value), value).toBe(false);
    expect(valueErrors({ type: 'string', format: 'scout-value' }, 'scout')).toEqual({
      value: { message: 'validation.scout_format' },
    });
  });

  it('accepts every user id', () => {
    fc.assert(fc.property(fc.integer({ min: 1 }), (id) => isScoutValue(String(id))));
  });
});

describe('terms acceptance', () => {
  const schema = {
    required: ['accept_terms'],
    properties: { accept_terms: { type: 'boolean', const: true, 'x-input': { kind: 'terms' } } },
  };

  it('reports validation.terms_accepted when unticked or missing', () => {
    expect(errorsOf(schema, { accept_terms: true })).toEqual({});
    expect(errorsOf(schema, { accept_terms: false })).toEqual({
      accept_terms: { message: 'validation.terms_accepted' },
    });
    expect(errorsOf(schema, {})).toEqual({ accept_terms: { message: 'validation.terms_accepted' } });
  });

  it('keeps validation.choice for other constants', () => {
    expect(valueErrors({ type: 'string', const: 'DK' }, 'SE')).toEqual({ value: { message: 'validation.choice' } });
  });
});

describe('address with a name', () => {
  const schema = {
    properties: {
      address: {
        type: 'object',
        properties: { name: { type: 'string' }, address_id: { type: 'integer' } },
        dependentRequired: { name: ['address_id'] },
      },
    },
  };

  it('needs an address_id, reported on the address', () => {
    expect(errorsOf(schema, { address: { name: 'Vesterbrogade 1', address_id: 7 } })).toEqual({});
    expect(errorsOf(schema, { address: {} })).toEqual({});
    expect(errorsOf(schema, { address: { name: 'Vesterbrogade 1' } })).toEqual({
      address: { message: 'validation.invalid_address' },
    });
  });
});

describe('default-language description', () => {
  const primary = { language: 'da', country: 'DK' };
  const schema = {
    properties: {
      descriptions: {
        type: 'array',
        items: {
          type: 'object',
          properties: { text: { type: 'string' }, language_code: { type: 'string' }, country: { type: 'string' } },
        },
        'x-default-description': primary,
      },
    },
  };

  it('requires text in the primary language and country', () => {
    const danish = { text: 'Pakkeboks ved indgangen', language_code: 'da', country: 'DK' };
    const english = { text: 'Locker at the entrance', language_code: 'en', country: 'DK' };
    expect(errorsOf(schema, { descriptions: [english, danish] })).toEqual({});
    const missing = { descriptions: { message: 'validation.default_description' } };
    expect(errorsOf(schema, { descriptions: [english] })).toEqual(missing);
    expect(errorsOf(schema, { descriptions: [{ ...danish, country: 'SE' }] })).toEqual(missing);
    expect(errorsOf(schema, { descriptions: [{ ...danish, text: '   ' }] })).toEqual(missing);
    expect(errorsOf(schema, { descriptions: [] })).toEqual(missing);
  });

  it('takes the primary language from the record’s country with countryField', () => {
    const byCountry = {
      properties: {
        country: { type: 'string' },
        descriptions: {
          ...schema.properties.descriptions,
          'x-default-description': { countryField: 'country', languages: { DK: 'da', NO: 'nb' } },
        },
      },
    };
    const norwegian = { text: 'Ved inngangen', language_code: 'nb', country: 'NO' };
    const danish = { text: 'Ved indgangen', language_code: 'da', country: 'DK' };
    const missing = { descriptions: { message: 'validation.default_description' } };
    expect(errorsOf(byCountry, { country: 'NO', descriptions: [norwegian] })).toEqual({});
    expect(errorsOf(byCountry, { country: 'NO', descriptions: [danish] })).toEqual(missing);
    expect(errorsOf(byCountry, { country: 'DK', descriptions: [norwegian, danish] })).toEqual({});
    // A country without a language in the rule asks for none.
    expect(errorsOf(byCountry, { country: 'DE', descriptions: [danish] })).toEqual({});
  });

  it('stays satisfied whatever other translations are added', () => {
    const translation = fc.record({
      text: fc.string(),
      language_code: fc.constantFrom('da', 'en', 'sv'),
      country: fc.constantFrom('DK', 'SE'),
    });
    const danish = { text: 'Pakkeboks', ...primary, language_code: 'da' };
    fc.assert(
      fc.property(fc.array(translation), fc.array(translation), (before, after) =>
        hasDefaultDescription([...before, danish, ...after], primary),
      ),
    );
  });

  it('refuses a malformed keyword value when the schema is compiled', () => {
    expect(() =>
      errorsOf({ properties: { d: { type: 'array', 'x-default-description': { language: 'da' } } } }, {}),
    ).toThrow(/x-default-description/);
  });
});
