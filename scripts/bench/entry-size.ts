import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'vite';

export interface ChunkSize {
  /** Path relative to the build's folder, e.g. `assets/index-abc.js`. */
  file: string;
  gzipBytes: number;
}

export interface EntrySize {
  /** The JS files a browser loads before any lazy chunk, biggest first. */
  files: ChunkSize[];
  totalGzipBytes: number;
}

/** Gzip at the level servers and Vite's own report use (zlib's default). */
export function gzipBytes(content: string | Buffer): number {
  return gzipSync(content).length;
}

/** `src` of module scripts and `href` of module preloads: what index.html makes the browser fetch at once. */
export function htmlEntryScripts(html: string): string[] {
  const urls: string[] = [];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
    if (/^<script/i.test(tag) && attribute('type') === 'module' && attribute('src')) urls.push(attribute('src')!);
    if (/^<link/i.test(tag) && attribute('rel') === 'modulepreload' && attribute('href')) urls.push(attribute('href')!);
  }
  return urls;
}

/**
 * The specifiers of a module's static imports and re-exports. Dynamic `import()` is left out: it
 * is what a lazy chunk is.
 */
export function staticImports(code: string): string[] {
  const specifiers: string[] = [];
  for (const node of parseAst(code).body) {
    if (
      (node.type === 'ImportDeclaration' ||
        node.type === 'ExportAllDeclaration' ||
        node.type === 'ExportNamedDeclaration') &&
      node.source &&
      typeof node.source.value === 'string'
    ) {
      specifiers.push(node.source.value);
    }
  }
  return specifiers;
}

const functionNodes = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassBody']);

/** Whether a module awaits at its top level (outside any function), e.g. `await import(...)`. */
export function hasTopLevelAwait(code: string): boolean {
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    if (Array.isArray(node)) return node.some(visit);
    const { type } = node as { type?: string };
    if (type === 'AwaitExpression' || (type === 'ForOfStatement' && (node as { await?: boolean }).await)) return true;
    if (type && functionNodes.has(type)) return false;
    return Object.values(node).some(visit);
  };
  return visit(parseAst(code).body);
}

/** A URL of index.html or a chunk's import, as a path inside the build folder. */
function fileOf(url: string, importer: string | undefined): string {
  const clean = url.split(/[?#]/)[0];
  if (importer && !clean.startsWith('/'))
    return path.posix.normalize(path.posix.join(path.posix.dirname(importer), clean));
  return path.posix.normalize(clean.replace(/^(\.\/|\/)/, ''));
}

/**
 * "Entry JS": the JS a browser loads before any lazy chunk, gzipped file by file and summed. It
 * follows index.html's module scripts and module preloads, then the static imports of those
 * chunks, transitively.
 */
export function measureEntry(distDir: string): EntrySize {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const pending = htmlEntryScripts(html).map((url) => fileOf(url, undefined));
  const seen = new Set<string>();
  const files: ChunkSize[] = [];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(distDir, file), 'utf8');
    files.push({ file, gzipBytes: gzipBytes(code) });
    for (const specifier of staticImports(code)) {
      // A bare specifier would be an unbundled dependency the browser could not load anyway.
      if (specifier.startsWith('.') || specifier.startsWith('/')) pending.push(fileOf(specifier, file));
    }
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { files, totalGzipBytes: files.reduce((sum, { gzipBytes: bytes }) => sum + bytes, 0) };
}

export const bytes = (value: number) => `${value.toLocaleString('en-US')} B`;
