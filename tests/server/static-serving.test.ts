import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { migrate, type Db } from '../../server/db/adapter.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { precompressDir } from '../../scripts/precompress.ts';
import { openTestDb } from './support/test-db.ts';

/** The built app's shape: an index.html naming a hashed entry, a lazy chunk, a stylesheet, an icon. */
const entry = `export const words = ${JSON.stringify('locker '.repeat(2000))};\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-AbC12_-x.js"></script></head><body>${'<!-- app -->'.repeat(200)}</body></html>`;

describe('the built app, served like production', () => {
  let dir: string;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'webtool-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), html);
    writeFileSync(path.join(dir, 'assets/index-AbC12_-x.js'), entry);
    writeFileSync(path.join(dir, 'assets/small-Zz9Yy8Xx.js'), 'export const a = 1;\n');
    writeFileSync(path.join(dir, 'assets/index-Qq7Ww6Ee.css'), `body{margin:0}${'.row{padding:0 4px}'.repeat(200)}`);
    writeFileSync(path.join(dir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`);
    expect(precompressDir(dir).sort()).toEqual(
      ['assets/index-AbC12_-x.js', 'assets/index-Qq7Ww6Ee.css', 'favicon.svg', 'index.html'].sort(),
    );
    db = await openTestDb();
    await migrate(db);
    app = await buildApp({ db, identity: createIdentity(db, { local: true, log: () => {} }), distDir: dir });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    app.inject({ method, url, headers });

  it('writes brotli and gzip copies that decompress to the file, and none for a file under 1 KB', () => {
    const file = path.join(dir, 'assets/index-AbC12_-x.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(entry);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(entry);
    expect(() => readFileSync(path.join(dir, 'assets/small-Zz9Yy8Xx.js.br'))).toThrow();
  });

  it('answers with the encoding the browser accepts, brotli first, and says it varies by it', async () => {
    const url = '/assets/index-AbC12_-x.js';
    const brotli = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(entry);
    expect(brotli.rawPayload.length).toBeLessThan(entry.length / 10);

    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(entry);

    const plain = await get(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(entry);

    const stylesheet = await get('/assets/index-Qq7Ww6Ee.css', { 'accept-encoding': 'br' });
    expect(stylesheet.headers['content-encoding']).toBe('br');
    expect(stylesheet.headers['content-type']).toMatch(/^text\/css/);
  });

  it('keeps hashed assets a year and never caches index.html, neither at / nor as the fallback of a route', async () => {
    for (const url of ['/assets/index-AbC12_-x.js', '/assets/small-Zz9Yy8Xx.js', '/assets/index-Qq7Ww6Ee.css']) {
      const response = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
    for (const url of ['/', '/index.html', '/service_points', '/service_points/101/show?tab=1']) {
      const response = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(html);
    }
    const icon = await get('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD wherever GET answers, with the same headers and no body', async () => {
    for (const url of ['/', '/index.html', '/service_points', '/assets/index-AbC12_-x.js', '/favicon.svg']) {
      const headers = { 'accept-encoding': 'br, gzip' };
      const [got, head] = [await get(url, headers), await get(url, headers, 'HEAD')];
      expect(head.statusCode, url).toBe(200);
      expect(head.body, url).toBe('');
      for (const name of ['content-type', 'content-encoding', 'cache-control', 'vary', 'content-length', 'etag']) {
        expect(head.headers[name], `${url} ${name}`).toBe(got.headers[name]);
      }
    }
  });

  it('does not serve the compressed copies under their own names, nor an unknown asset, nor the API as the app', async () => {
    expect((await get('/assets/index-AbC12_-x.js.br')).statusCode).toBe(404);
    expect((await get('/assets/missing-00000000.js')).statusCode).toBe(404);
    const api = await get('/webtool/unknown_thing');
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect((await get('/healthz', {}, 'HEAD')).statusCode).toBe(200);
  });
});
