import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSchemaRegistry } from '../../../src/schema/ajv.ts';
import { loadValidators, schemaRegistry as browserRegistry } from '../../../src/schema/ui/registry.ts';
import { validateRecord } from '../../../src/schema/validate.ts';
import generatedSource from '../../../src/types/generated/validators.ts?raw';
import { validators } from '../../../src/types/generated/validators.ts';
import { projectIds, projectSchemas, removeTemporaryDirs, root, samplesFor, temporaryDir } from './samples.ts';

// The generated module and the browser's registry (its validators not loaded yet, as on a fresh page): a file of its
// own, with its own modules. The registries' results against each other are in standalone-registries.test.ts.
afterAll(removeTemporaryDirs);

describe('generated standalone validators', () => {
  it('are up to date with schemas/', () => {
    const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-types.ts', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('cover every schema of schemas/, keyed by $id', () => {
    expect(Object.keys(validators).sort()).toEqual(projectIds);
  });

  it('are a plain ES module: imports only, no require and no code built from strings', () => {
    expect(generatedSource).not.toMatch(/\brequire\(|new Function|\beval\(/);
    expect(generatedSource).toMatch(
      /^import \* as sharedValidators from '\.\.\/\.\.\/schema\/validators\/standalone-runtime\.ts';$/m,
    );
    expect(generatedSource).toMatch(/^import \* as \w+ from 'ajv\/dist\/runtime\/ucs2length\.js';$/m);
  });

  it("give ajv's errors under Node's CommonJS interop too, which the production bundle shares", () => {
    // vitest hands a CommonJS `exports.default` out as the default import; Node and Vite's build do not.
    const runtime = createSchemaRegistry(projectSchemas);
    const cases = projectIds.flatMap((schemaId) =>
      samplesFor(runtime, schemaId).all.map((sample) => [schemaId, sample]),
    );
    const expected = cases.map(([schemaId, sample]) => {
      const validate = runtime.validator(String(schemaId));
      validate(sample);
      return JSON.parse(JSON.stringify(validate.errors ?? null));
    });
    const script = path.join(temporaryDir(), 'validate.ts');
    writeFileSync(
      script,
      [
        "import { readFileSync } from 'node:fs';",
        `import { validators } from '${path.join(root, 'src/types/generated/validators.ts')}';`,
        "const cases = JSON.parse(readFileSync(0, 'utf8'));",
        'const errors = cases.map(([schemaId, sample]) => (validators[schemaId](sample), validators[schemaId].errors ?? null));',
        'process.stdout.write(JSON.stringify(errors));',
      ].join('\n'),
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      input: JSON.stringify(cases),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual(expected);
  }, 60_000);
});

describe('the browser registry', () => {
  // The validators are a chunk of their own, loaded by the forms (not by a list).
  beforeAll(() => loadValidators());

  it('validates without evaluating strings as code, which the Content-Security-Policy forbids', () => {
    vi.stubGlobal('Function', function refuseEval() {
      throw new EvalError('Evaluating a string as JavaScript violates the Content Security Policy');
    });
    // ajv logs the code it failed to compile; the control case below makes it fail on purpose.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => createSchemaRegistry(projectSchemas).validator('carrier')).toThrow(EvalError);
      for (const schemaId of projectIds) {
        expect(() => validateRecord(browserRegistry, schemaId, { name: 'Netto' })).not.toThrow();
      }
      expect(validateRecord(browserRegistry, 'carrier', { name: 'N', webhook_url: 'http://x.dk' }).errors).toEqual({
        name: { message: 'validation.min_length', args: { min: 3 } },
        primary_country_code: { message: 'validation.required' },
        service_point_radius: { message: 'validation.required' },
        webhook_url: { message: 'validation.https_url' },
      });
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });

  it('hands out the generated validators', () => {
    for (const schemaId of projectIds) expect(browserRegistry.validator(schemaId)).toBe(validators[schemaId]);
  });
});
