import { describe, expect, it } from 'vitest';
import { readableValue } from '../../../src/schema/readable-value.ts';

const words = { yes: 'Yes', no: 'No' };
const weekdays: Record<string, string> = { '1': 'Monday', '3': 'Wednesday' };

describe('readableValue: any record value as a person reads it', () => {
  it('names each value of a list of choices, never the raw ids', () => {
    expect(readableValue([1, 3], { ...words, name: (value) => weekdays[String(value)] })).toBe('Monday, Wednesday');
  });

  it('reads an object as label: value pairs, booleans as Yes/No, leaving empty values out', () => {
    const keys: Record<string, string> = { first_mile: 'First mile', expiry_days: 'Expiry days' };
    const text = readableValue(
      { carrier_id: 4, first_mile: false, expiry_days: 5, note: '', tags: [] },
      { ...words, key: (key) => keys[key] ?? key },
    );
    expect(text).toBe('carrier_id: 4, First mile: No, Expiry days: 5');
    expect(text).not.toContain('[object Object]');
  });

  it('puts each object of a list on its own line, nested objects in brackets, and names only the field’s own values', () => {
    const value = [
      { feature_id: 187, has_permission: true, configurations: [{ type: 'region', show: true }] },
      { feature_id: 188, has_permission: false, limits: { max: 7 } },
    ];
    expect(readableValue(value, { ...words, name: () => 'NAMED' })).toBe(
      'feature_id: 187, has_permission: Yes, configurations: type: region, show: Yes\n' +
        'feature_id: 188, has_permission: No, limits: (max: 7)',
    );
  });

  it('gives nothing for empty values and the text itself for a plain value', () => {
    for (const empty of [undefined, null, '', []]) expect(readableValue(empty, words)).toBe('');
    expect(readableValue('Harbour kiosk', words)).toBe('Harbour kiosk');
    expect(readableValue(true, words)).toBe('Yes');
  });
});
