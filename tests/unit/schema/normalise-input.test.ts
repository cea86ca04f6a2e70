import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseInput } from '../../../src/schema/validators/normalise-input.ts';
import { errorsOf, registryWith } from './support.ts';

const whitespace = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0') });

describe('normaliseInput', () => {
  const schema = {
    $id: 'test',
    type: 'object',
    properties: {
      name: { type: 'string' },
      note: { type: ['string', 'null'] },
      status: { $ref: 'common#/$defs/servicePointStatus' },
      tags: { type: 'array', items: { type: 'string' } },
      address: { type: 'object', properties: { name: { type: 'string' }, city: { type: ['string', 'null'] } } },
    },
  };
  const { resolveRef } = registryWith({});

  it('removes whitespace-only strings, at any depth, without trimming the others', () => {
    expect(
      normaliseInput(
        { name: '  ', note: ' kept ', tags: ['a', ' ', 'b'], address: { name: '\t', city: 'Aarhus' } },
        schema,
        resolveRef,
      ),
    ).toEqual({ note: ' kept ', tags: ['a', 'b'], address: { city: 'Aarhus' } });
  });

  it('removes null unless the schema allows it, following $ref', () => {
    expect(
      normaliseInput({ name: null, note: null, status: null, address: { name: null, city: null } }, schema, resolveRef),
    ).toEqual({ note: null, address: { city: null } });
  });

  it('keeps files and dates whole', () => {
    const file = new File(['x'], 'photo.png');
    const day = new Date('2024-02-29T00:00:00Z');
    expect(normaliseInput({ photo: file, day }, schema, resolveRef)).toEqual({ photo: file, day });
  });

  it('never changes a string with visible characters', () => {
    fc.assert(
      fc.property(
        fc.string().filter((value) => value.trim() !== ''),
        (value) => {
          expect(normaliseInput({ name: value }, schema, resolveRef)).toEqual({ name: value });
        },
      ),
    );
  });

  it('never lets whitespace satisfy required', () => {
    const required = { required: ['name'], properties: { name: { type: 'string' } } };
    fc.assert(
      fc.property(whitespace, (blank) => {
        expect(errorsOf(required, { name: blank })).toEqual({ name: { message: 'validation.required' } });
      }),
    );
  });
});
