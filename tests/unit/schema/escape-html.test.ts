import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/schema/validators/escape-html.ts';

const unescape = (html: string) => {
  const element = document.createElement('textarea');
  element.innerHTML = html;
  return element.value;
};

describe('escapeHtml', () => {
  it('escapes markup characters', () => {
    expect(escapeHtml(`<b class="x">Tom & 'Jerry'</b>`)).toBe(
      '&lt;b class=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;',
    );
  });

  it('leaves no tag behind and round-trips through the browser parser', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const html = escapeHtml(text);
        expect(html).not.toMatch(/[<>"']/);
        expect(unescape(html)).toBe(text.replace(/\r\n?/g, '\n'));
      }),
    );
  });
});
