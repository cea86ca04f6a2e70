import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningSession } from '../../src/dataProvider/signed-fetch.ts';
import { startStack, type Stack } from './support/stack.ts';
import { auditTrail, fetchUpload, storedState } from './support/uploaded-files.ts';
import { uploadBody } from '../fixtures/upload-files.ts';
import { signInAll } from './support/sessions.ts';

let stack: Stack;
let operator: SigningSession;
let carrier: SigningSession;
let carrier2: SigningSession;

beforeAll(async () => {
  stack = await startStack();
  ({ operator, carrier, carrier2 } = await signInAll(stack, ['operator', 'carrier', 'carrier2']));
});
afterAll(() => stack?.close());

const ENDPOINT = 'webtool/partners/carrier';

const hostileLogo = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" onload="alert('load')">
  <script>alert('script')</script>
  <rect width="40" height="20" fill="#0a5"/>
  <a href="javascript:alert('link')"><circle cx="10" cy="10" r="5"/></a>
  <use href="http://evil.example/sprite.svg#x"/>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
</svg>`;

const svgFile = (text: string, name = 'logo.svg', type = 'image/svg+xml') => uploadBody(text, name, type);

async function carrierRecord(session: SigningSession, id: number) {
  const found = await stack.send(session, { method: 'GET', path: ENDPOINT, query: { carrier_id: id } });
  return (found.body.data as Record<string, unknown>[])[0];
}

const fetchFile = (url: string) => fetchUpload(stack, url);
const state = () => storedState(stack, 'partners/carrier');
const auditOf = (key: string) => auditTrail(stack, 'partners/carrier', key);

describe('carrier logo upload', () => {
  it('stores the sanitised SVG, serves it with a strict policy and records the change', async () => {
    const before = await carrierRecord(operator, 3);
    const uploaded = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 3, ...svgFile(hostileLogo) },
    });
    expect(uploaded.status).toBe(200);
    const data = uploaded.body.data as { logo_url: string; version: number; name: string };
    expect(data.logo_url).toMatch(/^\/uploads\/[\w-]{43}\.svg$/);
    expect(data).toMatchObject({ version: (before.version as number) + 1, name: before.name });
    expect(await carrierRecord(operator, 3)).toMatchObject({ logo_url: data.logo_url, version: data.version });

    const served = await fetchFile(data.logo_url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(served.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(served.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(served.text).toContain('<rect width="40" height="20" fill="#0a5"/>');
    expect(served.text).toContain('<circle cx="10" cy="10" r="5"/>');
    expect(served.text).not.toMatch(/script|alert|onload|javascript|evil\.example|foreignObject|html/i);

    const audit = await auditOf('3');
    expect(audit.at(-1)).toMatchObject({
      action: 'update',
      username: 'operator',
      changes: { logo_url: { from: null, to: data.logo_url } },
    });
  });

  it('a new logo replaces the old file, whose address stops working', async () => {
    const first = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 4, ...svgFile('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>') },
    });
    const second = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 4, ...svgFile('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>') },
    });
    const [oldUrl, newUrl] = [first, second].map((answer) => (answer.body.data as { logo_url: string }).logo_url);
    expect(newUrl).not.toBe(oldUrl);
    expect((await fetchFile(oldUrl)).status).toBe(404);
    expect((await fetchFile(newUrl)).text).toContain('<circle r="1"/>');
    const stored = await stack.db.query(`SELECT 1 FROM uploads WHERE resource = 'partners/carrier' AND key = '4'`);
    expect(stored.rows).toHaveLength(1);
  });

  it('a carrier uploads its own logo, but neither reaches nor changes another carrier’s (404)', async () => {
    const own = await stack.send(carrier, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 1, ...svgFile(hostileLogo) },
    });
    expect(own.status).toBe(200);
    const logoUrl = (own.body.data as { logo_url: string }).logo_url;

    const baseline = await state();
    const foreign = await stack.send(carrier2, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 1, ...svgFile(hostileLogo) },
    });
    expect(foreign.status).toBe(404);
    const foreignRemoval = await stack.send(carrier2, {
      method: 'DELETE',
      path: ENDPOINT,
      body: { opname: 'logo', carrier_id: 1 },
    });
    expect(foreignRemoval.status).toBe(404);
    expect(await carrierRecord(carrier2, 1)).toBeUndefined();
    expect(await state()).toEqual(baseline);
    expect((await carrierRecord(carrier, 1)).logo_url).toBe(logoUrl);
  });

  it.each([
    ['a PNG', { carrier_id: 2, ...svgFile('<svg/>', 'logo.png', 'image/png') }, 422, 'catalogue.svg_only'],
    ['an SVG named otherwise', { carrier_id: 2, ...svgFile('<svg/>', 'logo.txt') }, 422, 'catalogue.svg_only'],
    ['HTML sent as SVG', { carrier_id: 2, ...svgFile('<svg/>', 'logo.svg', 'text/html') }, 422, 'catalogue.svg_only'],
    [
      'a file over 1 MB',
      { carrier_id: 2, ...svgFile(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(1024 * 1024)}</svg>`) },
      413,
      'catalogue.file_too_large',
    ],
    [
      'malformed XML',
      { carrier_id: 2, ...svgFile('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>') },
      422,
      'catalogue.invalid_svg',
    ],
    [
      'an HTML page',
      { carrier_id: 2, ...svgFile('<html><body onload="x()"></body></html>') },
      422,
      'catalogue.invalid_svg',
    ],
    [
      'bytes that are not UTF-8 text',
      {
        carrier_id: 2,
        file_name: 'logo.svg',
        content_type: 'image/svg+xml',
        data: Buffer.from([0xff, 0xfe, 0x00, 0xd8]).toString('base64'),
      },
      422,
      'catalogue.invalid_svg',
    ],
  ])('refuses %s with its status and catalogue message, storing nothing', async (_what, body, status, messageKey) => {
    const baseline = await state();
    const answer = await stack.send(operator, { method: 'PUT', path: ENDPOINT, body });
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ success: false, message_key: messageKey });
    expect(typeof answer.body.message).toBe('string');
    expect(await state()).toEqual(baseline);
  });

  it.each([
    ['no carrier_id', svgFile(hostileLogo), 400],
    ['an unknown carrier', { carrier_id: 999, ...svgFile(hostileLogo) }, 404],
    ['no file', { carrier_id: 2, file_name: 'logo.svg', content_type: 'image/svg+xml' }, 400],
    ['data that is not base64', { carrier_id: 2, ...svgFile('<svg/>'), data: '<svg/>' }, 400],
    ['a carrier_id object', { carrier_id: { $ne: null }, ...svgFile(hostileLogo) }, 400],
  ])('refuses %s with a clean 4xx, storing nothing', async (_what, body, status) => {
    const baseline = await state();
    const answer = await stack.send(operator, { method: 'PUT', path: ENDPOINT, body });
    expect(answer.status).toBe(status);
    expect(typeof answer.body.message).toBe('string');
    expect(await state()).toEqual(baseline);
  });

  it('a body far over the limit is refused before it is read', async () => {
    const answer = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 2, ...svgFile('x'.repeat(3 * 1024 * 1024)) },
    });
    expect(answer.status).toBe(413);
  });

  it('a user without write access to carriers cannot upload', async () => {
    const maintenance = await stack.signIn('maintenance');
    const answer = await stack.send(maintenance, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 2, ...svgFile(hostileLogo) },
    });
    expect(answer.status).toBe(403);
  });
});

describe('carrier logo removal', () => {
  it('removes the logo and its file, recorded in the audit trail; removing nothing changes nothing', async () => {
    const uploaded = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 5, ...svgFile(hostileLogo) },
    });
    const { logo_url: logoUrl, version } = uploaded.body.data as { logo_url: string; version: number };

    const removed = await stack.send(operator, {
      method: 'DELETE',
      path: ENDPOINT,
      body: { opname: 'logo', carrier_id: 5 },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ carrier_id: 5, version: version + 1 });
    expect(removed.body.data).not.toHaveProperty('logo_url');
    expect(await carrierRecord(operator, 5)).not.toHaveProperty('logo_url');
    expect((await fetchFile(logoUrl)).status).toBe(404);
    expect((await auditOf('5')).at(-1)).toMatchObject({
      action: 'update',
      changes: { logo_url: { from: logoUrl, to: null } },
    });

    const baseline = await state();
    const again = await stack.send(operator, {
      method: 'DELETE',
      path: ENDPOINT,
      body: { opname: 'logo', carrier_id: 5 },
    });
    expect(again.status).toBe(200);
    expect(await state()).toEqual(baseline);
  });

  it('deleting a carrier deletes its logo file', async () => {
    const created = await stack.send(operator, {
      method: 'POST',
      path: ENDPOINT,
      body: { name: 'Logo Carrier', primary_country_code: 'DK', service_point_radius: 2 },
    });
    const id = (created.body.data as { carrier_id: number }).carrier_id;
    const uploaded = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: id, ...svgFile(hostileLogo) },
    });
    const { logo_url: logoUrl, version } = uploaded.body.data as { logo_url: string; version: number };
    const deleted = await stack.send(operator, { method: 'DELETE', path: ENDPOINT, body: { carrier_id: id, version } });
    expect(deleted.status).toBe(200);
    expect((await fetchFile(logoUrl)).status).toBe(404);
  });

  it('a carrier edit keeps the logo: the field is the gateway’s to set', async () => {
    const uploaded = await stack.send(operator, {
      method: 'PUT',
      path: ENDPOINT,
      body: { carrier_id: 6, ...svgFile(hostileLogo) },
    });
    const { logo_url: logoUrl, version } = uploaded.body.data as { logo_url: string; version: number };
    const edited = await stack.send(operator, {
      method: 'PATCH',
      path: ENDPOINT,
      body: { carrier_id: 6, version, name: 'Renamed Logo Carrier', logo_url: 'https://evil.example/x.svg' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'Renamed Logo Carrier', logo_url: logoUrl });
  });

  it('an unknown file is a 404', async () => {
    expect((await fetchFile('/uploads/nothing-here.svg')).status).toBe(404);
  });
});
