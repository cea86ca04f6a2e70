import path from 'node:path';
import { build } from 'vite';

/** Set for the scouting build's own reading of vite.config.ts. */
export const SCOUT_ENV = 'WEBTOOL_FIRST_SCREEN_SCOUT';

interface ScoutChunk {
  type: 'chunk' | 'asset';
  fileName: string;
  imports?: string[];
  moduleIds?: string[];
}

/**
 * The modules a signed-in user's first screen runs: those of `starts` (the admin, the list pages)
 * and what they import statically, transitively, as the bundler keeps them after tree-shaking. A
 * module graph alone cannot tell: react-admin and MUI are imported through barrel files that name
 * every component. So a first build (not written, not minified, vite.config.ts read with
 * `SCOUT_ENV` set: no vendor chunk) cuts the chunks by importer, and the chunks that `starts`
 * reach through static imports hold the answer. The real build then puts those of react-admin and
 * MUI in the admin's vendor chunk, and the rest (forms, record pages, tabs) in one loaded with the
 * first page that needs any of it.
 */
export async function firstScreenModules(root: string, starts: string[]): Promise<Set<string>> {
  process.env[SCOUT_ENV] = '1';
  let built: unknown;
  try {
    built = await build({
      root,
      logLevel: 'silent',
      build: { write: false, minify: false, outDir: path.join(root, '.tmp/first-screen-scout') },
    });
  } finally {
    delete process.env[SCOUT_ENV];
  }
  const output = (Array.isArray(built) ? built[0] : built) as { output: ScoutChunk[] };
  const chunks = output.output.filter((chunk) => chunk.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const startIds = new Set(starts.map((start) => path.resolve(root, start)));
  const reached = new Set<ScoutChunk>();
  const visit = (chunk: ScoutChunk | undefined) => {
    if (!chunk || reached.has(chunk)) return;
    reached.add(chunk);
    for (const file of chunk.imports ?? []) visit(byFile.get(file));
  };
  for (const chunk of chunks) if (chunk.moduleIds?.some((id) => startIds.has(id))) visit(chunk);
  if (reached.size === 0) throw new Error(`first-screen scout: no chunk holds ${[...startIds].join(', ')}`);
  return new Set([...reached].flatMap((chunk) => chunk.moduleIds ?? []));
}
