import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSchemaRegistry } from '../../src/schema/ajv.ts';
import { validateRecord } from '../../src/schema/validate.ts';
import { columnPlan, numberFormatFor } from '../../src/schema/ui/schema-columns.tsx';
import { SchemaInput } from '../../src/schema/ui/schema-inputs.tsx';
import { loadResources } from '../../server/gateway/resource-registry.ts';

const dir = path.resolve('schemas');
const load = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);

/** The carrier schema with one more property, as a developer would add it. */
function withLoyaltyCode() {
  return load().map((schema) =>
    schema.$id !== 'carrier'
      ? schema
      : {
          ...schema,
          properties: {
            ...(schema.properties as object),
            loyalty_code: { type: 'string', maxLength: 5, format: 'no-whitespace', 'x-column': { index: 3 } },
          },
        },
  );
}

describe('one schema drives everything', () => {
  const schemas = withLoyaltyCode();
  const registry = createSchemaRegistry(schemas);
  const model = registry.model('carrier');
  const valid = { name: 'Schema Carrier', primary_country_code: 'DK', service_point_radius: 3 };

  it('a new property becomes a list column in its place and a form input', () => {
    const field = model.fields.find((f) => f.source === 'loyalty_code')!;
    expect(field).toMatchObject({ type: 'string', maxLength: 5, column: { type: 'text', hide: false, index: 3 } });
    expect(model.fields.map((f) => f.source).indexOf('loyalty_code')).toBeLessThan(
      model.fields.map((f) => f.source).indexOf('service_point_radius'),
    );
    const cell = columnPlan(field, {
      translate: (key) => key,
      switchLabels: { on: 'Active', off: 'Deactive' },
      yesNoLabels: { on: 'Yes', off: 'No' },
      numberFormat: numberFormatFor('en-US'),
      editPath: (id) => `/carriers/${id}`,
    });
    expect(cell({ id: 1, loyalty_code: 'ABC' })).toBe('ABC');
    expect((<SchemaInput field={field} mode="create" />).props.field.source).toBe('loyalty_code');
  });

  it('the same validator checks it in the form and in the gateway', () => {
    expect(validateRecord(registry, 'carrier', { ...valid, loyalty_code: 'ABCDEF' }).errors.loyalty_code).toEqual({
      message: 'validation.max_length',
      args: { max: 5 },
    });
    expect(validateRecord(registry, 'carrier', { ...valid, loyalty_code: 'A B' }).errors.loyalty_code?.message).toBe(
      'validation.no_whitespace',
    );
    expect(validateRecord(registry, 'carrier', { ...valid, loyalty_code: 'ABC' }).valid).toBe(true);
    const gateway = loadResources(schemas as never).get('partners/carrier')!;
    expect(gateway.fieldsBySource.get('loyalty_code')).toBeDefined();
  });

  it('the committed carrier schema compiles and rejects what the spec forbids', () => {
    const committed = createSchemaRegistry(load());
    const errors = validateRecord(committed, 'carrier', {
      ...valid,
      service_point_radius: 0.05,
      webhook_url: 'http://example.com',
      webhook_retry_attempts: 4,
    }).errors;
    expect(Object.keys(errors).sort()).toEqual(['service_point_radius', 'webhook_retry_attempts', 'webhook_url']);
  });
});
