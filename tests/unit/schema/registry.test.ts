import { describe, expect, it } from 'vitest';
import readme from '../../../schemas/README.md?raw';
import common from '../../../schemas/common.schema.json';
import { createAjv, createSchemaRegistry } from '../../../src/schema/ajv.ts';
import { validateRecord } from '../../../src/schema/validate.ts';

const projectSchemas = Object.values(
  import.meta.glob<object>('../../../schemas/*.schema.json', { eager: true, import: 'default' }),
);

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
        'x-resource': { name: 'things', endpoint: 'things' },
        'x-tab': ['general'],
        'x-rules': ['thing.unique_name'],
        properties: {
          name: {
            type: 'string',
            'x-column': { type: 'text_with_badge', hide: false, ignorexport: true, index: 1 },
            'x-filter': { kind: 'text', alwaysOn: true },
            'x-input': { kind: 'text', tab: 'general', multiline: true },
            'x-label': 'resources.things.fields.title',
            'x-history': true,
            'x-representation': '%{name}',
          },
          kind: { type: 'integer', 'x-choices': 'thing_kind', 'x-lookup': { source: 'webtool/lists?type=kind' } },
          owner_id: { type: 'integer', 'x-lookup': { resource: 'partners', label: 'name' } },
          partner_id: { type: 'integer', 'x-tenancy': true },
        },
      }),
    ).not.toThrow();
  });

  it('refuses unknown keywords, misspelt hints and untyped formats', () => {
    expect(compile({ type: 'string', 'x-colum': {} })).toThrow(/unknown keyword/);
    expect(compile({ type: 'string', 'x-column': { type: 'txt' } })).toThrow(/x-column/);
    expect(compile({ type: 'string', 'x-lookup': { value: 'id' } })).toThrow(/x-lookup/);
    expect(compile({ type: 'string', 'x-lookup': { source: 'webtool/lists?type=a', resource: 'things' } })).toThrow(
      /x-lookup/,
    );
    expect(compile({ type: 'object', properties: { a: { format: 'phone' } } })).toThrow(/strictTypes/);
    expect(compile({ type: 'string', format: 'no-such-format' })).toThrow(/unknown format/);
  });
});
