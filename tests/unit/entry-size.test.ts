// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { gzipBytes, hasTopLevelAwait, measureEntry } from '../../scripts/bench/entry-size.ts';
import { buildApp, buildBareApp, TARGET_RATIO, type BuiltEntry } from '../../scripts/bench/entry.ts';

const work = mkdtempSync(path.join(tmpdir(), 'entry-size-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('measureEntry', () => {
  it('sums the module scripts, module preloads and their static imports, not what loads lazily', () => {
    const dist = path.join(work, 'fixture');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    const files: Record<string, string> = {
      'index.html':
        '<script type="module" crossorigin src="/assets/main.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/preloaded.js">' +
        '<script src="/assets/classic.js"></script>',
      'assets/main.js': 'import{a}from"./shared.js";export*from"./reexported.js";import("./lazy.js");a();',
      'assets/preloaded.js': 'export const p=1;',
      'assets/shared.js': 'import"./shared.js";export function a(){return 1}',
      'assets/reexported.js': 'export const r=2;',
      'assets/lazy.js': 'import"./lazy-only.js";export const l=3;',
      'assets/lazy-only.js': 'export const o=4;',
      'assets/classic.js': 'var c=5;',
    };
    for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dist, file), content);

    const entry = measureEntry(dist);
    const counted = ['assets/main.js', 'assets/preloaded.js', 'assets/shared.js', 'assets/reexported.js'];
    expect(entry.files.map(({ file }) => file).sort()).toEqual([...counted].sort());
    expect(entry.totalGzipBytes).toBe(counted.reduce((sum, file) => sum + gzipBytes(files[file]), 0));
  });

  it('tells a top-level await from one inside a function', () => {
    expect(hasTopLevelAwait('const m = await import("./a.js"); export { m };')).toBe(true);
    expect(hasTopLevelAwait('export {}; for await (const x of y) console.log(x);')).toBe(true);
    expect(hasTopLevelAwait('export async function f() { return await g(); } const h = async () => await g();')).toBe(
      false,
    );
  });
});

// The production build of the app and of the bare react-admin app, as `npm run bench` measures them.
describe('the entry of the built app', { timeout: 240_000 }, () => {
  let app: BuiltEntry;
  let bare: BuiltEntry;
  const nodeEnv = process.env.NODE_ENV;

  beforeAll(async () => {
    // Vitest runs with NODE_ENV=test, which would bundle React's development build.
    process.env.NODE_ENV = 'production';
    try {
      app = await buildApp(path.join(work, 'app'));
      bare = await buildBareApp(path.join(work, 'bare'));
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }, 240_000);

  const inEntry = (pattern: RegExp) => app.entryModules.filter((id) => pattern.test(id.replaceAll('\\', '/')));

  it('is at most the bare react-admin app', () => {
    expect(app.totalGzipBytes / bare.totalGzipBytes).toBeLessThanOrEqual(TARGET_RATIO);
  });

  it('holds no admin code: no react-admin, no resources, no engine pages, no gateway client', () => {
    // react-admin's theme (a plain object) is the one part the sign-in screens share with it.
    expect(inEntry(/node_modules\/(react-admin|ra-core|@tanstack|react-hook-form)\//)).toEqual([]);
    expect(inEntry(/node_modules\/ra-ui-materialui\//).map((id) => path.basename(id))).toEqual(['defaultTheme.js']);
    expect(inEntry(/\/src\/(resources|dataProvider)\//)).toEqual([]);
    // The loader of the components' French texts (a dynamic import) is the engine's one module here.
    expect(inEntry(/\/src\/schema\/ui\//).map((id) => path.basename(id))).toEqual(['component-locales.ts']);
    expect(inEntry(/\/src\/app\/(admin|route-tables|resources|layout)\.tsx?$/)).toEqual([]);
    expect(inEntry(/node_modules\/(@mui\/x-|@mui\/icons-material|papaparse|jsbarcode|dompurify|ajv)/)).toEqual([]);
    expect(inEntry(/\/src\/custom\/account\/login-page\.tsx$/)).toHaveLength(1);
  });

  it('never awaits at its top level: lazy chunks import shared code from it, which would then never come', () => {
    for (const { file } of app.files) {
      expect(hasTopLevelAwait(readFileSync(path.join(work, 'app', file), 'utf8')), file).toBe(false);
    }
  });

  it('holds only the auth parts of Amplify', () => {
    const packages = new Set(
      inEntry(/node_modules\/(@aws-amplify|aws-amplify)\//).map(
        (id) => /.*node_modules\/((?:@aws-amplify\/)?[^/]+)/.exec(id)![1],
      ),
    );
    expect([...packages].sort()).toEqual(['@aws-amplify/auth', '@aws-amplify/core', 'aws-amplify']);
    expect(inEntry(/node_modules\/aws-amplify\/dist\/esm\/(?!auth\/|Amplify\.mjs|initSingleton)/)).toEqual([]);
  });

  it('holds English only: French loads when chosen', () => {
    expect(inEntry(/locales\/en-US\.json$/)).toHaveLength(1);
    expect(inEntry(/locales\/fr-FR\.json$|ra-language-french|date-fns\/locale\/fr|@mui\/material\/locale/)).toEqual([]);
  });
});
