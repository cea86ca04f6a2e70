import { describe, expect, it } from 'vitest';
import readme from '../../../schemas/README.md?raw';
import common from '../../../schemas/common.schema.json';
import { createAjv, createSchemaRegistry, hintProblems } from '../../../src/schema/ajv.ts';
import { validateRecord } from '../../../src/schema/validate.ts';

const projectSchemas = Object.values(
  import.meta.glob<object>('../../../schemas/*.schema.json', { eager: true, import: 'default' }),
);

const minimalResource = { name: 'things', endpoint: 'things', id: 'thing_id' };

function readmeExample(): object {
  const block = /```json\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error('schemas/README.md has no json example');
  return JSON.parse(block[1]);
}

describe('createSchemaRegistry', () => {
  it('compiles each validator once and hands out the same function afterwards', () => {
    const registry = createSchemaRegistry(projectSchemas);
    const first = registry.validator('service-point');
    expect(registry.validator('service-point')).toBe(first);
  });

  it('compiles every schema of the project in strict mode', () => {
    const registry = createSchemaRegistry(projectSchemas);
    for (const schema of projectSchemas as { $id: string }[]) {
      expect(() => registry.validator(schema.$id), schema.$id).not.toThrow();
    }
  });

  it('resolves references whatever the order the schemas come in', () => {
    const registry = createSchemaRegistry([...projectSchemas].reverse());
    expect(validateRecord(registry, 'service-point', { name: 'Netto', country: 'XX', status: 1 }).errors).toEqual({
      country: { message: 'validation.choice' },
    });
  });

  it('compiles and applies the example of schemas/README.md', () => {
    const registry = createSchemaRegistry([common, readmeExample()]);
    const depot = {
      name: 'Nordic Parcel Aarhus',
      carrier_id: 3,
      country: 'DK',
      email: 'ops@nordic.example, it@nordic.example',
      dial_code: '+45',
      phone: '20123456',
      descriptions: [{ text: 'Pakker', language_code: 'da', country: 'DK' }],
    };
    expect(validateRecord(registry, 'depot', depot).errors).toEqual({});
    expect(
      validateRecord(registry, 'depot', { ...depot, webhook_url: 'http://x.dk', retry_attempts: 4 }).errors,
    ).toEqual({
      webhook_url: { message: 'validation.https_url' },
      retry_attempts: { message: 'validation.max', args: { max: 3 } },
    });
  });

  it('gives a search for a record to pick the page size of spec 02 §7 and §9: the service point search helper 20, hardware 10, others 20', () => {
    const registry = createSchemaRegistry(projectSchemas);
    expect(registry.model('service-point').searchPageSize).toBe(20);
    expect(registry.model('service-point').pageSize).toBe(15);
    expect(registry.model('hardware-unit').searchPageSize).toBe(10);
    expect(registry.model('carrier').searchPageSize).toBe(20);
    expect(() =>
      createAjv().compile({ type: 'object', 'x-resource': { ...minimalResource, searchPageSize: 0 } }),
    ).toThrow(/x-resource/);
  });

  it('refuses schemas without $id', () => {
    expect(() => createSchemaRegistry([{ title: 'Anonymous', type: 'object' }])).toThrow(/Anonymous/);
  });
});

describe('createAjv strict mode', () => {
  const compile = (schema: object) => () => createAjv().compile(schema);

  it('accepts the hint vocabulary', () => {
    expect(
      compile({
        type: 'object',
        'x-resource': {
          name: 'things',
          endpoint: 'things',
          id: 'thing_id',
          feature: 'servicepoints',
          partnerTypes: ['operator', 'carrier'],
          actions: { edit: { levels: ['advance'], partnerTypes: 'All' } },
          tenancy: { carrier: 'partner_id' },
          pageSize: 15,
          searchPageSize: 10,
          sort: { field: 'name', order: 'DESC' },
          representation: 'name',
          search: ['name'],
          tabs: ['general'],
          bulkImport: { toggle: 'active' },
        },
        properties: {
          name: {
            type: 'string',
            'x-column': { type: 'text_with_badge', hide: false, ignorexport: true, index: 1 },
            'x-filter': { kind: 'text', alwaysOn: true },
            'x-input': { kind: 'per-language', tab: 'general', multiline: true },
            'x-label': 'resources.things.fields.title',
            'x-import': { unique: true, uniqueWith: ['kind'] },
          },
          kind: { type: 'integer', 'x-choices': 'thing_kind', 'x-lookup': { source: 'webtool/lists?type=kind' } },
          owner_id: { type: 'integer', 'x-lookup': { resource: 'partners', label: 'name' } },
          partner_id: {
            type: 'integer',
            'x-input': { callerPartner: 'id', uppercaseOption: { feature: 1, option: 'o' } },
          },
          active: { type: 'boolean' },
        },
      }),
    ).not.toThrow();
  });

  it('refuses unknown keywords, misspelt hints and untyped formats', () => {
    expect(compile({ type: 'string', 'x-colum': {} })).toThrow(/unknown keyword/);
    expect(compile({ type: 'string', 'x-column': { type: 'txt' } })).toThrow(/x-column/);
    expect(compile({ type: 'string', 'x-column': { tpye: 'text' } })).toThrow(/x-column/);
    expect(compile({ type: 'string', 'x-filter': { kind: 'text', alwayson: true } })).toThrow(/x-filter/);
    expect(compile({ type: 'string', 'x-input': { kind: 'text', tab: 1 } })).toThrow(/x-input/);
    expect(compile({ type: 'string', 'x-import': { unique: 'yes' } })).toThrow(/x-import/);
    expect(compile({ type: 'string', 'x-history': true })).toThrow(/unknown keyword/);
    expect(compile({ type: 'integer', enum: [1], 'x-enum-names': { const: 'status', names: ['Open'] } })).toThrow(
      /x-enum-names/,
    );
    expect(compile({ type: 'integer', enum: [1], 'x-enum-names': { names: ['Open'] } })).toThrow(/x-enum-names/);
    const resource = { name: 'things', endpoint: 'things', id: 'thing_id' };
    expect(compile({ type: 'object', 'x-resource': { name: 'things', endpoint: 'things' } })).toThrow(/x-resource/);
    expect(compile({ type: 'object', 'x-resource': { ...resource, pagesize: 15 } })).toThrow(/x-resource/);
    expect(compile({ type: 'object', 'x-resource': { ...resource, feature: 'carrier' } })).toThrow(/x-resource/);
    expect(compile({ type: 'object', 'x-resource': { ...resource, features: { basic: 214 } } })).toThrow(/x-resource/);
    expect(compile({ type: 'object', 'x-resource': { ...resource, sort: { field: 'a', order: 'asc' } } })).toThrow(
      /x-resource/,
    );
    expect(compile({ type: 'object', 'x-resource': { ...resource, tenancy: { carrier: 1 } } })).toThrow(/x-resource/);
    expect(compile({ type: 'object', 'x-resource': { ...resource, bulkImport: { toggel: 'a' } } })).toThrow(
      /x-resource/,
    );
    expect(compile({ type: 'string', 'x-lookup': { value: 'id' } })).toThrow(/x-lookup/);
    expect(compile({ type: 'string', 'x-lookup': { source: 'webtool/lists?type=a', resource: 'things' } })).toThrow(
      /x-lookup/,
    );
    expect(compile({ type: 'object', properties: { a: { format: 'phone' } } })).toThrow(/strictTypes/);
    expect(compile({ type: 'string', format: 'no-such-format' })).toThrow(/unknown format/);
  });
});

describe('hintProblems, which stops npm run gen', () => {
  const file = 'schemas/thing.schema.json';
  const thing = (properties: object, resource: object = {}) => ({
    $id: 'thing',
    'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id', ...resource },
    properties,
  });

  it('names the file, the JSON path and the misspelt key', () => {
    expect(hintProblems(thing({ name: { type: 'string', 'x-column': { tpye: 'text' } } }), file)).toEqual([
      'schemas/thing.schema.json /properties/name/x-column: unknown key "tpye"',
    ]);
  });

  it('finds hints of the wrong shape wherever a subschema may hold them', () => {
    const schema = thing(
      {
        address: { type: 'object', properties: { city: { type: 'string', 'x-filter': { ignoreCase: 'yes' } } } },
        tags: { type: 'array', items: { type: 'string', 'x-colum': {} } },
        code: { allOf: [{ 'x-input': { callerPartner: 'name' } }] },
      },
      { sort: { field: 'name', order: 'up' } },
    );
    expect(hintProblems(schema, file)).toEqual([
      'schemas/thing.schema.json /x-resource/sort/order: must be one of ASC, DESC',
      'schemas/thing.schema.json /properties/address/properties/city/x-filter/ignoreCase: must be boolean',
      'schemas/thing.schema.json /properties/tags/items/x-colum: unknown hint "x-colum"',
      'schemas/thing.schema.json /properties/code/allOf/0/x-input/callerPartner: must be one of type, id',
    ]);
  });

  it('leaves data alone: an enum, a default or an example may hold any key', () => {
    const schema = thing({ state: { type: 'object', default: { 'x-column': 1 }, examples: [{ 'x-anything': 2 }] } });
    expect(hintProblems(schema, file)).toEqual([]);
  });

  it('finds nothing wrong in the committed schemas nor in the README example', () => {
    const problems = [...projectSchemas, readmeExample()].flatMap((schema) => hintProblems(schema, 'committed'));
    expect(problems).toEqual([]);
  });
});
