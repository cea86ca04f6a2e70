import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isComplexPassword } from '../../../src/schema/validators/password.ts';
import { errorsOf } from './support.ts';

describe('complex-password format', () => {
  it('needs 8 characters with a digit, a lower case, an upper case and a special character', () => {
    expect(isComplexPassword('Passw0rd!')).toBe(true);
    expect(isComplexPassword('Pässw0rd-')).toBe(true);
    expect(isComplexPassword('Pa0!abc')).toBe(false);
    expect(isComplexPassword('password0!')).toBe(false);
    expect(isComplexPassword('PASSWORD0!')).toBe(false);
    expect(isComplexPassword('Password!')).toBe(false);
    expect(isComplexPassword('Password0')).toBe(false);
  });

  it('fails as soon as one character class is missing', () => {
    const lower = fc.string({ unit: fc.constantFrom(...'abcxyz'), minLength: 1 });
    const upper = fc.string({ unit: fc.constantFrom(...'ABCXYZ'), minLength: 1 });
    const digit = fc.string({ unit: fc.constantFrom(...'0129'), minLength: 1 });
    const special = fc.string({ unit: fc.constantFrom(...'!#-_.@'), minLength: 1 });
    fc.assert(
      fc.property(lower, upper, digit, special, (l, u, d, s) => {
        const padded = (parts: string[]) => parts.join('').padEnd(8, parts[0]);
        expect(isComplexPassword(padded([l, u, d, s]))).toBe(true);
        expect(isComplexPassword(padded([u, d, s]))).toBe(false);
        expect(isComplexPassword(padded([l, d, s]))).toBe(false);
        expect(isComplexPassword(padded([l, u, s]))).toBe(false);
        expect(isComplexPassword(padded([l, u, d]))).toBe(false);
      }),
    );
  });
});

describe('password confirmation', () => {
  const schema = {
    required: ['password', 'confirm_password'],
    properties: {
      password: { type: 'string', format: 'complex-password' },
      confirm_password: { type: 'string', const: { $data: '1/password' } },
    },
  };

  it('reports validation.matched on the confirm field', () => {
    expect(errorsOf(schema, { password: 'Passw0rd!', confirm_password: 'Passw0rd!' })).toEqual({});
    expect(errorsOf(schema, { password: 'Passw0rd!', confirm_password: 'Passw0rd?' })).toEqual({
      confirm_password: { message: 'validation.matched' },
    });
    expect(errorsOf(schema, { password: 'weak', confirm_password: 'weak' })).toEqual({
      password: { message: 'validation.complex_password' },
    });
  });
});
