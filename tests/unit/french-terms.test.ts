import { describe, expect, it } from 'vitest';
import fr from '../../locales/fr-FR.json';

/*
 * Issue 24.2: one French term per thing. A service point is a "point de service" (never "point
 * relais"), a parcel a "colis" (never a "pièce", which is a spare part: "Remplacement de pièce").
 */

function texts(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => texts(value, path ? `${path}.${key}` : key));
  }
  return [];
}

const all = texts(fr);

describe('French terms', () => {
  it('calls a service point "point de service", never "point relais"', () => {
    expect(all.filter(([, text]) => /points? relais/i.test(text))).toEqual([]);
    expect(all.some(([, text]) => /point de service/i.test(text))).toBe(true);
  });

  it('calls a parcel "colis", never "pièce" (a spare part keeps its name)', () => {
    const parcelsAsPieces = all.filter(
      ([, text]) => /\bpièces?\b/i.test(text) && !/remplacement de pièces?/i.test(text),
    );
    expect(parcelsAsPieces).toEqual([]);
    expect(all.some(([, text]) => /\bcolis\b/i.test(text))).toBe(true);
  });

  it('calls a location owner "propriétaire de site", never "propriétaire d’emplacement" (a location is an emplacement)', () => {
    expect(all.filter(([, text]) => /propriétaires? (d[’']|de l[’'])emplacement/i.test(text))).toEqual([]);
    expect(all.some(([, text]) => /propriétaires? de sites?/i.test(text))).toBe(true);
  });
});
