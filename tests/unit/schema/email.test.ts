import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmail, isEmailList } from '../../../src/schema/validators/email.ts';
import { valueErrors } from './support.ts';

describe('email and email-list formats', () => {
  it('accepts ordinary addresses', () => {
    for (const value of ['a@b.dk', 'first.last+tag@mail.example.com', "o'neil@post-nord.se", 'X_Y@EXAMPLE.DE']) {
      expect(isEmail(value), value).toBe(true);
    }
  });

  it('refuses malformed addresses', () => {
    for (const value of [
      'a@b',
      'a@@b.dk',
      '.a@b.dk',
      'a.@b.dk',
      'a..b@c.dk',
      'a b@c.dk',
      'a@-b.dk',
      'a@b.d',
      '@b.dk',
      'a@b.dk,',
    ]) {
      expect(isEmail(value), value).toBe(false);
    }
  });

  it('allows comma-separated lists only in email-list', () => {
    expect(isEmailList('a@b.dk, c@d.se,e@f.no')).toBe(true);
    expect(isEmailList('a@b.dk,')).toBe(false);
    expect(isEmailList('a@b.dk;c@d.se')).toBe(false);
    expect(valueErrors({ type: 'string', format: 'email-list' }, 'a@b.dk, c@d.se')).toEqual({});
    expect(valueErrors({ type: 'string', format: 'email' }, 'a@b.dk, c@d.se')).toEqual({
      value: { message: 'validation.email' },
    });
    expect(valueErrors({ type: 'string', format: 'email-list' }, 'a@b.dk, nope')).toEqual({
      value: { message: 'validation.email' },
    });
  });

  it('accepts any list of simple generated addresses and refuses text without @', () => {
    const label = fc.string({ unit: fc.constantFrom(...'abcxyz019'), minLength: 1, maxLength: 10 });
    const address = fc
      .tuple(label, label, fc.constantFrom('dk', 'se', 'com'))
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
    fc.assert(fc.property(fc.array(address, { minLength: 1, maxLength: 5 }), (list) => isEmailList(list.join(', '))));
    fc.assert(fc.property(fc.string(), (value) => value.includes('@') || !isEmailList(value)));
  });
});
