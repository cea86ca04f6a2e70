import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { bytes, gzipBytes, measureEntry, type EntrySize } from './entry-size.ts';
import { ratioResult, type BenchResult } from './measure.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
export const TARGET_RATIO = 1;

/** What Vite's build() hands back: the chunks with the modules each holds. */
interface BuiltChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  moduleIds?: string[];
  isDynamicEntry?: boolean;
}
type BuildOutput = { output: BuiltChunk[] } | { output: BuiltChunk[] }[];

const chunksOf = (built: unknown): BuiltChunk[] => {
  const result = built as BuildOutput;
  return (Array.isArray(result) ? result[0] : result).output.filter((chunk) => chunk.type === 'chunk');
};

export interface BuiltEntry extends EntrySize {
  /** Every JS chunk of the build, the lazy ones too. */
  chunks: (BuiltChunk & { gzipBytes?: number })[];
  /** The source modules (absolute ids) bundled into the entry files. */
  entryModules: string[];
}

async function measured(built: unknown, outDir: string): Promise<BuiltEntry> {
  const chunks = chunksOf(built);
  const entry = measureEntry(outDir);
  const inEntry = new Set(entry.files.map(({ file }) => file));
  return {
    ...entry,
    chunks,
    entryModules: chunks.filter((chunk) => inEntry.has(chunk.fileName)).flatMap((chunk) => chunk.moduleIds ?? []),
  };
}

/** The app, built by its own vite.config.ts, as `npm run build` does. */
export async function buildApp(outDir: string): Promise<BuiltEntry> {
  const built = await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return measured(built, outDir);
}

/**
 * The baseline: a bare react-admin app (one list resource; English, and French loaded on demand,
 * as react-admin documents) built by the same Vite and plugin, with Vite's default chunking.
 */
export async function buildBareApp(outDir: string): Promise<BuiltEntry> {
  const built = await build({
    configFile: false,
    root: path.join(here, 'bare-app'),
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  return measured(built, outDir);
}

/** The gzipped size of every lazy chunk (not in the entry), biggest first. */
export function lazyChunkSizes(app: BuiltEntry, gzipOf: (file: string) => number) {
  const inEntry = new Set(app.files.map(({ file }) => file));
  return app.chunks
    .filter((chunk) => !inEntry.has(chunk.fileName))
    .map((chunk) => ({ file: chunk.fileName, gzipBytes: gzipOf(chunk.fileName) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

let built: Promise<{ app: BuiltEntry; bare: BuiltEntry; appDir: string }> | undefined;

/**
 * The app and the bare app, built once per bench run (the entry and first-screen benchmarks share
 * them), every chunk with its gzipped size.
 */
export function builtApps() {
  built ??= (async () => {
    const appDir = path.join(root, '.tmp/bench-entry/app');
    const bareDir = path.join(root, '.tmp/bench-entry/bare');
    const app = await buildApp(appDir);
    const bare = await buildBareApp(bareDir);
    for (const [entry, dir] of [
      [app, appDir],
      [bare, bareDir],
    ] as const) {
      for (const chunk of entry.chunks) chunk.gzipBytes = gzipBytes(readFileSync(path.join(dir, chunk.fileName)));
    }
    return { app, bare, appDir };
  })();
  return built;
}

export async function entryBench(): Promise<BenchResult> {
  const { app, bare, appDir } = await builtApps();
  const lazy = lazyChunkSizes(app, (file) => gzipBytes(readFileSync(path.join(appDir, file))));
  const list = (files: { file: string; gzipBytes: number }[], count: number) =>
    files
      .slice(0, count)
      .map(({ file, gzipBytes: size }) => `${path.basename(file)} ${bytes(size)}`)
      .join(', ');
  return ratioResult(
    'Entry JS, gzipped (before any lazy chunk)',
    app.totalGzipBytes,
    bare.totalGzipBytes,
    TARGET_RATIO,
    [
      'Both: the JS files of index.html (module script, module preloads) and their static imports, transitively; each file gzipped (zlib default level), summed.',
      `Ours: the app with every area, ${app.files.length} files; biggest ${list(app.files, 4)}.`,
      `Baseline: a bare react-admin app (scripts/bench/bare-app: one list resource, ra-i18n-polyglot with ra-language-english, ra-language-french on demand), ${bare.files.length} file(s), same Vite.`,
      `Lazy chunks: ${lazy.length}, ${bytes(lazy.reduce((sum, chunk) => sum + chunk.gzipBytes, 0))} in all; biggest ${list(lazy, 5)}.`,
    ],
    bytes,
  );
}
