import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import common from '../../../schemas/common.schema.json';
import { standaloneValidatorsModule } from '../../../scripts/standalone-validators.ts';
import { createSchemaRegistry } from '../../../src/schema/ajv.ts';
import { createStandaloneRegistry } from '../../../src/schema/standalone-registry.ts';
import { validateRecord } from '../../../src/schema/validate.ts';
import { formats } from '../../../src/schema/validators/standalone-runtime.ts';
import { validators } from '../../../src/types/generated/validators.ts';
import {
  expectSameResults,
  formatSamples,
  projectIds,
  projectSchemas,
  readmeExample,
  removeTemporaryDirs,
  root,
  samplesFor,
  statedRules,
  temporaryDir,
} from './samples.ts';

afterAll(removeTemporaryDirs);

/** Generates, writes and imports a standalone module, as `npm run gen` does for schemas/. */
async function standaloneValidatorsOf(schemas: object[]): Promise<Record<string, ValidateFunction>> {
  const dir = temporaryDir();
  const runtime = path.relative(dir, path.join(root, 'src/schema/validators/standalone-runtime.ts'));
  const file = path.join(dir, 'validators.ts');
  writeFileSync(file, standaloneValidatorsModule(schemas, runtime));
  return ((await import(/* @vite-ignore */ file)) as { validators: Record<string, ValidateFunction> }).validators;
}

describe('standalone and run-time registries', () => {
  const runtime = createSchemaRegistry(projectSchemas);
  const standalone = createStandaloneRegistry(projectSchemas, validators);

  it('have samples for every format', () => {
    expect(Object.keys(formatSamples).sort()).toEqual(Object.keys(formats).sort());
  });

  it.each(projectIds)(
    'give the same results for %s, and the samples break every rule it states',
    (schemaId) => {
      const { valid, all } = samplesFor(runtime, schemaId);
      expect(validateRecord(runtime, schemaId, valid).errors).toEqual({});
      const broken = expectSameResults(runtime, standalone, schemaId, all);
      expect([...statedRules(runtime.schema(schemaId), runtime, schemaId)].filter((rule) => !broken.has(rule))).toEqual(
        [],
      );
      // Every sample of every field of the largest schema (a service point) through both registries.
    },
    60_000,
  );

  it.each(projectIds)('give the same results for %s on random records', (schemaId) => {
    const { candidates } = samplesFor(runtime, schemaId);
    const record = fc.record(
      Object.fromEntries(candidates.map(([name, values]) => [name, fc.constantFrom(...values)])),
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(record, (sample) => {
        expectSameResults(runtime, standalone, schemaId, [sample]);
      }),
    );
  });

  it('give the same results for the example of schemas/README.md, custom keywords included', async () => {
    const schemas = [common, readmeExample()];
    const exampleRuntime = createSchemaRegistry(schemas);
    const exampleStandalone = createStandaloneRegistry(schemas, await standaloneValidatorsOf(schemas));
    const { valid, all } = samplesFor(exampleRuntime, 'depot');
    const depot = {
      ...valid,
      dial_code: '+45',
      phone: '20123456',
      descriptions: [{ text: 'Pakker', language_code: 'da', country: 'DK' }],
    };
    const samples = [
      ...all,
      depot,
      { ...depot, phone: '2012345' },
      { ...depot, dial_code: 'XX' },
      { ...depot, dial_code: 'SE' },
      { ...depot, phone: '0045 20123456' },
      { ...depot, descriptions: [{ text: ' ', language_code: 'da', country: 'DK' }] },
    ];
    const broken = expectSameResults(exampleRuntime, exampleStandalone, 'depot', samples);
    expect([...statedRules(readmeExample(), exampleRuntime, 'depot')].filter((rule) => !broken.has(rule))).toEqual([]);

    const errorsOf = (record: object) => validateRecord(exampleStandalone, 'depot', record).errors;
    expect(errorsOf(depot)).toEqual({});
    expect(errorsOf({ ...depot, phone: '2012345' })).toEqual({ phone: { message: 'validation.invalid_phone' } });
    expect(errorsOf({ ...depot, dial_code: 'XX' })).toEqual({ phone: { message: 'validation.country_code_required' } });
    expect(errorsOf({ ...depot, descriptions: [{ text: 'Parcels', language_code: 'en', country: 'DK' }] })).toEqual({
      descriptions: { message: 'validation.default_description' },
    });
    expect(errorsOf({ ...depot, name: undefined, retry_attempts: 0, address: { name: 'Vesterbrogade 1' } })).toEqual({
      name: { message: 'validation.required' },
      retry_attempts: { message: 'validation.min', args: { min: 1 } },
      address: { message: 'validation.invalid_address' },
    });
  });

  it('resolve references the way ajv does', () => {
    const schemas = [
      common,
      { $id: 'test', type: 'object', $defs: { name: { type: 'string' }, 'a/b~c': { type: 'integer' } } },
    ];
    const ajvRefs = createSchemaRegistry(schemas);
    const plainRefs = createStandaloneRegistry(schemas, {});
    for (const ref of ['common#/$defs/countryCode', '#/$defs/name', 'test#/$defs/name', '#/$defs/a~1b~0c', 'common']) {
      expect(plainRefs.resolveRef(ref, 'test'), ref).toEqual(ajvRefs.resolveRef(ref, 'test'));
      expect(plainRefs.resolveRef(ref, 'test'), ref).toBeDefined();
    }
    expect(plainRefs.resolveRef('#/$defs/missing', 'test')).toBeUndefined();
    expect(plainRefs.resolveRef('nope#/$defs/name', 'test')).toBeUndefined();
  });

  it('refuse unknown schemas, schemas without $id and schemas without a generated validator', () => {
    expect(() => standalone.validator('nope')).toThrow(/nope/);
    expect(() => createStandaloneRegistry([{ title: 'Anonymous', type: 'object' }], {})).toThrow(/Anonymous/);
    expect(() => createStandaloneRegistry(projectSchemas, {}).validator('carrier')).toThrow(/npm run gen/);
  });
});
