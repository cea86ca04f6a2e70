import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInternationalPhone, isPlainPhone, normalisePhone } from '../../../src/schema/validators/phone.ts';
import { errorsOf, valueErrors } from './support.ts';

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

describe('plain phone format', () => {
  it('takes 7 to 15 digits', () => {
    expect(isPlainPhone('1234567')).toBe(true);
    expect(isPlainPhone('123456789012345')).toBe(true);
    expect(isPlainPhone('+123456789012345')).toBe(true);
    expect(isPlainPhone('123456')).toBe(false);
    expect(isPlainPhone('1234567890123456')).toBe(false);
    expect(isPlainPhone('+1234567890123456')).toBe(false);
  });

  it('allows spaces only after a leading +', () => {
    expect(isPlainPhone('+45 20 12 34 56')).toBe(true);
    expect(isPlainPhone('45 20 12 34 56')).toBe(false);
    expect(isPlainPhone('+45-20123456')).toBe(false);
    expect(isPlainPhone('+ 4520123456')).toBe(false);
    expect(isPlainPhone('20123456+')).toBe(false);
  });

  it('reports validation.mobile_format', () => {
    expect(valueErrors({ type: 'string', format: 'phone' }, '123')).toEqual({
      value: { message: 'validation.mobile_format' },
    });
  });

  it('accepts any 7 to 15 digits with an optional +, and refuses 16 or more', () => {
    fc.assert(fc.property(fc.boolean(), digits(7, 15), (plus, number) => isPlainPhone(plus ? `+${number}` : number)));
    fc.assert(fc.property(fc.boolean(), digits(16, 30), (plus, number) => !isPlainPhone(plus ? `+${number}` : number)));
    fc.assert(fc.property(fc.boolean(), digits(0, 6), (plus, number) => !isPlainPhone(plus ? `+${number}` : number)));
  });
});

describe('normalisePhone', () => {
  it('turns a leading 00 into +', () => {
    expect(normalisePhone('004520123456')).toBe('+4520123456');
    expect(normalisePhone('+4520123456')).toBe('+4520123456');
    expect(normalisePhone('20012345')).toBe('20012345');
  });
});

describe('international phone', () => {
  it('accepts national and international forms for the chosen country', () => {
    for (const phone of ['20123456', '+4520123456', '004520123456', '0045 20 12 34 56', '+45 20 12 34 56']) {
      expect(checkInternationalPhone(phone, 'DK'), phone).toBeUndefined();
    }
    expect(checkInternationalPhone('20123456', '+45')).toBeUndefined();
    expect(checkInternationalPhone('20123456', '0045')).toBeUndefined();
    expect(checkInternationalPhone('20123456', '45')).toBeUndefined();
    expect(checkInternationalPhone('20123456', 'dk')).toBeUndefined();
    expect(checkInternationalPhone('0701234567', 'SE')).toBeUndefined();
    expect(checkInternationalPhone('91234567', 'NO')).toBeUndefined();
  });

  it('needs a country code once a phone is entered', () => {
    expect(checkInternationalPhone('20123456', undefined)).toBe('country_code_required');
    expect(checkInternationalPhone('20123456', '')).toBe('country_code_required');
    expect(checkInternationalPhone('20123456', 'Denmark')).toBe('country_code_required');
    // A dial code no country has: the phone library throws on it; the rule answers, it does not crash.
    expect(checkInternationalPhone('2012 3456', '1234')).toBe('country_code_required');
    expect(checkInternationalPhone('20123456', '+999')).toBe('country_code_required');
  });

  it('refuses numbers that are short, malformed or from another country', () => {
    expect(checkInternationalPhone('2012345', 'DK')).toBe('invalid_phone');
    expect(checkInternationalPhone('201234567', 'DK')).toBe('invalid_phone');
    expect(checkInternationalPhone('12345678', 'DK')).toBe('invalid_phone');
    expect(checkInternationalPhone('+4791234567', 'DK')).toBe('invalid_phone');
    expect(checkInternationalPhone('+4520123456', '+47')).toBe('invalid_phone');
    expect(checkInternationalPhone('tel 20123456', 'DK')).toBe('invalid_phone');
    expect(checkInternationalPhone('2012-3456', 'DK')).toBe('invalid_phone');
  });

  it('treats 00 exactly like +', () => {
    fc.assert(
      fc.property(digits(1, 16), fc.constantFrom('DK', 'SE', 'NO', 'DE', '+45', '48'), (number, country) => {
        expect(checkInternationalPhone(`00${number}`, country)).toBe(checkInternationalPhone(`+${number}`, country));
      }),
    );
  });

  it('always asks for the country first when none is chosen', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        (phone) => checkInternationalPhone(phone, undefined) === 'country_code_required',
      ),
    );
  });

  it('reports on the phone field, reading the country from the sibling named by x-phone-country', () => {
    const schema = {
      properties: {
        phone: { type: 'string', 'x-phone-country': 'dial_code' },
        dial_code: { type: 'string' },
      },
    };
    expect(errorsOf(schema, { phone: '20123456', dial_code: '+45' })).toEqual({});
    expect(errorsOf(schema, { phone: '20123456' })).toEqual({ phone: { message: 'validation.country_code_required' } });
    expect(errorsOf(schema, { phone: '20123456', dial_code: '  ' })).toEqual({
      phone: { message: 'validation.country_code_required' },
    });
    expect(errorsOf(schema, { phone: '2012', dial_code: '+45' })).toEqual({
      phone: { message: 'validation.invalid_phone' },
    });
    expect(errorsOf(schema, { dial_code: '+45' })).toEqual({});
  });
});
