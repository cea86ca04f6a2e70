import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US.json';
import fr from '../../locales/fr-FR.json';

function keys(node: unknown, prefix = ''): string[] {
  if (!node || typeof node !== 'object') return [prefix];
  return Object.entries(node).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}

describe('locales', () => {
  it('en-US and fr-FR have exactly the same keys', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
  });

  it('keep the same interpolation variables in both languages', () => {
    const variables = (text: string) => (text.match(/%\{\w+\}/g) ?? []).sort();
    const lookup = (root: unknown, key: string) =>
      key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], root);
    for (const key of keys(en)) {
      expect(variables(String(lookup(fr, key))), key).toEqual(variables(String(lookup(en, key))));
    }
  });

  it('have no empty message', () => {
    for (const key of [...keys(en)]) {
      const value = key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], en);
      expect(String(value).trim(), key).not.toBe('');
    }
  });
});
