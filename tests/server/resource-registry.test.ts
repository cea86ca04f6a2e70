import { describe, expect, it } from 'vitest';
import { loadResources, propertyType, withDefaults, writableFields } from '../../server/gateway/resource-registry.ts';

/** A test-only schema set whose defaults and readOnly flags live in `$defs`, reached through chains of `$ref`. */
const common = {
  $id: 'common',
  $defs: {
    switchedOn: { type: 'boolean', default: true },
    stamp: { $ref: '#/$defs/stampBase' },
    stampBase: { type: 'string', readOnly: true, default: 'from common' },
    id: { type: 'integer', minimum: 1 },
  },
};
const thing = {
  $id: 'thing',
  type: 'object',
  'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id' },
  $defs: { retries: { type: 'integer', default: 3 }, thingId: { $ref: 'common#/$defs/id', readOnly: true } },
  properties: {
    thing_id: { $ref: '#/$defs/thingId' },
    active: { $ref: 'common#/$defs/switchedOn' },
    visible: { $ref: 'common#/$defs/switchedOn', default: false },
    created: { $ref: 'common#/$defs/stamp' },
    retries: { $ref: '#/$defs/retries' },
    name: { type: 'string' },
  },
};

describe('the gateway reads properties through their $ref chains', () => {
  const resource = loadResources([common, thing]).get('things')!;

  it('applies a default written in common.schema.json or in the schema $defs', () => {
    expect(withDefaults(resource, writableFields(resource, { name: 'Box' }))).toEqual({
      name: 'Box',
      active: true,
      visible: false,
      retries: 3,
    });
  });

  it('drops fields made readOnly in a $def, however many references away', () => {
    const body = { thing_id: 9, name: 'Box', created: 'by the client', opname: 'x', version: 2 };
    expect(writableFields(resource, body)).toEqual({ name: 'Box' });
  });

  it('knows the type of a property defined elsewhere', () => {
    expect(propertyType(resource, 'thing_id')).toBe('integer');
    expect(propertyType(resource, 'retries')).toBe('integer');
    expect(propertyType(resource, 'active')).toBe('boolean');
  });
});
