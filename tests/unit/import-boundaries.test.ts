// @vitest-environment node
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

/** The import-direction messages ESLint gives a one-line module at `filePath`. */
async function refusals(filePath: string, importPath: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${importPath}';\nexport const y = x;\n`, { filePath });
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// The first lint loads typescript-eslint, which takes seconds on a busy machine.
describe('import boundaries (eslint.config.js)', { timeout: 60_000 }, () => {
  it('keeps the React engine out of the gateway', async () => {
    expect(await refusals('server/gateway/example.ts', '../../src/schema/ui/registry.ts')).toEqual([
      expect.stringMatching(/server\/ shares only/),
    ]);
    expect(await refusals('server/gateway/example.ts', '../../src/schema/resource-model.ts')).toEqual([]);
  });

  it('lets resources share the engine widgets, never their own', async () => {
    expect(await refusals('src/resources/service-points/example.tsx', '../../schema/ui/compartment-grid.tsx')).toEqual(
      [],
    );
    expect(await refusals('src/resources/service-points/example.tsx', '../hardware/compartments-panel.tsx')).toEqual([
      expect.stringMatching(/each other/),
    ]);
  });

  it('keeps the folders of src/custom apart', async () => {
    expect(await refusals('src/custom/print/example.tsx', '../account/form-parts.tsx')).toEqual([
      expect.stringMatching(/another custom folder/),
    ]);
    expect(await refusals('src/custom/account/example.tsx', './form-parts.tsx')).toEqual([]);
    expect(await refusals('src/custom/account/example.tsx', '../../authProvider/sso.ts')).toEqual([]);
    expect(await refusals('src/custom/account/example.tsx', '../../app/app.tsx')).toHaveLength(1);
  });
});
