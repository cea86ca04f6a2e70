import { describe, expect, it } from 'vitest';
import { createSvgSanitiser, svgFileProblem, SVG_MAX_BYTES } from '../../src/schema/svg-upload.ts';

const sanitise = createSvgSanitiser(window);

const hostile = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 40 20" onload="alert(1)">
  <style><![CDATA[.brand { fill: #c00 }]]></style>
  <script>alert(2)</script>
  <defs><path id="mark" d="M0 0L10 10Z"/><linearGradient id="sky"><stop offset="0" stop-color="#09f"/></linearGradient></defs>
  <rect class="brand" width="40" height="20" fill="url(#sky)" onclick="steal()"/>
  <a href="javascript:alert(3)"><circle cx="5" cy="5" r="4"/></a>
  <a xlink:href="javascript:alert(4)"><ellipse rx="2" ry="1"/></a>
  <use href="http://evil.example/sprite.svg#x"/>
  <use xlink:href="https://evil.example/sprite.svg#y"/>
  <use href="#mark"/>
  <image href="data:image/svg+xml;base64,PHN2Zy8+"/>
  <image href="data:image/png;base64,iVBORw0KGgo="/>
  <set attributeName="onmouseover" to="alert(5)"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(6)"/></div></foreignObject>
  <text x="1" y="18">Nord &amp; Post</text>
</svg>`;

describe('the SVG sanitiser', () => {
  const clean = sanitise(hostile)!;
  const parsed = new DOMParser().parseFromString(clean, 'image/svg+xml');
  const all = (selector: string) => [...parsed.querySelectorAll(selector)];

  it('removes scripts, event handlers, foreign content and script URLs', () => {
    expect(clean).not.toMatch(/script|alert|onload|onclick|onerror|onmouseover|steal/i);
    expect(all('foreignObject, div, img, set')).toHaveLength(0);
  });

  it('removes links that leave the file, and embedded SVG that would escape the sanitiser', () => {
    expect(clean).not.toContain('evil.example');
    expect(clean).not.toContain('image/svg+xml');
    expect(all('use').map((use) => use.getAttribute('href'))).toEqual([null, null, '#mark']);
    expect(all('image').map((image) => image.getAttribute('href'))).toEqual([
      null,
      'data:image/png;base64,iVBORw0KGgo=',
    ]);
  });

  it('keeps the drawing: shapes, styles, gradients, text and the SVG namespace', () => {
    expect(parsed.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(parsed.documentElement.getAttribute('viewBox')).toBe('0 0 40 20');
    expect(parsed.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(all('rect')[0].getAttribute('fill')).toBe('url(#sky)');
    expect(all('circle, ellipse, path, linearGradient, stop')).toHaveLength(5);
    expect(all('style')[0].textContent).toBe('.brand { fill: #c00 }');
    expect(all('text')[0].textContent).toBe('Nord & Post');
  });

  it.each([
    ['malformed XML', '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'],
    ['an SVG root without the SVG namespace', '<svg><rect/></svg>'],
    ['another XML document', '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'],
    ['plain text', 'not an image'],
    ['nothing', ''],
    [
      'an external entity',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
    ],
  ])('refuses %s', (_what, text) => {
    expect(sanitise(text)).toBeUndefined();
  });
});

describe('the file checks before reading', () => {
  it.each([
    [{ name: 'logo.svg', type: 'image/svg+xml', size: SVG_MAX_BYTES }, undefined],
    [{ name: 'LOGO.SVG', type: 'image/svg+xml', size: 10 }, undefined],
    [{ name: 'logo.svg', type: 'image/svg+xml', size: SVG_MAX_BYTES + 1 }, 'catalogue.file_too_large'],
    [{ name: 'logo.png', type: 'image/png', size: 10 }, 'catalogue.svg_only'],
    [{ name: 'logo.png', type: 'image/svg+xml', size: 10 }, 'catalogue.svg_only'],
    [{ name: 'logo.svg', type: 'text/html', size: 10 }, 'catalogue.svg_only'],
  ])('%o -> %s', (file, problem) => {
    expect(svgFileProblem(file)).toBe(problem);
  });
});
