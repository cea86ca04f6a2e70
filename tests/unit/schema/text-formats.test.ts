import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countNonSpace,
  forbiddenSpecialCharacters,
  hasNameCharacters,
  hasNoPeriodStart,
  hasNoSpecialCharacters,
  hasNoWhitespace,
  isAlphanumericHyphen,
  isHttpsUrl,
  isOrganizationNumber,
} from '../../../src/schema/validators/text.ts';
import { valueErrors } from './support.ts';

const text = (format: string, value: string) => valueErrors({ type: 'string', format }, value).value;
const alphanumeric = fc.string({
  unit: fc.constantFrom(...'abcXYZ0189'),
  minLength: 1,
});
const safeCharacters = fc.constantFrom(...'abcXYZ019 ,.;-_()éø'.split(''));

describe('no-period-start', () => {
  it('refuses a leading period only', () => {
    expect(hasNoPeriodStart('.hidden')).toBe(false);
    expect(hasNoPeriodStart('file.txt')).toBe(true);
    expect(hasNoPeriodStart('end.')).toBe(true);
    expect(text('no-period-start', '.x')).toEqual({ message: 'validation.no_period_start' });
  });

  it('holds for any text', () => {
    fc.assert(fc.property(fc.string(), (rest) => !hasNoPeriodStart(`.${rest}`)));
    fc.assert(fc.property(fc.string(), (rest) => hasNoPeriodStart(`a${rest}`)));
  });
});

describe('no-special-characters', () => {
  it('refuses each character of the spec list', () => {
    for (const character of '#£%&{}<>*?/$!\'":@+[]=`|') {
      expect(hasNoSpecialCharacters(`Shop ${character} 1`), character).toBe(false);
    }
    expect(text('no-special-characters', 'a@b')).toEqual({ message: 'validation.special_characters' });
  });

  it('accepts ordinary punctuation and letters', () => {
    expect(hasNoSpecialCharacters('Netto Østerbro, st. (2) - north_side; ok')).toBe(true);
  });

  it('fails whenever a forbidden character is present anywhere', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...forbiddenSpecialCharacters),
        fc.string(),
        (before, forbidden, after) => !hasNoSpecialCharacters(before + forbidden + after),
      ),
    );
    fc.assert(fc.property(fc.string({ unit: safeCharacters }), (safe) => hasNoSpecialCharacters(safe)));
  });
});

describe('organization-number', () => {
  it('allows letters, digits, space and - @ _ . , +', () => {
    expect(isOrganizationNumber('DK-12345678')).toBe(true);
    expect(isOrganizationNumber('SE 556677-8899 @_.,+')).toBe(true);
    expect(isOrganizationNumber('12#34')).toBe(false);
    expect(isOrganizationNumber('12/34')).toBe(false);
    expect(text('organization-number', 'a;b')).toEqual({ message: 'validation.organization_number' });
  });

  it('accepts any string over the allowed alphabet', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZ09 -@_.,+Ø'.split('')), minLength: 1 }), (value) =>
        isOrganizationNumber(value),
      ),
    );
  });
});

describe('alphanumeric-hyphen', () => {
  it('allows at most one inner hyphen', () => {
    expect(isAlphanumericHyphen('HW123')).toBe(true);
    expect(isAlphanumericHyphen('HW-123')).toBe(true);
    for (const value of ['-HW', 'HW-', 'H--W', 'H-W-1', 'HW 1', ''])
      expect(isAlphanumericHyphen(value), value).toBe(false);
    expect(text('alphanumeric-hyphen', 'a-b-c')).toEqual({ message: 'validation.alphanumeric_hyphen' });
  });

  it('holds for generated identifiers', () => {
    fc.assert(fc.property(alphanumeric, alphanumeric, (a, b) => isAlphanumericHyphen(`${a}-${b}`)));
    fc.assert(
      fc.property(alphanumeric, alphanumeric, alphanumeric, (a, b, c) => !isAlphanumericHyphen(`${a}-${b}-${c}`)),
    );
  });
});

describe('name-3', () => {
  it('needs three characters other than spaces', () => {
    expect(text('name-3', 'abc')).toBeUndefined();
    expect(text('name-3', ' a b ')).toEqual({ message: 'validation.min_non_space', args: { min: 3 } });
    expect(text('name-3', ' a b c ')).toBeUndefined();
  });

  it('is not fooled by padding with spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(' ', '\t', 'x'), maxLength: 20 }), (value) => {
        expect(countNonSpace(value)).toBe([...value].filter((c) => c === 'x').length);
      }),
    );
  });
});

describe('name-characters', () => {
  it('allows Unicode letters, digits, _, - and inner spaces', () => {
    for (const value of ['Søren Ærø-Hansen_2', 'Zoë', 'Ľubomír', 'Józef Ćwik', 'Cafe\u0301']) {
      expect(hasNameCharacters(value), value).toBe(true);
    }
    for (const value of [' Leading', 'a.b', 'a#b', "O'Neil", 'a/b'])
      expect(hasNameCharacters(value), value).toBe(false);
    expect(text('name-characters', ' x')).toEqual({ message: 'validation.name_characters' });
  });

  it('accepts the allowed alphabet unless it starts with a space', () => {
    const allowed = fc.string({ unit: fc.constantFrom(...'aÅé9_- '.split('')) });
    fc.assert(fc.property(allowed, (value) => hasNameCharacters(`x${value}`)));
    fc.assert(fc.property(allowed, (value) => !hasNameCharacters(` ${value}`)));
  });
});

describe('no-whitespace', () => {
  it('refuses any whitespace', () => {
    expect(hasNoWhitespace('abc')).toBe(true);
    expect(hasNoWhitespace('a b')).toBe(false);
    expect(hasNoWhitespace('a\tb')).toBe(false);
    expect(text('no-whitespace', 'a b')).toEqual({ message: 'validation.no_whitespace' });
  });

  it('holds for any text with a space inserted', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => !hasNoWhitespace(`${a} ${b}`)));
  });
});

describe('https-url', () => {
  it('accepts https addresses only', () => {
    expect(isHttpsUrl('https://hooks.example.com/carrier?id=1')).toBe(true);
    expect(isHttpsUrl('HTTPS://example.com')).toBe(true);
    for (const value of [
      'http://example.com',
      'https://',
      'https://exa mple.com',
      'ftp://example.com',
      'example.com',
    ]) {
      expect(isHttpsUrl(value), value).toBe(false);
    }
    expect(text('https-url', 'http://x.dk')).toEqual({ message: 'validation.https_url' });
  });

  it('agrees with the scheme of generated URLs', () => {
    fc.assert(fc.property(fc.webUrl({ validSchemes: ['https'] }), (url) => isHttpsUrl(url)));
    fc.assert(fc.property(fc.webUrl({ validSchemes: ['http'] }), (url) => !isHttpsUrl(url)));
  });
});
