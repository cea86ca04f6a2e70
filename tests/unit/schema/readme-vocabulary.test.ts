import { describe, expect, it } from 'vitest';
import type { SchemaObject } from 'ajv';
import readme from '../../../schemas/README.md?raw';
import { vocabulary } from '../../../src/schema/ajv.ts';

const lines = readme.split('\n');
const keywords = vocabulary().map(([keyword]) => keyword);

/** The keyword a line starts documenting: a bullet `- \`x-column\`` / `- \`"x-phone-country": …`, or a heading. */
function documented(line: string): string | undefined {
  const bullet = /^- `"?(x-[a-z-]+)["`]/.exec(line)?.[1];
  const heading = /^#+ .*`(x-[a-z-]+)`/.exec(line)?.[1];
  const keyword = bullet ?? heading;
  return keyword && keywords.includes(keyword) ? keyword : undefined;
}

/** Where the README documents each keyword: from its bullet or heading to the next keyword's or heading. */
function sections(): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | undefined;
  let text: string[] = [];
  const close = () => {
    if (current && !found.has(current)) found.set(current, text.join('\n'));
  };
  for (const line of lines) {
    const keyword = documented(line);
    if (keyword || /^#/.test(line)) {
      close();
      current = keyword;
      text = [];
    }
    text.push(line);
  }
  close();
  return found;
}

/** The keys a meta-schema accepts: its properties, its items' and its branches', one level down. */
function keysOf(metaSchema: SchemaObject): string[] {
  const schemas: SchemaObject[] = [metaSchema, metaSchema.items, ...(metaSchema.oneOf ?? [])].filter(Boolean);
  return [...new Set(schemas.flatMap((schema) => Object.keys((schema.properties ?? {}) as object)))];
}

/** Whether a code span of the text names the key: `kind`, `{ kind, tab }`, `"toggle": …`. */
function namesKey(text: string, key: string): boolean {
  const blocks = [...text.matchAll(/^```\w*\n([\s\S]*?)^```/gm)].map((block) => block[1]);
  const prose = text.replace(/^```\w*\n[\s\S]*?^```/gm, '');
  const spans = [...blocks, ...(prose.match(/`[^`]+`/g) ?? []).map((span) => span.slice(1, -1))];
  return spans.some((span) => new RegExp(`(^|[^A-Za-z_-])${key}([^A-Za-z_-]|$)`).test(span));
}

describe('schemas/README.md documents the whole schema vocabulary', () => {
  it('documents every x- keyword that src/schema/ajv.ts accepts, in its order', () => {
    const order = lines.map(documented).filter((keyword): keyword is string => keyword !== undefined);
    const firsts = [...new Set(order)];
    expect(keywords.filter((keyword) => !firsts.includes(keyword))).toEqual([]);
    expect(firsts).toEqual(keywords);
  });

  it('names every key of every keyword in that keyword’s section', () => {
    const text = sections();
    const missing = vocabulary().flatMap(([keyword, metaSchema]) =>
      keysOf(metaSchema)
        .filter((key) => !namesKey(text.get(keyword) ?? '', key))
        .map((key) => `${keyword}.${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents the keys of x-resource as bullets in the order the vocabulary lists them', () => {
    const section = sections().get('x-resource') ?? '';
    const bullets = [...section.matchAll(/^- `([a-zA-Z]+)`/gm)].map((match) => match[1]);
    const resource = vocabulary().find(([keyword]) => keyword === 'x-resource')?.[1] ?? {};
    expect(bullets).toEqual(Object.keys(resource.properties as object));
    // A key's own keys (`bulkImport.toggle`, `sort.last`) are named under its bullet.
    expect(namesKey(section, 'toggle')).toBe(true);
  });
});
