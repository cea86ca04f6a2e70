import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text formats worth compressing; images and fonts in our build are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml|ico)$/i;
/** Below this a compressed answer saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) beside every compressible
 * file of `dir` of at least 1 KB, when the compressed copy is smaller. Done once at build time, so
 * the gateway serves them (@fastify/static `preCompressed`) without compressing per request.
 * Returns the files compressed.
 */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        visit(file);
        continue;
      }
      if (!COMPRESSIBLE.test(entry.name) || statSync(file).size < MIN_BYTES) continue;
      const content = readFileSync(file);
      const brotli = brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      });
      const gzip = gzipSync(content, { level: 9 });
      if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
      if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
      done.push(path.relative(dir, file));
    }
  };
  visit(dir);
  return done;
}

/** Vite plugin: precompresses the build's output once everything is written. */
export function precompress(): Plugin {
  return {
    name: 'webtool-precompress',
    apply: 'build',
    // After the files are written; Vite copied `public/` into the folder before.
    writeBundle(options) {
      if (options.dir) precompressDir(options.dir);
    },
  };
}
