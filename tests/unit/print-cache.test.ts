import { beforeEach, describe, expect, it } from 'vitest';
import { cachePrintData, orDash, PRINT_CACHE_MS, printKeys, readPrintData } from '../../src/schema/print-cache.ts';

beforeEach(() => localStorage.clear());

describe('print cache', () => {
  it('keeps data for 30 minutes, then it is expired', () => {
    cachePrintData(printKeys.booking('B1'), [{ piece_id: 'P1' }], 1000);
    expect(readPrintData(printKeys.booking('B1'), 1000 + PRINT_CACHE_MS)).toEqual([{ piece_id: 'P1' }]);
    expect(readPrintData(printKeys.booking('B1'), 1001 + PRINT_CACHE_MS)).toBeUndefined();
  });

  it('treats missing or unreadable data as expired', () => {
    expect(readPrintData(printKeys.location('7'))).toBeUndefined();
    localStorage.setItem(printKeys.location('7'), '{not json');
    expect(readPrintData(printKeys.location('7'))).toBeUndefined();
    localStorage.setItem(printKeys.location('7'), JSON.stringify({ data: {} }));
    expect(readPrintData(printKeys.location('7'))).toBeUndefined();
  });

  it('prints a dash for every missing value', () => {
    expect([undefined, null, '', '  ', 0, 'Oslo'].map(orDash)).toEqual(['-', '-', '-', '-', '0', 'Oslo']);
  });
});
