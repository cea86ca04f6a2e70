import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNumberWithZero, isNumeric, isPositiveInteger } from '../../../src/schema/validators/numbers.ts';
import { valueErrors } from './support.ts';

describe('positive-integer format', () => {
  it('is greater than 0 and whole', () => {
    expect(isPositiveInteger(1)).toBe(true);
    expect(isPositiveInteger(0)).toBe(false);
    expect(isPositiveInteger(-1)).toBe(false);
    expect(isPositiveInteger(1.5)).toBe(false);
    expect(valueErrors({ type: 'integer', format: 'positive-integer' }, 0)).toEqual({
      value: { message: 'validation.positive_integer' },
    });
  });

  it('splits the integers at 0', () => {
    fc.assert(fc.property(fc.integer({ min: 1 }), (value) => isPositiveInteger(value)));
    fc.assert(fc.property(fc.integer({ max: 0 }), (value) => !isPositiveInteger(value)));
  });
});

describe('number-with-zero format', () => {
  it('also allows 0', () => {
    expect(isNumberWithZero(0)).toBe(true);
    expect(isNumberWithZero(7)).toBe(true);
    expect(isNumberWithZero(-1)).toBe(false);
    expect(isNumberWithZero(2.5)).toBe(false);
    expect(valueErrors({ type: 'number', format: 'number-with-zero' }, -1)).toEqual({
      value: { message: 'validation.number_with_zero' },
    });
  });

  it('splits the integers at -1', () => {
    fc.assert(fc.property(fc.nat(), (value) => isNumberWithZero(value)));
    fc.assert(fc.property(fc.integer({ max: -1 }), (value) => !isNumberWithZero(value)));
  });
});

describe('numeric format', () => {
  it('is digits only', () => {
    expect(isNumeric('00123')).toBe(true);
    for (const value of ['-1', '1.5', '1e3', '12 3', '']) expect(isNumeric(value), value).toBe(false);
    expect(valueErrors({ type: 'string', format: 'numeric' }, '-5')).toEqual({
      value: { message: 'validation.numeric' },
    });
  });

  it('accepts every natural number and no negative one', () => {
    fc.assert(fc.property(fc.nat(), (value) => isNumeric(String(value))));
    fc.assert(fc.property(fc.integer({ max: -1 }), (value) => !isNumeric(String(value))));
  });
});
